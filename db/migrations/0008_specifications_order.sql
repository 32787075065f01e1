ALTER TABLE "products" ALTER COLUMN "specifications" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "specifications" SET DATA TYPE json USING "specifications"::json;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "specifications" SET DEFAULT '{}'::json;
