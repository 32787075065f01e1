import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { PICTURE_LIMITS, PICTURE_MESSAGES, type ProductPicture } from '../../contracts/product-images.ts';
import type { Database } from '../../db/client.ts';
import { type ProductImageRow, productImages, products } from '../../db/schema.ts';
import { type Actor, recordAudit } from './audit.ts';
import { DomainError, NotFoundError, ValidationError } from './errors.ts';
import type { Transaction } from './stock.ts';

// Every upload is a new picture: libvips' operation cache would only hold on to memory.
sharp.cache(false);

/** What the content must be (file-type's answer → sharp's format name); the name and declared type are never read. */
const ACCEPTED = new Map<string, string>([
  ['image/jpeg', 'jpeg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
  ['image/avif', 'heif'],
]);

/** The folder under MEDIA_DIR (and under /media/) that uploads are written to. */
const PRODUCT_FOLDER = 'products';

/** Only names this module generates; nothing else under /media is ever deleted. */
const GENERATED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-\d{1,5}\.webp$/;

export class PayloadTooLargeError extends DomainError {
  constructor(message: string) {
    super(413, message);
  }
}

function refuse(message: string, detail: string = message): never {
  throw new ValidationError(message, { file: [detail] });
}

export interface StoredPicture {
  /** The size for clients without `srcset`: the one made for an 800 px box. */
  imageUrl: string;
  /** Every size, smallest first, as an HTML `srcset`. */
  srcset: string;
  files: { url: string; width: number; height: number; bytes: number }[];
}

/** Reads a stream into memory, refusing it (413) past `maxBytes`. */
async function readAll(input: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of input) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    total += buffer.length;
    if (total > maxBytes) {
      input.destroy();
      throw new PayloadTooLargeError(PICTURE_MESSAGES.tooLarge);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Checks a file by its content alone: JPEG, PNG, WebP or AVIF (file-type's magic numbers and
 * sharp's header read must agree), and at most 40 megapixels by the header's dimensions.
 * Nothing is decoded here, so a decompression bomb costs a header read.
 */
export async function inspectPicture(file: Buffer): Promise<{ format: string; width: number; height: number }> {
  if (file.length === 0) refuse(PICTURE_MESSAGES.missing);
  if (file.length > PICTURE_LIMITS.maxBytes) throw new PayloadTooLargeError(PICTURE_MESSAGES.tooLarge);
  const detected = await fileTypeFromBuffer(file);
  const format = detected ? ACCEPTED.get(detected.mime) : undefined;
  if (!format) refuse(PICTURE_MESSAGES.type);
  let header: Metadata;
  try {
    // The pixel limit is checked below against the header, with a message; sharp's own check
    // would refuse the header read itself.
    header = await sharp(file, { limitInputPixels: false }).metadata();
  } catch {
    refuse(PICTURE_MESSAGES.unreadable);
  }
  if (header.format !== format || (format === 'heif' && header.compression !== 'av1')) refuse(PICTURE_MESSAGES.type);
  const { width, height } = header;
  if (!width || !height) refuse(PICTURE_MESSAGES.unreadable);
  if (width * height > PICTURE_LIMITS.maxPixels) {
    refuse(
      PICTURE_MESSAGES.tooManyPixels,
      `${PICTURE_MESSAGES.tooManyPixels}: it is ${width} × ${height} pixels (${Math.round((width * height) / 1e6)} MP)`,
    );
  }
  return { format, width, height };
}

/** Uploads are decoded one at a time per process, so memory stays flat however many arrive at once. */
let pictureQueue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = pictureQueue.then(task, task);
  pictureQueue = run.catch(() => undefined);
  return run;
}

function urlOf(name: string): string {
  return `/media/${PRODUCT_FOLDER}/${name}`;
}

/**
 * Re-encodes a checked picture as WebP: turned upright by its EXIF orientation, in sRGB, every
 * piece of metadata (EXIF, GPS, XMP, ICC) left behind, in sizes fitting 1600, 800 and 400 px
 * squares (never enlarged, so a small original gives fewer files), written to
 * `MEDIA_DIR/products/<random uuid>-<width>.webp`.
 */
async function encodeSizes(file: Buffer, mediaDir: string): Promise<StoredPicture> {
  const largest = Math.max(...PICTURE_LIMITS.sizes);
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    // One decode: JPEG and WebP shrink while loading; the smaller sizes are made from this copy.
    decoded = await sharp(file, {
      limitInputPixels: PICTURE_LIMITS.maxPixels,
      sequentialRead: true,
      failOn: 'error',
      autoOrient: true,
    })
      .resize({ width: largest, height: largest, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch {
    refuse(PICTURE_MESSAGES.unreadable);
  }
  const { data, info } = decoded;
  const raw = { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 };
  const directory = join(mediaDir, PRODUCT_FOLDER);
  await mkdir(directory, { recursive: true });
  const id = randomUUID();
  // Each size fits a square box; boxes larger than the picture give the same width, made once.
  const targets = new Map<number, { width: number; height: number; sizes: number[] }>();
  for (const size of PICTURE_LIMITS.sizes) {
    const scale = Math.min(1, size / raw.width, size / raw.height);
    const width = Math.max(1, Math.round(raw.width * scale));
    const height = Math.max(1, Math.round(raw.height * scale));
    const target = targets.get(width) ?? { width, height, sizes: [] };
    target.sizes.push(size);
    targets.set(width, target);
  }
  // The sizes are encoded side by side (libvips threads); all settle before any clean-up.
  const results = await Promise.allSettled(
    [...targets.values()].map(async ({ width, height, sizes }) => {
      let pipeline = sharp(data, { raw });
      if (width !== raw.width || height !== raw.height) pipeline = pipeline.resize({ width, height, fit: 'fill' });
      const webp = await pipeline.webp({ quality: 80, effort: 4 }).toBuffer();
      const name = `${id}-${width}.webp`;
      await writeFile(join(directory, name), webp, { flag: 'wx' });
      return { url: urlOf(name), width, height, bytes: webp.length, sizes };
    }),
  );
  const files = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) {
    await removePictureFiles(
      mediaDir,
      files.map((file) => file.url),
    );
    throw failed.reason;
  }
  files.sort((a, b) => a.width - b.width);
  const main = files.find((file) => file.sizes.includes(PICTURE_LIMITS.mainSize)) ?? files.at(-1);
  if (!main) throw new Error('No picture size was made');
  return {
    imageUrl: main.url,
    srcset: files.map((file) => `${file.url} ${file.width}w`).join(', '),
    files: files.map(({ url, width, height, bytes }) => ({ url, width, height, bytes })),
  };
}

/**
 * Checks an uploaded picture by its content, then stores it as WebP sizes under
 * `MEDIA_DIR/products` with a generated name and returns their URLs. 400 for anything but
 * JPEG/PNG/WebP/AVIF, a damaged file or more than 40 MP (before any decoding); 413 past 10 MB.
 */
export async function storeProductImage(
  file: Buffer | Readable,
  options: { mediaDir: string },
): Promise<StoredPicture> {
  const buffer = Buffer.isBuffer(file) ? file : await readAll(file, PICTURE_LIMITS.maxBytes);
  await inspectPicture(buffer);
  return oneAtATime(() => encodeSizes(buffer, options.mediaDir));
}

/** Every file URL a stored picture row points at. */
export function pictureUrls(row: { imageUrl: string; srcset: string | null }): string[] {
  const fromSrcset = (row.srcset ?? '')
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter(Boolean);
  return [...new Set([row.imageUrl, ...fromSrcset])];
}

/** Deletes uploaded files; URLs of anything this module did not generate (seeded pictures) are left alone. */
export async function removePictureFiles(mediaDir: string, urls: readonly string[]): Promise<void> {
  const prefix = `/media/${PRODUCT_FOLDER}/`;
  await Promise.all(
    urls.map(async (url) => {
      if (!url.startsWith(prefix)) return;
      const name = url.slice(prefix.length);
      if (!GENERATED_NAME.test(name)) return;
      await rm(join(mediaDir, PRODUCT_FOLDER, name), { force: true });
    }),
  );
}

function toPicture(row: ProductImageRow): ProductPicture {
  return {
    id: row.id,
    productId: row.productId,
    imageUrl: row.imageUrl,
    srcset: row.srcset,
    altText: row.altText,
    isPrimary: row.isPrimary,
    sortOrder: row.sortOrder,
  };
}

/**
 * The back office's product pictures: upload, delete, set primary, reorder. Each change locks
 * the product's row, so changes to one product's pictures happen one after another and the
 * partial unique index (one primary per product) is never raced. Every change is audited, then
 * `onChange` clears the catalogue cache.
 */
export function createProductPictures({
  db,
  mediaDir,
  onChange,
}: {
  db: Database;
  mediaDir: string;
  onChange: () => void;
}) {
  async function lockProduct(tx: Transaction | Database, productId: number): Promise<void> {
    const [product] = await tx
      .select({ id: products.id })
      .from(products)
      .where(eq(products.id, productId))
      .for('update');
    if (!product) throw new NotFoundError(PICTURE_MESSAGES.productNotFound);
  }

  async function findPicture(tx: Transaction, productId: number, imageId: number): Promise<ProductImageRow> {
    const [row] = await tx
      .select()
      .from(productImages)
      .where(and(eq(productImages.id, imageId), eq(productImages.productId, productId)));
    if (!row) throw new NotFoundError(PICTURE_MESSAGES.pictureNotFound);
    return row;
  }

  async function listIn(tx: Transaction | Database, productId: number): Promise<ProductPicture[]> {
    const rows = await tx
      .select()
      .from(productImages)
      .where(eq(productImages.productId, productId))
      .orderBy(asc(productImages.sortOrder), asc(productImages.id));
    return rows.map(toPicture);
  }

  return {
    /** A product's pictures in their order (the storefront shows the primary one first). */
    async list(productId: number): Promise<ProductPicture[]> {
      const [product] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
      if (!product) throw new NotFoundError(PICTURE_MESSAGES.productNotFound);
      return listIn(db, productId);
    },

    /**
     * Stores an upload and adds it last in the product's order. It becomes the primary picture
     * when asked, or when the product has none yet; a new primary takes over from the old one
     * in the same transaction.
     */
    async add(
      productId: number,
      upload: { file: Buffer | Readable; altText: string; isPrimary: boolean },
      actor: Actor,
    ): Promise<ProductPicture> {
      // A cheap 404 before the expensive part; the transaction checks again under the lock.
      const [product] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
      if (!product) throw new NotFoundError(PICTURE_MESSAGES.productNotFound);
      const stored = await storeProductImage(upload.file, { mediaDir });
      try {
        const row = await db.transaction(async (tx) => {
          await lockProduct(tx, productId);
          const [existing] = await tx
            .select({
              count: sql<number>`count(*)::int`,
              last: sql<number>`coalesce(max(${productImages.sortOrder}), -1)::int`,
            })
            .from(productImages)
            .where(eq(productImages.productId, productId));
          const isPrimary = upload.isPrimary || Number(existing?.count ?? 0) === 0;
          if (isPrimary) {
            await tx
              .update(productImages)
              .set({ isPrimary: false })
              .where(and(eq(productImages.productId, productId), eq(productImages.isPrimary, true)));
          }
          const [inserted] = await tx
            .insert(productImages)
            .values({
              productId,
              imageUrl: stored.imageUrl,
              srcset: stored.srcset,
              altText: upload.altText,
              isPrimary,
              sortOrder: Number(existing?.last ?? -1) + 1,
            })
            .returning();
          if (!inserted) throw new Error('Inserting a product picture returned no row');
          await recordAudit(tx, actor, {
            action: 'product.image.add',
            entity: 'product',
            entityId: productId,
            details: { imageId: inserted.id, isPrimary, files: stored.files.map((file) => file.url) },
          });
          return inserted;
        });
        onChange();
        return toPicture(row);
      } catch (error) {
        await removePictureFiles(mediaDir, pictureUrls(stored));
        throw error;
      }
    },

    /** Deletes a picture and its files; when it was the primary one, the next in order takes over. */
    async remove(productId: number, imageId: number, actor: Actor): Promise<void> {
      const removed = await db.transaction(async (tx) => {
        await lockProduct(tx, productId);
        const row = await findPicture(tx, productId, imageId);
        await tx.delete(productImages).where(eq(productImages.id, imageId));
        let promoted: number | null = null;
        if (row.isPrimary) {
          const [next] = await tx
            .select({ id: productImages.id })
            .from(productImages)
            .where(eq(productImages.productId, productId))
            .orderBy(asc(productImages.sortOrder), asc(productImages.id))
            .limit(1);
          if (next) {
            await tx.update(productImages).set({ isPrimary: true }).where(eq(productImages.id, next.id));
            promoted = next.id;
          }
        }
        await recordAudit(tx, actor, {
          action: 'product.image.delete',
          entity: 'product',
          entityId: productId,
          details: { imageId, imageUrl: row.imageUrl, ...(promoted ? { newPrimaryImageId: promoted } : {}) },
        });
        return row;
      });
      onChange();
      // After the commit: a failed delete leaves an orphan file, never a row without its file.
      await removePictureFiles(mediaDir, pictureUrls(removed));
    },

    /** Makes one picture the product's primary one (the old primary is cleared first: one primary at a time). */
    async setPrimary(productId: number, imageId: number, actor: Actor): Promise<ProductPicture[]> {
      const pictures = await db.transaction(async (tx) => {
        await lockProduct(tx, productId);
        await findPicture(tx, productId, imageId);
        await tx
          .update(productImages)
          .set({ isPrimary: false })
          .where(and(eq(productImages.productId, productId), eq(productImages.isPrimary, true)));
        await tx.update(productImages).set({ isPrimary: true }).where(eq(productImages.id, imageId));
        await recordAudit(tx, actor, {
          action: 'product.image.primary',
          entity: 'product',
          entityId: productId,
          details: { imageId },
        });
        return listIn(tx, productId);
      });
      onChange();
      return pictures;
    },

    /** Puts the product's pictures in the order given, which must name each of them once. */
    async reorder(productId: number, imageIds: readonly number[], actor: Actor): Promise<ProductPicture[]> {
      const pictures = await db.transaction(async (tx) => {
        await lockProduct(tx, productId);
        const current = await tx
          .select({ id: productImages.id })
          .from(productImages)
          .where(eq(productImages.productId, productId));
        const own = new Set(current.map((row) => row.id));
        if (imageIds.some((id) => !own.has(id))) throw new NotFoundError(PICTURE_MESSAGES.pictureNotFound);
        if (new Set(imageIds).size !== imageIds.length || imageIds.length !== own.size) {
          throw new ValidationError(PICTURE_MESSAGES.order, { imageIds: [PICTURE_MESSAGES.order] });
        }
        if (imageIds.length > 0) {
          const positions = sql.join(
            imageIds.map((id, index) => sql`when ${id} then ${index}`),
            sql` `,
          );
          await tx
            .update(productImages)
            .set({ sortOrder: sql`(case ${productImages.id} ${positions} end)::int` })
            .where(and(eq(productImages.productId, productId), inArray(productImages.id, [...imageIds])));
        }
        await recordAudit(tx, actor, {
          action: 'product.image.reorder',
          entity: 'product',
          entityId: productId,
          details: { imageIds },
        });
        return listIn(tx, productId);
      });
      onChange();
      return pictures;
    },
  };
}

export type ProductPictures = ReturnType<typeof createProductPictures>;
