-- Orders: a refund is claimed before the payment provider is asked, so that no transaction holds the order's lock
-- while the provider answers (docs/decisions/0009-no-network-call-inside-a-transaction.md). The claim is the state
-- `refunding` (lib/order-machine.ts) with what the call and its record need, idempotency key included
-- (`refund_claim`), and when it was taken on the wall clock (`refund_claimed_at`): a claim left by a crashed process
-- is finished by the billing cycle's sweep once it is older than REFUND_CLAIM_STALE_MS (services/refund-claims.ts).
ALTER TYPE "public"."order_status" ADD VALUE 'refunding' BEFORE 'refunded';--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_claim" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_refund_claimed_at_idx" ON "orders" ("refund_claimed_at") WHERE "refund_claimed_at" IS NOT NULL;
