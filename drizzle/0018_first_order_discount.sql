CREATE TABLE "first_order_discounts" (
	"key" text PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"browser_key" text NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "price_offers" ALTER COLUMN "expires_at" DROP NOT NULL;