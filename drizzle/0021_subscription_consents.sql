CREATE TABLE "subscription_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"user_email" text NOT NULL,
	"locale" text NOT NULL,
	"terms_version" text NOT NULL,
	"terms_text" text NOT NULL,
	"terms_hash" text NOT NULL,
	"trial_price_minor" integer NOT NULL,
	"monthly_price_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"start_now" boolean NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "subscription_consents_order_idx" ON "subscription_consents" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "subscription_consents_email_idx" ON "subscription_consents" USING btree ("user_email");--> statement-breakpoint
-- Proof of consent to the subscription is append-only: no UPDATE or TRUNCATE ever; DELETE only by the retention purge,
-- which sets app.subscription_consent_purge = 'on' for its own transaction (SET LOCAL).
CREATE FUNCTION "subscription_consents_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('app.subscription_consent_purge', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'subscription consent records are append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "subscription_consents_append_only" BEFORE UPDATE OR DELETE ON "subscription_consents"
  FOR EACH ROW EXECUTE FUNCTION "subscription_consents_append_only"();--> statement-breakpoint
CREATE TRIGGER "subscription_consents_no_truncate" BEFORE TRUNCATE ON "subscription_consents"
  FOR EACH STATEMENT EXECUTE FUNCTION "subscription_consents_append_only"();
