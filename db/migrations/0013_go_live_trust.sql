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
CREATE TABLE "payment_declines" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"address" text,
	"card_fingerprint" text,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"user_agent" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"failures" integer NOT NULL,
	"not_before" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "period_started_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "payment_method_id" integer;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "pending_plan" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "reminded_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fulfilled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "points_ledger" ADD COLUMN "available_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "proven_by" text DEFAULT 'password' NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "proven_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_last_step" integer;--> statement-breakpoint
ALTER TABLE "membership_charges" ADD CONSTRAINT "membership_charges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_charges" ADD CONSTRAINT "membership_charges_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_declines" ADD CONSTRAINT "payment_declines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "membership_charges_period_key" ON "membership_charges" USING btree ("user_id","period_start","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "membership_charges_one_in_flight" ON "membership_charges" USING btree ("user_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "payment_declines_created_idx" ON "payment_declines" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payment_declines_user_idx" ON "payment_declines" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sign_in_challenges_user_idx" ON "sign_in_challenges" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sign_in_throttle_account_idx" ON "sign_in_throttle" USING btree ("account");--> statement-breakpoint
CREATE INDEX "sign_in_throttle_expires_idx" ON "sign_in_throttle" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memberships_renews_idx" ON "memberships" USING btree ("renews_on");--> statement-breakpoint
-- Orders fulfilled before the return window existed: fulfilled when they were first marked Succeeded.
UPDATE "orders" SET "fulfilled_at" = coalesce((SELECT min("order_events"."created_at") FROM "order_events" WHERE "order_events"."order_id" = "orders"."id" AND "order_events"."status" = 'Succeeded'), "orders"."updated_at") WHERE "orders"."status" = 'Succeeded';--> statement-breakpoint
-- Entries written before points had a pending time were spendable when written, and stay so
-- (made pending now, points already spent would leave a balance below zero).
UPDATE "points_ledger" SET "available_at" = "created_at";--> statement-breakpoint
-- Staff sign in with their password (and second factor): Google links made before that rule go.
UPDATE "users" SET "google_subject" = NULL WHERE "role" = 'admin';--> statement-breakpoint
-- Memberships from before billing: the period they paid for is the month before their renewal date.
UPDATE "memberships" SET "period_started_at" = "renews_on" - interval '1 month';
