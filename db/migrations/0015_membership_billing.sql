ALTER TABLE "memberships" ADD COLUMN "period_started_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "payment_method_id" integer;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "pending_plan" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "reminded_for" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "membership_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"plan" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"payment_method_id" integer,
	"card_brand" text,
	"card_last4" text,
	"transaction_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_charges_amount_positive" CHECK ("membership_charges"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_charges" ADD CONSTRAINT "membership_charges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_charges" ADD CONSTRAINT "membership_charges_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memberships_renews_idx" ON "memberships" USING btree ("renews_on");--> statement-breakpoint
CREATE UNIQUE INDEX "membership_charges_period_key" ON "membership_charges" USING btree ("user_id","period_start","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "membership_charges_one_in_flight" ON "membership_charges" USING btree ("user_id") WHERE status = 'pending';--> statement-breakpoint
-- Memberships from before billing: the period they paid for is the month before their renewal date.
UPDATE "memberships" SET "period_started_at" = "renews_on" - interval '1 month';
