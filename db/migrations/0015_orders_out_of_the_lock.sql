ALTER TABLE "orders" ADD COLUMN "payment_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reserved_by" text;--> statement-breakpoint
CREATE INDEX "orders_reservations_idx" ON "orders" USING btree ("payment_started_at") WHERE "orders"."payment_started_at" is not null;