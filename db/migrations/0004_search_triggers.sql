-- Search keeps its own data in the database, so whichever code writes products, brands or
-- categories (the seed, the admin form, a SQL console) search stays right. The query side is
-- server/domain/search.ts; the word handling there must agree with search_clean/search_codes.

-- Name order the same on every server, whatever its locale.
ALTER TABLE product_search ALTER COLUMN sort_name TYPE text COLLATE "C";
--> statement-breakpoint
-- Text as search reads it: lower case, runs of anything but letters and digits become one
-- space, so "DCD-791", "dcd.791" and "DCD 791" give the same words.
CREATE FUNCTION search_clean(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(lower(coalesce(value, '')), '[^[:alnum:]]+', ' ', 'g'))
$$;
--> statement-breakpoint

-- Model numbers as one word: two or three neighbouring words joined when one holds a digit
-- and the others are short letter groups ("VX HD 791" gives vxhd791 and hd791), so "hd791"
-- finds "HD-791" and "vx-hd 791" finds "VXHD791".
CREATE FUNCTION search_codes(value text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  parts text[] := regexp_split_to_array(search_clean(value), ' ');
  n integer := coalesce(array_length(parts, 1), 0);
  codes text[] := '{}';
  joinable boolean[] := '{}';
BEGIN
  FOR i IN 1 .. n LOOP
    joinable := joinable || (parts[i] ~ '[0-9]' OR length(parts[i]) <= 4);
  END LOOP;
  FOR i IN 1 .. n - 1 LOOP
    IF joinable[i] AND joinable[i + 1] THEN
      IF parts[i] ~ '[0-9]' OR parts[i + 1] ~ '[0-9]' THEN
        codes := codes || (parts[i] || parts[i + 1]);
      END IF;
      IF i + 2 <= n AND joinable[i + 2] AND (parts[i] || parts[i + 1] || parts[i + 2]) ~ '[0-9]' THEN
        codes := codes || (parts[i] || parts[i + 1] || parts[i + 2]);
      END IF;
    END IF;
  END LOOP;
  RETURN array_to_string(codes, ' ');
END;
$$;
--> statement-breakpoint

-- The title: name A; brand, category and subcategory B; tag line C. What ranking and
-- suggestions read.
CREATE FUNCTION search_title_of(name text, tag_line text, brand text, category text, subcategory text)
RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english'::regconfig, search_clean(name)), 'A')
      || setweight(to_tsvector('english'::regconfig, search_clean(concat_ws(' ', brand, category, subcategory))), 'B')
      || setweight(to_tsvector('english'::regconfig, search_clean(tag_line)), 'C')
$$;
--> statement-breakpoint

-- Model numbers and the SKU: the name's joined model numbers, and the SKU's words and the
-- whole SKU joined ("CAAH 230/X" as caah, 230, x and caah230x). Kept out of the title so a
-- word prefix never expands over one code per product.
CREATE FUNCTION search_codes_of(name text, sku text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('simple'::regconfig, concat_ws(' ',
    search_codes(name), search_clean(sku), regexp_replace(lower(coalesce(sku, '')), '[^[:alnum:]]+', '', 'g')))
$$;
--> statement-breakpoint

-- What matching reads: the title's words plus the description's, without positions or
-- weights (ranking reads the title), which keeps rows small enough that counting and
-- faceting thousands of matches stays cheap.
CREATE FUNCTION search_document_of(title tsvector, description text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT strip(title || to_tsvector('english'::regconfig, coalesce(description, '')))
$$;
--> statement-breakpoint

-- Words worth correcting a typo towards: three letters or more, no digits (model numbers are
-- matched by prefix instead). Used on single rows; bulk inserts split their text in one pass.
CREATE FUNCTION search_words_in(value text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT word FROM regexp_split_to_table(lower(coalesce(value, '')), '[^[:alpha:]]+') AS word
  WHERE length(word) >= 3
$$;
--> statement-breakpoint

-- New products: one set-based insert per statement, so a bulk load of thousands of rows costs
-- one join instead of a trigger call per row.
CREATE FUNCTION product_search_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_search (product_id, category_id, brand_id, effective_price_cents, is_featured,
                              review_count, is_active, sort_name, title, document, codes)
  SELECT n.id, n.category_id, n.brand_id, n.effective_price_cents, n.is_featured,
         n.review_count, n.is_active, lower(n.name), t.title, search_document_of(t.title, n.description),
         search_codes_of(n.name, n.sku)
  FROM new_products n
  JOIN brands b ON b.id = n.brand_id
  JOIN categories c ON c.id = n.category_id
  JOIN subcategories s ON s.id = n.subcategory_id
  CROSS JOIN LATERAL (SELECT search_title_of(n.name, n.tag_line, b.name, c.name, s.name) AS title) t;

  INSERT INTO search_words (word)
  SELECT DISTINCT w FROM new_products n, search_words_in(concat_ws(' ', n.name, n.tag_line, n.description)) AS w
  ON CONFLICT DO NOTHING;

  -- PGlite has no autovacuum, so nothing else would ever gather the planner's statistics:
  -- refresh them whenever the table has doubled since they were last taken (a handful of
  -- times over a bulk load), so search plans fit the data on both databases.
  IF pg_relation_size('product_search') > 2 * greatest(
       (SELECT relpages FROM pg_class WHERE oid = 'product_search'::regclass), 1)::bigint * current_setting('block_size')::bigint
  THEN
    ANALYZE product_search;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint

CREATE TRIGGER product_search_insert
AFTER INSERT ON products REFERENCING NEW TABLE AS new_products
FOR EACH STATEMENT EXECUTE FUNCTION product_search_insert();
--> statement-breakpoint

-- Changed products: the text is indexed again only when a searched column changed; stock
-- and other columns search does not read cost a join on the changed rows and no writes.
CREATE FUNCTION product_search_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE product_search ps
  SET category_id = n.category_id, brand_id = n.brand_id, effective_price_cents = n.effective_price_cents,
      is_featured = n.is_featured, review_count = n.review_count, is_active = n.is_active,
      sort_name = lower(n.name), title = t.title, document = search_document_of(t.title, n.description),
      codes = search_codes_of(n.name, n.sku)
  FROM new_products n
  JOIN old_products o ON o.id = n.id
  JOIN brands b ON b.id = n.brand_id
  JOIN categories c ON c.id = n.category_id
  JOIN subcategories s ON s.id = n.subcategory_id
  CROSS JOIN LATERAL (SELECT search_title_of(n.name, n.tag_line, b.name, c.name, s.name) AS title) t
  WHERE ps.product_id = n.id
    AND (n.name, n.sku, n.tag_line, n.description, n.brand_id, n.category_id, n.subcategory_id)
        IS DISTINCT FROM (o.name, o.sku, o.tag_line, o.description, o.brand_id, o.category_id, o.subcategory_id);

  UPDATE product_search ps
  SET effective_price_cents = n.effective_price_cents, is_featured = n.is_featured,
      review_count = n.review_count, is_active = n.is_active
  FROM new_products n
  JOIN old_products o ON o.id = n.id
  WHERE ps.product_id = n.id
    AND (n.name, n.sku, n.tag_line, n.description, n.brand_id, n.category_id, n.subcategory_id)
        IS NOT DISTINCT FROM (o.name, o.sku, o.tag_line, o.description, o.brand_id, o.category_id, o.subcategory_id)
    AND (n.effective_price_cents, n.is_featured, n.review_count, n.is_active)
        IS DISTINCT FROM (o.effective_price_cents, o.is_featured, o.review_count, o.is_active);

  INSERT INTO search_words (word)
  SELECT DISTINCT w
  FROM new_products n
  JOIN old_products o ON o.id = n.id
  CROSS JOIN LATERAL search_words_in(concat_ws(' ', n.name, n.tag_line, n.description)) AS w
  WHERE (n.name, n.tag_line, n.description) IS DISTINCT FROM (o.name, o.tag_line, o.description)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint

CREATE TRIGGER product_search_update
AFTER UPDATE ON products REFERENCING OLD TABLE AS old_products NEW TABLE AS new_products
FOR EACH STATEMENT EXECUTE FUNCTION product_search_update();
--> statement-breakpoint

-- A brand, category or subcategory: its words join the vocabulary, brands and categories are
-- autocomplete suggestions, and a rename rewrites the titles of its products.
CREATE FUNCTION search_follow_catalogue_names() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_suggestions
    WHERE type = CASE TG_TABLE_NAME WHEN 'brands' THEN 'Brand' ELSE 'Category' END AND reference_id = OLD.id;
    RETURN NULL;
  END IF;
  INSERT INTO search_words (word) SELECT w FROM search_words_in(NEW.name) AS w ON CONFLICT DO NOTHING;
  IF TG_TABLE_NAME IN ('brands', 'categories') THEN
    INSERT INTO search_suggestions (type, reference_id, value, document)
    VALUES (CASE TG_TABLE_NAME WHEN 'brands' THEN 'Brand' ELSE 'Category' END, NEW.id, NEW.name,
            to_tsvector('english'::regconfig, search_clean(NEW.name)))
    ON CONFLICT (type, reference_id) DO UPDATE SET value = excluded.value, document = excluded.document;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.name IS DISTINCT FROM OLD.name THEN
    UPDATE product_search ps
    SET title = t.title, document = search_document_of(t.title, p.description)
    FROM products p
    JOIN brands b ON b.id = p.brand_id
    JOIN categories c ON c.id = p.category_id
    JOIN subcategories s ON s.id = p.subcategory_id
    CROSS JOIN LATERAL (SELECT search_title_of(p.name, p.tag_line, b.name, c.name, s.name) AS title) t
    WHERE ps.product_id = p.id
      AND CASE TG_TABLE_NAME
            WHEN 'brands' THEN p.brand_id = NEW.id
            WHEN 'categories' THEN p.category_id = NEW.id
            ELSE p.subcategory_id = NEW.id
          END;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint

CREATE TRIGGER brands_search AFTER INSERT OR DELETE OR UPDATE OF name ON brands
FOR EACH ROW EXECUTE FUNCTION search_follow_catalogue_names();
--> statement-breakpoint
CREATE TRIGGER categories_search AFTER INSERT OR DELETE OR UPDATE OF name ON categories
FOR EACH ROW EXECUTE FUNCTION search_follow_catalogue_names();
--> statement-breakpoint
CREATE TRIGGER subcategories_search AFTER INSERT OR UPDATE OF name ON subcategories
FOR EACH ROW EXECUTE FUNCTION search_follow_catalogue_names();
--> statement-breakpoint

-- A reset (TRUNCATE … RESTART IDENTITY) fires no row triggers: drop the suggestions it orphans.
CREATE FUNCTION search_suggestions_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_suggestions WHERE type = CASE TG_TABLE_NAME WHEN 'brands' THEN 'Brand' ELSE 'Category' END;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER brands_search_truncate AFTER TRUNCATE ON brands
FOR EACH STATEMENT EXECUTE FUNCTION search_suggestions_truncated();
--> statement-breakpoint
CREATE TRIGGER categories_search_truncate AFTER TRUNCATE ON categories
FOR EACH STATEMENT EXECUTE FUNCTION search_suggestions_truncated();
--> statement-breakpoint

-- A database that already holds a catalogue gets its search data now.
INSERT INTO product_search (product_id, category_id, brand_id, effective_price_cents, is_featured,
                            review_count, is_active, sort_name, title, document, codes)
SELECT p.id, p.category_id, p.brand_id, p.effective_price_cents, p.is_featured,
       p.review_count, p.is_active, lower(p.name), t.title, search_document_of(t.title, p.description),
       search_codes_of(p.name, p.sku)
FROM products p
JOIN brands b ON b.id = p.brand_id
JOIN categories c ON c.id = p.category_id
JOIN subcategories s ON s.id = p.subcategory_id
CROSS JOIN LATERAL (SELECT search_title_of(p.name, p.tag_line, b.name, c.name, s.name) AS title) t;
--> statement-breakpoint
INSERT INTO search_words (word)
SELECT w FROM products, search_words_in(concat_ws(' ', products.name, products.tag_line, products.description)) AS w
UNION SELECT w FROM brands, search_words_in(brands.name) AS w
UNION SELECT w FROM categories, search_words_in(categories.name) AS w
UNION SELECT w FROM subcategories, search_words_in(subcategories.name) AS w
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO search_suggestions (type, reference_id, value, document)
SELECT 'Brand', id, name, to_tsvector('english'::regconfig, search_clean(name)) FROM brands
UNION ALL
SELECT 'Category', id, name, to_tsvector('english'::regconfig, search_clean(name)) FROM categories;
