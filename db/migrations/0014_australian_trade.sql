CREATE TABLE "adjustment_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"note_number" text GENERATED ALWAYS AS ('AN-' || (100000 + id)::text) STORED NOT NULL,
	"order_id" integer NOT NULL,
	"return_request_id" integer,
	"reason" text NOT NULL,
	"lines" jsonb NOT NULL,
	"subtotal_cents" integer NOT NULL,
	"gst_cents" integer NOT NULL,
	"shipping_cents" integer NOT NULL,
	"shipping_gst_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"refund_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "adjustment_notes_total_adds_up" CHECK ("adjustment_notes"."total_cents" = "adjustment_notes"."subtotal_cents" + "adjustment_notes"."gst_cents" + "adjustment_notes"."shipping_cents")
);
--> statement-breakpoint
CREATE TABLE "order_fulfilments" (
	"order_id" integer PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"carrier" text,
	"tracking_number" text,
	"shipped_at" timestamp with time zone,
	"ready_at" timestamp with time zone,
	"collect_reminder_sent_at" timestamp with time zone,
	"collected_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_gst_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fulfilment" text DEFAULT 'delivery' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "contact_phone" text;--> statement-breakpoint
ALTER TABLE "adjustment_notes" ADD CONSTRAINT "adjustment_notes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjustment_notes" ADD CONSTRAINT "adjustment_notes_return_request_id_return_requests_id_fk" FOREIGN KEY ("return_request_id") REFERENCES "public"."return_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_fulfilments" ADD CONSTRAINT "order_fulfilments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "adjustment_notes_number_key" ON "adjustment_notes" USING btree ("note_number");--> statement-breakpoint
CREATE INDEX "adjustment_notes_order_idx" ON "adjustment_notes" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refund_within_total" CHECK ("orders"."refunded_cents" >= 0 and "orders"."refunded_cents" <= "orders"."total_cents");--> statement-breakpoint
-- Refunds made before the amount was kept: a cancelled paid order was refunded in full; an approved return's amount is in the audit log.
UPDATE "orders" SET "refunded_cents" = "total_cents", "refunded_at" = "updated_at" WHERE "payment_status" = 'Refunded' AND "status" = 'Cancelled';--> statement-breakpoint
UPDATE "orders" o SET "refunded_cents" = LEAST(o."total_cents", r."cents"), "refunded_at" = r."at",
  "payment_status" = CASE WHEN r."cents" >= o."total_cents" THEN 'Refunded' ELSE 'Partially refunded' END
FROM (
  SELECT (a."details"->>'orderId')::int AS "order_id", SUM((a."details"->>'refundCents')::int) AS "cents", MAX(a."created_at") AS "at"
  FROM "audit_log" a WHERE a."action" = 'return.approve' AND a."details" ? 'refundCents' GROUP BY 1
) r
WHERE o."id" = r."order_id" AND o."payment_status" = 'Refunded' AND o."status" <> 'Cancelled' AND o."points_spent" = 0;--> statement-breakpoint
-- Orders fulfilled before fulfilment records: shipped by an unnamed carrier at the time they were fulfilled.
INSERT INTO "order_fulfilments" ("order_id", "method", "shipped_at", "created_at", "updated_at")
SELECT "id", 'delivery', "fulfilled_at", "fulfilled_at", "fulfilled_at" FROM "orders" WHERE "fulfilled_at" IS NOT NULL;
