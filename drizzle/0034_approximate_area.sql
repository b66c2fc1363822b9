-- Exact or approximate, the owner's choice (docs/decisions/0022-approximate-area-cells.md): a request keeps how precise
-- its share is, each position whether it is a point or the centre of an area cell, and the owner's consent record the
-- choice they made (`shared`, `shared_again`, `approximated`).
ALTER TABLE "consents" ADD COLUMN "precision" text;--> statement-breakpoint
ALTER TABLE "location_requests" ADD COLUMN "precision" text DEFAULT 'exact' NOT NULL;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "precision" text DEFAULT 'exact' NOT NULL;