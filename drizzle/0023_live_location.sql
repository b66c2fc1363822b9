ALTER TABLE "location_requests" ADD COLUMN "owner_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "location_requests" ADD COLUMN "live_signal" text;--> statement-breakpoint
-- Live location (services/live-hub.ts): every new position and every change a buyer's open map must see is announced
-- on the channel `request_live` at commit, by the database itself, so no code path can forget to. One row's payload
-- stays far below NOTIFY's 8000-byte limit (the label is cut to 200 characters).
CREATE FUNCTION "notify_request_live"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'positions' THEN
    PERFORM pg_notify('request_live', json_build_object(
      'r', NEW.request_id, 'k', 'p', 'id', NEW.id, 'source', NEW.source, 'latitude', NEW.latitude,
      'longitude', NEW.longitude, 'accuracy', NEW.accuracy_m, 'label', left(NEW.label, 200),
      'recordedAt', NEW.recorded_at)::text);
  ELSE
    PERFORM pg_notify('request_live', json_build_object(
      'r', NEW.id, 'k', 's', 'status', NEW.status, 'shared', NEW.first_shared_at IS NOT NULL,
      'ownerSeenAt', NEW.owner_seen_at, 'liveSignal', NEW.live_signal, 'sharingUntil', NEW.sharing_until)::text);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "positions_live" AFTER INSERT ON "positions" FOR EACH ROW EXECUTE FUNCTION "notify_request_live"();--> statement-breakpoint
CREATE TRIGGER "location_requests_live" AFTER UPDATE ON "location_requests" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.owner_seen_at IS DISTINCT FROM NEW.owner_seen_at
    OR OLD.live_signal IS DISTINCT FROM NEW.live_signal OR OLD.sharing_until IS DISTINCT FROM NEW.sharing_until)
  EXECUTE FUNCTION "notify_request_live"();
