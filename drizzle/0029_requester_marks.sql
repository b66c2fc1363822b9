CREATE TABLE "requester_marks" (
	"request_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "requester_marks_request_id_kind_pk" PRIMARY KEY("request_id","kind")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payer_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "browser_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "client_key" text;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "requester_side" text;--> statement-breakpoint
ALTER TABLE "requester_marks" ADD CONSTRAINT "requester_marks_request_id_location_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."location_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "requester_marks_kind_value_idx" ON "requester_marks" USING btree ("kind","value");