ALTER TABLE "outbound_messages" ADD COLUMN "redacted" jsonb;
