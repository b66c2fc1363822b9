ALTER TYPE "public"."message_status" ADD VALUE 'sending';--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD COLUMN "next_attempt_at" timestamp with time zone;