CREATE TABLE "opt_outs" (
	"phone_e164" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"request_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "location_requests" ADD COLUMN "first_shared_at" timestamp with time zone;