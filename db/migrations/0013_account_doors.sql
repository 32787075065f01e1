CREATE TABLE "sign_in_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"failures" integer NOT NULL,
	"not_before" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_throttle_account_idx" ON "sign_in_throttle" USING btree ("account");--> statement-breakpoint
CREATE INDEX "sign_in_throttle_expires_idx" ON "sign_in_throttle" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "proven_by" text DEFAULT 'password' NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "proven_at" timestamp with time zone DEFAULT now() NOT NULL;
