ALTER TABLE "consents" DROP CONSTRAINT "consents_request_id_location_requests_id_fk";
--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "target_e164" text;--> statement-breakpoint
ALTER TABLE "location_requests" ADD COLUMN "location_denied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "location_requests" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD COLUMN "status_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD COLUMN "redacted_at" timestamp with time zone;--> statement-breakpoint
UPDATE "consents" c SET "target_e164" = r."target_e164" FROM "location_requests" r WHERE r."id" = c."request_id";--> statement-breakpoint
-- Consent records are append-only (docs/rules.md#consent): no UPDATE ever; DELETE only by the retention purge, which sets
-- app.consent_purge = 'on' for its own transaction (SET LOCAL).
CREATE FUNCTION "consents_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('app.consent_purge', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'consent records are append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "consents_append_only" BEFORE UPDATE OR DELETE ON "consents"
  FOR EACH ROW EXECUTE FUNCTION "consents_append_only"();--> statement-breakpoint
CREATE TRIGGER "consents_no_truncate" BEFORE TRUNCATE ON "consents"
  FOR EACH STATEMENT EXECUTE FUNCTION "consents_append_only"();
