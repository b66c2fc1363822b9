-- The outbox announces its own messages: a message row written in a transaction is announced on the `outbox` channel
-- when that transaction commits (PostgreSQL docs, "NOTIFY": delivered at commit, never for a rolled-back one), and
-- the process that delivers messages hears it and enqueues it at once (server/jobs/outbox-listener.ts). No route or
-- service has to hand the ids of what it wrote to the job queue, and a forgotten hand-over can no longer leave a
-- message waiting for the minute sweep, which stays the safety net (docs/decisions/0005-outbox-with-pg-boss.md).
-- One notice per row, its channel and id as payload (`sms 0b1c…`: an SMS can go first); a transaction that writes several messages still takes the commit's notify
-- lock once. A row put back to `queued` with no retry time is announced as well.
CREATE FUNCTION "notify_outbox"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox', NEW.channel || ' ' || NEW.id::text);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "outbound_messages_announced" AFTER INSERT ON "outbound_messages" FOR EACH ROW
  EXECUTE FUNCTION "notify_outbox"();
--> statement-breakpoint
-- A message made due again by hand (the console's retry: back to `queued` with no retry time) is announced too.
CREATE TRIGGER "outbound_messages_requeued" AFTER UPDATE ON "outbound_messages" FOR EACH ROW
  WHEN (NEW.status = 'queued' AND NEW.next_attempt_at IS NULL
    AND (OLD.status <> 'queued' OR OLD.next_attempt_at IS NOT NULL))
  EXECUTE FUNCTION "notify_outbox"();
