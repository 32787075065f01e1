ALTER TABLE "orders" ADD COLUMN "fulfilled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "points_ledger" ADD COLUMN "available_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
-- Orders fulfilled before the return window existed: fulfilled when they were first marked Succeeded.
UPDATE "orders" SET "fulfilled_at" = coalesce((SELECT min("order_events"."created_at") FROM "order_events" WHERE "order_events"."order_id" = "orders"."id" AND "order_events"."status" = 'Succeeded'), "orders"."updated_at") WHERE "orders"."status" = 'Succeeded';--> statement-breakpoint
-- Entries written before points had a pending time were spendable when written, and stay so.
UPDATE "points_ledger" SET "available_at" = "created_at";
