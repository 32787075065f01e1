CREATE TABLE "product_search" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"category_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"effective_price_cents" integer NOT NULL,
	"is_featured" boolean NOT NULL,
	"review_count" integer NOT NULL,
	"is_active" boolean NOT NULL,
	"sort_name" text NOT NULL,
	"title" "tsvector" NOT NULL,
	"document" "tsvector" NOT NULL,
	"codes" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_suggestions" (
	"type" text NOT NULL,
	"reference_id" integer NOT NULL,
	"value" text NOT NULL,
	"document" "tsvector" NOT NULL,
	CONSTRAINT "search_suggestions_type_reference_id_pk" PRIMARY KEY("type","reference_id")
);
--> statement-breakpoint
CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_search" ADD CONSTRAINT "product_search_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_search_title_idx" ON "product_search" USING gin ("title") WITH (gin_pending_list_limit=256);--> statement-breakpoint
CREATE INDEX "product_search_featured_title_idx" ON "product_search" USING gin ("title") WITH (gin_pending_list_limit=256) WHERE is_active and is_featured;--> statement-breakpoint
CREATE INDEX "product_search_document_idx" ON "product_search" USING gin ("document") WITH (gin_pending_list_limit=256);--> statement-breakpoint
CREATE INDEX "product_search_codes_idx" ON "product_search" USING gin ("codes") WITH (gin_pending_list_limit=256);--> statement-breakpoint
CREATE INDEX "product_search_popularity_idx" ON "product_search" USING btree ("is_featured" DESC NULLS LAST,"review_count" DESC NULLS LAST,"product_id") WHERE is_active;--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops) WITH (gin_pending_list_limit=256);