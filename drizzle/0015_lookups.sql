CREATE TYPE "public"."username_check_status" AS ENUM('running', 'stopped', 'done');--> statement-breakpoint
CREATE TYPE "public"."username_outcome" AS ENUM('found', 'not_found', 'unknown');--> statement-breakpoint
CREATE TABLE "breach_checks" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"breaches" jsonb NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "username_check_results" (
	"check_id_hash" text NOT NULL,
	"site" text NOT NULL,
	"outcome" "username_outcome" NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "username_check_results_check_id_hash_site_pk" PRIMARY KEY("check_id_hash","site")
);
--> statement-breakpoint
CREATE TABLE "username_checks" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"include_nsfw" boolean DEFAULT false NOT NULL,
	"status" "username_check_status" DEFAULT 'running' NOT NULL,
	"total" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "breach_checks" ADD CONSTRAINT "breach_checks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "username_check_results" ADD CONSTRAINT "username_check_results_check_id_hash_username_checks_id_hash_fk" FOREIGN KEY ("check_id_hash") REFERENCES "public"."username_checks"("id_hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "username_checks_expires_idx" ON "username_checks" USING btree ("expires_at");