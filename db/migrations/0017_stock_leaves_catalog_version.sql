-- A change of stock alone no longer moves the catalogue version (issue 24). Every order takes
-- stock, so under the order mix the version moved several times a second and every kept search
-- answer was thrown away; each order's commit also queued on the one catalog_version row.
-- Search reads no stock (its filters and ranking never look at it); the stock its results show
-- follows the listings' rule instead: kept answers are at most CATALOG_CACHE_SECONDS old.
-- A row trigger's WHEN cannot read OLD on INSERT or NEW on DELETE, so updates get their own.
DROP TRIGGER products_catalog_version ON products;
--> statement-breakpoint
DROP TRIGGER product_variants_catalog_version ON product_variants;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_catalog_version AFTER INSERT OR DELETE ON products
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_catalog_version_update AFTER UPDATE ON products
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN ((to_jsonb(OLD) - 'stock_quantity') IS DISTINCT FROM (to_jsonb(NEW) - 'stock_quantity'))
EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_variants_catalog_version AFTER INSERT OR DELETE ON product_variants
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_variants_catalog_version_update AFTER UPDATE ON product_variants
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN ((to_jsonb(OLD) - 'stock_quantity') IS DISTINCT FROM (to_jsonb(NEW) - 'stock_quantity'))
EXECUTE FUNCTION bump_catalog_version();
