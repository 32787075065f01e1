import { and, asc, count, desc, eq, ilike, inArray, ne, notInArray, or, sql } from 'drizzle-orm';
import { centsToDollars, dollarsToCents } from '../../contracts/money.ts';
import { PRODUCT_MESSAGES, type ProductInput } from '../../contracts/product-admin.ts';
import type { Database } from '../../db/client.ts';
import { brands, categories, productImages, products, productVariants, subcategories } from '../../db/schema.ts';
import { type Actor, recordAudit } from './audit.ts';
import { ConflictError, NotFoundError, ValidationError } from './errors.ts';
import type { Transaction } from './stock.ts';

function isUniqueViolation(error: unknown): string | null {
  const candidate = error as {
    code?: string;
    constraint_name?: string;
    constraint?: string;
    cause?: { code?: string; constraint_name?: string; constraint?: string };
  };
  const found = candidate?.code === '23505' ? candidate : candidate?.cause?.code === '23505' ? candidate.cause : null;
  return found ? (found.constraint_name ?? found.constraint ?? 'unique') : null;
}

/** The product's columns from the form's fields (dollars → cents, kilograms → grams); the CSV import uses it too. */
export function productValues(input: ProductInput) {
  return {
    name: input.name,
    sku: input.sku,
    description: input.description,
    brandId: input.brandId,
    categoryId: input.categoryId,
    subcategoryId: input.subcategoryId,
    specifications: Object.fromEntries(input.specifications),
    priceCents: dollarsToCents(input.price),
    discountPriceCents: input.discountPrice === undefined ? null : dollarsToCents(input.discountPrice),
    stockQuantity: input.stockQuantity,
    weightGrams: input.weight === undefined ? null : Math.round(input.weight * 1000),
    dimensions: input.dimensions,
    warrantyPeriod: input.warrantyPeriod,
    tagLine: input.tagLine,
    isFeatured: input.isFeatured,
    isActive: input.isActive,
  };
}

/**
 * The shop owner's catalogue writes: create and edit products with their variants,
 * activate or deactivate, set stock. Every write is audited and then `onChange` runs, which
 * clears the catalogue cache in every app process (server/domain/catalog-events.ts).
 */
