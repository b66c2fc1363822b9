-- Live location: a new position and a heartbeat no longer notify in their own transaction. PostgreSQL commits
-- notifying transactions one at a time under one database-wide lock (bench/notify-report.md), so one NOTIFY per fix
-- capped the whole deployment's fix rate. The app announces committed positions and heartbeats itself, batched and ids
-- only (services/live-broker.ts, docs/decisions/0019-live-broker.md); a request's status, live signal and sharing end
-- keep their trigger (far rarer, and every path that changes them must reach the open maps).
DROP TRIGGER IF EXISTS "positions_live" ON "positions";--> statement-breakpoint
DROP TRIGGER IF EXISTS "location_requests_live" ON "location_requests";--> statement-breakpoint
CREATE TRIGGER "location_requests_live" AFTER UPDATE ON "location_requests" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.live_signal IS DISTINCT FROM NEW.live_signal
    OR OLD.sharing_until IS DISTINCT FROM NEW.sharing_until)
  EXECUTE FUNCTION "notify_request_live"();
