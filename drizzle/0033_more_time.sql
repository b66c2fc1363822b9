-- More time during a share: the requester may ask once per share (`more_time_ask`: asked, then granted or refused by
-- the owner; cleared by a new share), and the owner may add time (a consent record `extended`). The ask and a moved
-- end reach the buyer's open map as a `state` event, as the other changes of a request do
-- (docs/decisions/0021-more-time-is-the-owners-decision.md).
ALTER TABLE "location_requests" ADD COLUMN "more_time_ask" text;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "notify_request_live"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('request_live', json_build_object(
    'r', NEW.id, 'k', 's', 'status', NEW.status, 'shared', NEW.first_shared_at IS NOT NULL,
    'ownerSeenAt', NEW.owner_seen_at, 'liveSignal', NEW.live_signal, 'sharingUntil', NEW.sharing_until,
    'moreTime', NEW.more_time_ask)::text);
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "location_requests_live" ON "location_requests";--> statement-breakpoint
CREATE TRIGGER "location_requests_live" AFTER UPDATE ON "location_requests" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.live_signal IS DISTINCT FROM NEW.live_signal
    OR OLD.sharing_until IS DISTINCT FROM NEW.sharing_until OR OLD.more_time_ask IS DISTINCT FROM NEW.more_time_ask)
  EXECUTE FUNCTION "notify_request_live"();