export function createCatalogAdmin({ db, onChange }: { db: Database; onChange: () => void }) {
  async function checkReferences(tx: Transaction, input: ProductInput): Promise<void> {
    const [brand] = await tx.select({ id: brands.id }).from(brands).where(eq(brands.id, input.brandId));
    const [subcategory] = await tx
      .select({ categoryId: subcategories.categoryId })
      .from(subcategories)
      .where(eq(subcategories.id, input.subcategoryId));
    const [category] = await tx
      .select({ id: categories.id })
      .from(categories)
      .where(eq(categories.id, input.categoryId));
    const errors: Record<string, string[]> = {};
    if (!brand) errors.brandId = [PRODUCT_MESSAGES.unknownBrand];
    if (!category) errors.categoryId = [PRODUCT_MESSAGES.unknownCategory];
    if (!subcategory) errors.subcategoryId = [PRODUCT_MESSAGES.unknownSubcategory];
    else if (category && subcategory.categoryId !== category.id)
      errors.subcategoryId = [PRODUCT_MESSAGES.subcategoryNotInCategory];
    if (Object.keys(errors).length)
      throw new ValidationError(`Invalid field: ${Object.keys(errors).join(', ')}`, errors);
  }

  /**
   * A SKU names one thing to buy: products and variants keep their own unique constraints, so
   * a product's SKU held by another product's variant, or a variant's SKU held by another
   * product, is caught here (409 naming the field). `productId` is the product being edited.
   */
  async function checkSkus(tx: Transaction, input: ProductInput, productId: number | null): Promise<void> {
    const [variantHolder] = await tx
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(
        and(
          eq(productVariants.sku, input.sku),
          productId === null ? undefined : ne(productVariants.productId, productId),
        ),
      )
      .limit(1);
    if (variantHolder) throw new ConflictError(PRODUCT_MESSAGES.duplicateSku, { sku: [PRODUCT_MESSAGES.duplicateSku] });
    const variantSkus = input.variants.map((variant) => variant.sku);
    if (variantSkus.length === 0) return;
    const [productHolder] = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(inArray(products.sku, variantSkus), productId === null ? undefined : ne(products.id, productId)))
      .limit(1);
    if (productHolder) {
      throw new ConflictError(PRODUCT_MESSAGES.duplicateVariantSku, {
        variants: [PRODUCT_MESSAGES.duplicateVariantSku],
      });
    }
  }

  async function writeVariants(tx: Transaction, productId: number, input: ProductInput): Promise<void> {
    const keep = input.variants.flatMap((variant) => (variant.id ? [variant.id] : []));
    await tx
      .delete(productVariants)
      .where(
        keep.length
          ? and(eq(productVariants.productId, productId), notInArray(productVariants.id, keep))
          : eq(productVariants.productId, productId),
      );
    for (const variant of input.variants) {
      const values = {
        name: variant.name,
        sku: variant.sku,
        priceCents: variant.price === undefined ? null : dollarsToCents(variant.price),
        stockQuantity: variant.stockQuantity,
      };
      if (variant.id) {
        const [updated] = await tx
          .update(productVariants)
          .set({ ...values, updatedAt: new Date() })
          .where(and(eq(productVariants.id, variant.id), eq(productVariants.productId, productId)))
          .returning({ id: productVariants.id });
        if (updated) continue;
      }
      await tx.insert(productVariants).values({ ...values, productId });
    }
  }

  function conflictFor(error: unknown): never {
    const constraint = isUniqueViolation(error);
    if (!constraint) throw error;
    if (constraint.includes('variants')) {
      throw new ConflictError(PRODUCT_MESSAGES.duplicateVariantSku, {
        variants: [PRODUCT_MESSAGES.duplicateVariantSku],
      });
    }
    throw new ConflictError(PRODUCT_MESSAGES.duplicateSku, { sku: [PRODUCT_MESSAGES.duplicateSku] });
  }

  return {
    /** Creates a product with its variants (`POST /api/products`, the /upload form). 409 for a taken SKU. */
    async createProduct(input: ProductInput, actor: Actor): Promise<{ id: number }> {
      try {
        const id = await db.transaction(async (tx) => {
          await checkReferences(tx, input);
          await checkSkus(tx, input, null);
          const [created] = await tx.insert(products).values(productValues(input)).returning({ id: products.id });
          if (!created) throw new Error('Inserting a product returned no row');
          await writeVariants(tx, created.id, input);
          await recordAudit(tx, actor, {
            action: 'product.create',
            entity: 'product',
            entityId: created.id,
            details: { sku: input.sku },
          });
          return created.id;
        });
        onChange();
        return { id };
      } catch (error) {
        conflictFor(error);
      }
    },

    /** Saves every field of a product; variants not in the list are removed. */
    async updateProduct(id: number, input: ProductInput, actor: Actor): Promise<{ id: number }> {
      try {
        await db.transaction(async (tx) => {
          const [existing] = await tx
            .select({ id: products.id })
            .from(products)
            .where(eq(products.id, id))
            .for('update');
          if (!existing) throw new NotFoundError('Product not found');
          await checkReferences(tx, input);
          await checkSkus(tx, input, id);
          await tx
            .update(products)
            .set({ ...productValues(input), updatedAt: new Date() })
            .where(eq(products.id, id));
          await writeVariants(tx, id, input);
          await recordAudit(tx, actor, {
            action: 'product.update',
            entity: 'product',
            entityId: id,
            details: { sku: input.sku },
          });
        });
        onChange();
        return { id };
      } catch (error) {
        conflictFor(error);
      }
    },

    /** Shows or hides a product (inactive: gone from listings, search and the sitemap; old links still answer). */
    async setActive(id: number, isActive: boolean, actor: Actor): Promise<void> {
      const [row] = await db
        .update(products)
        .set({ isActive, updatedAt: new Date() })
        .where(eq(products.id, id))
        .returning({ id: products.id });
      if (!row) throw new NotFoundError('Product not found');
      await recordAudit(db, actor, {
        action: isActive ? 'product.activate' : 'product.deactivate',
        entity: 'product',
        entityId: id,
      });
      onChange();
    },

    /** Sets the stock count (a quick adjustment from the list). */
    async setStock(id: number, stockQuantity: number, actor: Actor): Promise<void> {
      const [before] = await db.select({ stock: products.stockQuantity }).from(products).where(eq(products.id, id));
      if (!before) throw new NotFoundError('Product not found');
      await db.update(products).set({ stockQuantity, updatedAt: new Date() }).where(eq(products.id, id));
      await recordAudit(db, actor, {
        action: 'product.stock',
        entity: 'product',
        entityId: id,
        details: { from: before.stock, to: stockQuantity },
      });
      onChange();
    },

    /** The admin list: every product (active or not), searchable by name or SKU, 25 a page. */
    async listProducts(options: { q?: string | undefined; page?: number; pageSize?: number }) {
      const pageSize = options.pageSize ?? 25;
      const page = Math.max(1, options.page ?? 1);
      const q = options.q?.trim();
      const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const where = pattern ? or(ilike(products.name, pattern), ilike(products.sku, pattern)) : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select({
            id: products.id,
            name: products.name,
            sku: products.sku,
            category: categories.name,
            brand: brands.name,
            priceCents: products.priceCents,
            discountPriceCents: products.discountPriceCents,
            stockQuantity: products.stockQuantity,
            isActive: products.isActive,
          })
          .from(products)
          .innerJoin(categories, eq(categories.id, products.categoryId))
          .innerJoin(brands, eq(brands.id, products.brandId))
          .where(where)
          .orderBy(desc(products.updatedAt), desc(products.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db.select({ count: count() }).from(products).where(where),
      ]);
      const totalCount = Number(total?.count ?? 0);
      return {
        items: rows.map(({ priceCents, discountPriceCents, ...row }) => ({
          ...row,
          price: centsToDollars(priceCents),
          discountPrice: discountPriceCents === null ? null : centsToDollars(discountPriceCents),
        })),
        page,
        totalCount,
        totalPages: Math.max(1, Math.ceil(totalCount / pageSize)),
      };
    },

    /** One product as the edit form needs it: every field in form units, its variants and pictures. */
    async getProductForEdit(id: number) {
      const [row] = await db.select().from(products).where(eq(products.id, id));
      if (!row) throw new NotFoundError('Product not found');
      const [variants, images] = await Promise.all([
        db.select().from(productVariants).where(eq(productVariants.productId, id)).orderBy(asc(productVariants.id)),
        db
          .select()
          .from(productImages)
          .where(eq(productImages.productId, id))
          .orderBy(desc(productImages.isPrimary), asc(productImages.sortOrder), asc(productImages.id)),
      ]);
      return {
        id: row.id,
        name: row.name,
        sku: row.sku,
        description: row.description,
        brandId: row.brandId,
        categoryId: row.categoryId,
        subcategoryId: row.subcategoryId,
        specifications: JSON.stringify(row.specifications, null, 2),
        price: centsToDollars(row.priceCents),
        discountPrice: row.discountPriceCents === null ? null : centsToDollars(row.discountPriceCents),
        stockQuantity: row.stockQuantity,
        weight: row.weightGrams === null ? null : row.weightGrams / 1000,
        dimensions: row.dimensions,
        warrantyPeriod: row.warrantyPeriod,
        tagLine: row.tagLine,
        isFeatured: row.isFeatured,
        isActive: row.isActive,
        variants: variants.map((variant) => ({
          id: variant.id,
          name: variant.name,
          sku: variant.sku,
          price: variant.priceCents === null ? null : centsToDollars(variant.priceCents),
          stockQuantity: variant.stockQuantity,
        })),
        images: images.map((image) => ({
          id: image.id,
          imageUrl: image.imageUrl,
          altText: image.altText,
          isPrimary: image.isPrimary,
        })),
      };
    },

    /** Categories with their subcategories and all brands, for the form's choices. */
    async formChoices() {
      const [categoryRows, subcategoryRows, brandRows] = await Promise.all([
        db.select({ id: categories.id, name: categories.name }).from(categories).orderBy(asc(categories.name)),
        db
          .select({ id: subcategories.id, name: subcategories.name, categoryId: subcategories.categoryId })
          .from(subcategories)
          .orderBy(asc(subcategories.name)),
        db.select({ id: brands.id, name: brands.name }).from(brands).orderBy(asc(brands.name)),
      ]);
      return { categories: categoryRows, subcategories: subcategoryRows, brands: brandRows };
    },

    /** Products by SKU (the CSV import's upsert key). */
    async idsBySku(skus: string[]): Promise<Map<string, number>> {
      if (skus.length === 0) return new Map();
      const rows = await db
        .select({ id: products.id, sku: products.sku })
        .from(products)
        .where(inArray(products.sku, skus));
      return new Map(rows.map((row) => [row.sku, row.id]));
    },

    /** Clears the catalogue cache everywhere after a write made outside these functions (a CSV import). */
    announceChange(): void {
      onChange();
    },

    /** How many products there are (for the admin list's heading). */
    async countProducts(): Promise<number> {
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(products);
      return Number(row?.count ?? 0);
    },
  };
}

export type CatalogAdmin = ReturnType<typeof createCatalogAdmin>;
