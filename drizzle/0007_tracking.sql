CREATE TABLE "ad_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_name" text NOT NULL,
	"event_time" timestamp with time zone NOT NULL,
	"action_source" text DEFAULT 'website' NOT NULL,
	"user_data" jsonb NOT NULL,
	"event_source_url" text,
	"test_event_code" text,
	"client_ip" text,
	"client_user_agent" text,
	"forward_status" text NOT NULL,
	"forward_attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"forwarded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "button_clicks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"btn_id" text NOT NULL,
	"apk_channel" text DEFAULT 'SEO' NOT NULL,
	"os" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operation_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_code" text NOT NULL,
	"event_type" smallint DEFAULT 1 NOT NULL,
	"curr_document" text NOT NULL,
	"domain" text NOT NULL,
	"track_id" text,
	"phone_os" smallint,
	"app_version" text,
	"locale" text DEFAULT 'en' NOT NULL,
	"channel" text DEFAULT 'SEO' NOT NULL,
	"keyword" text,
	"gclid" text,
	"wbraid" text,
	"source" text DEFAULT 'browser' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "attribution" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "ad_events_created_idx" ON "ad_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "button_clicks_created_idx" ON "button_clicks" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "operation_logs_event_created_idx" ON "operation_logs" USING btree ("event_code","created_at");