CREATE TABLE "payment_declines" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"address" text,
	"card_fingerprint" text,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_declines" ADD CONSTRAINT "payment_declines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_declines_created_idx" ON "payment_declines" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payment_declines_user_idx" ON "payment_declines" USING btree ("user_id");
