ALTER TABLE "safety_sessions" ADD COLUMN "requester_id" uuid;--> statement-breakpoint
-- Sessions opened from a consent link before the scope existed could see every requester: they end now.
DELETE FROM "safety_sessions" WHERE "via" = 'link';
