-- Keeps products.review_count / rating_total equal to the reviews table, whichever code writes reviews.
CREATE FUNCTION reviews_maintain_product_aggregates() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE products SET review_count = review_count + 1, rating_total = rating_total + NEW.rating
    WHERE id = NEW.product_id;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE products SET review_count = review_count - 1, rating_total = rating_total - OLD.rating
    WHERE id = OLD.product_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER reviews_product_aggregates
AFTER INSERT OR UPDATE OF rating, product_id OR DELETE ON reviews
FOR EACH ROW EXECUTE FUNCTION reviews_maintain_product_aggregates();
