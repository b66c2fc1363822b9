-- Secrets are kept only as hashes (docs/rules.md#retention): those written before this release leave the database. Consent codes become [code] in requests and in
-- SMS already handed over; e-mails already handed over whose template carried a password, a reset code or a cancel
-- token lose their texts (they cannot be re-rendered: their parameters were never kept). Queued rows still need theirs.
UPDATE "location_requests"
  SET "sms_text" = regexp_replace("sms_text", '\?c=[A-Za-z0-9_-]+', '?c=[code]', 'g')
  WHERE "sms_text" ~ '\?c=[A-Za-z0-9_-]{16,}';--> statement-breakpoint
UPDATE "outbound_messages"
  SET "body" = regexp_replace("body", '\?c=[A-Za-z0-9_-]+', '?c=[code]', 'g'), "redacted_at" = now()
  WHERE "channel" = 'sms' AND "status" <> 'queued' AND "body" ~ '\?c=[A-Za-z0-9_-]{16,}';--> statement-breakpoint
UPDATE "outbound_messages"
  SET "body" = '[removed: this message held a password, a code or a single-use link]', "html" = NULL,
    "redacted_at" = now()
  WHERE "channel" = 'email' AND "status" <> 'queued' AND "redacted_at" IS NULL
    AND "template" IN ('order-credentials', 'temporary-password', 'reset-code', 'cancel-link');
