-- The location-request state machine (lib/request-machine.ts) gains `paused`, `reported` and `withdrawn`.
-- A new enum type, not ALTER TYPE ... ADD VALUE: rows are moved to the new values in this same transaction, which
-- PostgreSQL refuses for values added to an existing type ("unsafe use of new value").
ALTER TYPE "public"."location_request_status" RENAME TO "location_request_status_v1";--> statement-breakpoint
CREATE TYPE "public"."location_request_status" AS ENUM('queued', 'sms_sent', 'opened', 'sharing', 'paused', 'stopped', 'declined', 'reported', 'expired', 'withdrawn');--> statement-breakpoint
ALTER TABLE "location_requests" ALTER COLUMN "status" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "location_requests" ALTER COLUMN "status" TYPE "public"."location_request_status" USING "status"::text::"public"."location_request_status";--> statement-breakpoint
ALTER TABLE "location_requests" ALTER COLUMN "status" SET DEFAULT 'queued';--> statement-breakpoint
DROP TYPE "public"."location_request_status_v1";--> statement-breakpoint
-- Requests that ended with the buyer's subscription were `expired` with `withdrawn_at` set.
UPDATE "location_requests" SET "status" = 'withdrawn' WHERE "status" = 'expired' AND "withdrawn_at" IS NOT NULL;--> statement-breakpoint
-- Requests the owner reported kept `stopped`, `declined` or `expired`; their report is in the consent records.
UPDATE "location_requests" r SET "status" = 'reported'
  WHERE r."status" IN ('stopped', 'declined', 'expired')
    AND EXISTS (SELECT 1 FROM "consents" c WHERE c."request_id" = r."id" AND c."decision" = 'reported');
