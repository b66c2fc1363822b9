-- The order reference people read (`CH-` + 4 + `-` + 2 characters of Crockford's base32 alphabet, which has no I, L, O
-- or U: https://www.crockford.com/base32.html), unique; orders made before it get one here. The random `code` stays
-- the key of checkout and status URLs. The card's scheme (Stripe's `card.brand` names) is kept beside its last four.
ALTER TABLE "orders" ADD COLUMN "reference" text;--> statement-breakpoint
DO $$
DECLARE
  alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  row_id uuid;
  body text;
BEGIN
  FOR row_id IN SELECT "id" FROM "orders" WHERE "reference" IS NULL LOOP
    LOOP
      body := '';
      FOR i IN 1..6 LOOP
        body := body || substr(alphabet, 1 + floor(random() * 32)::int, 1);
      END LOOP;
      body := 'CH-' || substr(body, 1, 4) || '-' || substr(body, 5, 2);
      EXIT WHEN NOT EXISTS (SELECT 1 FROM "orders" WHERE "reference" = body);
    END LOOP;
    UPDATE "orders" SET "reference" = body WHERE "id" = row_id;
  END LOOP;
END $$;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "reference" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "card_brand" text;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_reference_key" ON "orders" USING btree ("reference");
