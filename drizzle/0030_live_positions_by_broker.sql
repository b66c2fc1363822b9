-- Live location: a new position no longer notifies in its own transaction. PostgreSQL commits notifying transactions
-- one at a time under one database-wide lock (bench/notify-report.md), so one NOTIFY per fix capped the whole
-- deployment's fix rate. The app announces committed positions itself, batched and ids only (services/live-broker.ts,
-- docs/decisions/0019-live-broker.md); a request's state and heartbeat changes keep their trigger (far rarer).
DROP TRIGGER IF EXISTS "positions_live" ON "positions";
