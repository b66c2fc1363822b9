-- Fixes driven by viewers (server/services/watchers.ts): until when a buyer's map of a request counts as open, pushed
-- forward by the app processes that hold its live streams, and when the buyer last pressed "Refresh now". Neither is
-- announced to the map (the live trigger watches other columns).
ALTER TABLE "location_requests" ADD COLUMN "watched_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "location_requests" ADD COLUMN "fix_wanted_at" timestamp with time zone;