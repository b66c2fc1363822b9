CREATE TABLE "request_erasures" (
	"request_id" uuid PRIMARY KEY NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_references" (
	"request_id" uuid PRIMARY KEY NOT NULL,
	"reference" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_views" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "request_views_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"request_id" uuid NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "requester_blocks" (
	"phone_e164" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "requester_blocks_phone_e164_user_id_pk" PRIMARY KEY("phone_e164","user_id")
);
--> statement-breakpoint
CREATE TABLE "safety_codes" (
	"phone_e164" text PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "safety_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"phone_e164" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "request_erasures" ADD CONSTRAINT "request_erasures_request_id_location_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."location_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_references" ADD CONSTRAINT "request_references_request_id_location_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."location_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_views" ADD CONSTRAINT "request_views_request_id_location_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."location_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requester_blocks" ADD CONSTRAINT "requester_blocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "request_references_reference_key" ON "request_references" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "request_views_request_idx" ON "request_views" USING btree ("request_id","viewed_at");--> statement-breakpoint
CREATE INDEX "safety_sessions_phone_idx" ON "safety_sessions" USING btree ("phone_e164");--> statement-breakpoint
CREATE INDEX "location_requests_target_idx" ON "location_requests" USING btree ("target_e164","user_id");