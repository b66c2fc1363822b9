CREATE TABLE "withdrawal_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"subscription_id" uuid,
	"via" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"time_zone" text,
	"withdrawn_at" timestamp with time zone NOT NULL,
	"period_ends_at" timestamp with time zone NOT NULL,
	"rule" text NOT NULL,
	"paid_minor" integer NOT NULL,
	"refund_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"refund_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "start_now" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawal_tokens" ADD CONSTRAINT "withdrawal_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawal_tokens_token_hash_key" ON "withdrawal_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_order_id_key" ON "withdrawals" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "withdrawals_user_id_idx" ON "withdrawals" USING btree ("user_id");--> statement-breakpoint
-- Withdrawal records are append-only (Directive 2011/83/EU Art. 11a: the trader keeps the acknowledgement's facts):
-- no UPDATE, DELETE or TRUNCATE, whoever asks.
CREATE FUNCTION "withdrawals_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'withdrawal records are append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "withdrawals_append_only" BEFORE UPDATE OR DELETE ON "withdrawals"
  FOR EACH ROW EXECUTE FUNCTION "withdrawals_append_only"();--> statement-breakpoint
CREATE TRIGGER "withdrawals_no_truncate" BEFORE TRUNCATE ON "withdrawals"
  FOR EACH STATEMENT EXECUTE FUNCTION "withdrawals_append_only"();
