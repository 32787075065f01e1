CREATE TABLE "catalog_version" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "catalog_version_single_row" CHECK ("catalog_version"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "catalog_version" ("id", "version") VALUES (1, 0);
--> statement-breakpoint
-- A later migration that writes one of these tables and then alters or indexes it in the same
-- transaction (the migrator runs pending migrations together) must first run
-- SET CONSTRAINTS ALL IMMEDIATE: PostgreSQL refuses to alter a table with pending deferred
-- trigger events.
-- Bumps the catalogue version once per transaction. It runs as a deferred constraint trigger,
-- so at commit: the row lock is the last one a writer takes and is held only while it
-- commits (no deadlock with the product rows checkout locks, no writers queued behind a long
-- transaction), and the new number becomes visible in the same instant as the change, so a
-- reader never sees the new number with the old data.
-- The new number is also sent on channel catalog_version: the embedded database delivers it
-- to its one process before the committing statement returns, so that process never has to
-- read the number back.
CREATE FUNCTION bump_catalog_version() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  bumped integer;
BEGIN
  IF current_setting('shop.catalog_version_xact', true) IS DISTINCT FROM pg_current_xact_id()::text THEN
    PERFORM set_config('shop.catalog_version_xact', pg_current_xact_id()::text, true);
    UPDATE catalog_version SET version = version + 1 WHERE id = 1 RETURNING version INTO bumped;
    PERFORM pg_notify('catalog_version', bumped::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Reviews reach search only through the product's review count and rating total, which
-- their own trigger writes to products (and the seed, which turns that trigger off with
-- ALTER TABLE: a table with pending deferred events cannot be altered, so reviews have none).
CREATE CONSTRAINT TRIGGER products_catalog_version AFTER INSERT OR UPDATE OR DELETE ON products
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_variants_catalog_version AFTER INSERT OR UPDATE OR DELETE ON product_variants
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_images_catalog_version AFTER INSERT OR UPDATE OR DELETE ON product_images
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER brands_catalog_version AFTER INSERT OR UPDATE OR DELETE ON brands
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER categories_catalog_version AFTER INSERT OR UPDATE OR DELETE ON categories
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER subcategories_catalog_version AFTER INSERT OR UPDATE OR DELETE ON subcategories
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_search_catalog_version AFTER INSERT OR UPDATE OR DELETE ON product_search
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER search_words_catalog_version AFTER INSERT OR UPDATE OR DELETE ON search_words
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
-- TRUNCATE fires no row triggers, and constraint triggers are row triggers only: it bumps at once.
CREATE FUNCTION bump_catalog_version_now() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  bumped integer;
BEGIN
  UPDATE catalog_version SET version = version + 1 WHERE id = 1 RETURNING version INTO bumped;
  PERFORM pg_notify('catalog_version', bumped::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER products_catalog_version_truncate AFTER TRUNCATE ON products
FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_now();
--> statement-breakpoint
CREATE TRIGGER brands_catalog_version_truncate AFTER TRUNCATE ON brands
FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_now();
--> statement-breakpoint
CREATE TRIGGER categories_catalog_version_truncate AFTER TRUNCATE ON categories
FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_now();
--> statement-breakpoint
CREATE TRIGGER product_search_catalog_version_truncate AFTER TRUNCATE ON product_search
FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_now();
--> statement-breakpoint
CREATE TRIGGER product_variants_catalog_version_truncate AFTER TRUNCATE ON product_variants
FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_now();
--> statement-breakpoint
CREATE TRIGGER product_images_catalog_version_truncate AFTER TRUNCATE ON product_images
FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_now();
--> statement-breakpoint
CREATE TRIGGER subcategories_catalog_version_truncate AFTER TRUNCATE ON subcategories
FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_now();
--> statement-breakpoint
CREATE TRIGGER search_words_catalog_version_truncate AFTER TRUNCATE ON search_words
FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version_now();
