ALTER TABLE "orders" ADD COLUMN "requester_name" text;--> statement-breakpoint
ALTER TABLE "location_requests" ADD COLUMN "requester_name" text;