import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../contracts/catalog.ts';
import { PICTURE_MESSAGES, type ProductPicture } from '../../contracts/product-images.ts';
import { auditLog, productImages, products } from '../../db/schema.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 10, "Pictures" and the upload acceptance: content checks (not names or declared
 * types), 10 MB, 40 megapixels refused before decoding with flat memory, generated names,
 * WebP sizes without metadata served under /media, admin only; and the back office's
 * delete / set-primary / reorder.
 */

const PASSWORD = 'Harbour-Pictures-Pass-42';
const GENERATED = /^\/media\/products\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-(\d+)\.webp$/;

interface FilePart {
  name: string;
  filename: string;
  type: string;
  data: Uint8Array;
}

/** A multipart body as a browser's FormData sends it (undici encodes it; Response hands back the bytes). */
async function multipart(
  fields: Record<string, string>,
  files: FilePart[] = [],
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const file of files) {
    form.append(file.name, new Blob([new Uint8Array(file.data)], { type: file.type }), file.filename);
  }
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = new Response(form);
  return {
    body: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type') ?? '',
  };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid 20,000 × 20,000 one-bit PNG of ~50 kB that decodes to 400
 * megapixels (1.2 GB as RGB). Written by hand: sharp refuses to make one over its own limit.
 */
function pngBomb(width = 20_000, height = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A camera-like JPEG: noise so it compresses like a photo, with EXIF (copyright, GPS) attached. */
async function photo(width: number, height: number, orientation?: number): Promise<Buffer> {
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .raw()
    .toBuffer();
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .withMetadata({
      ...(orientation ? { orientation } : {}),
      exif: {
        IFD0: { Copyright: 'secret-owner', Artist: 'secret-artist' },
        IFD3: {
          GPSLatitudeRef: 'S',
          GPSLatitude: '33/1 51/1 8/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '151/1 2/1 3/1',
        },
      },
    })
    .toBuffer();
}

describe('product pictures', () => {
  let shop: TestShop;
  let dataDir: string;
  let mediaDir: string;
  let adminToken: string;
  let customerToken: string;
  let jpeg: Buffer;
  const productIds: number[] = [];

  /** A product with no pictures yet (its seeded ones are removed), so the first upload is its first picture. */
  function bareProduct(index: number): number {
    const id = productIds[index];
    if (id === undefined) throw new Error(`no product ${index}`);
    return id;
  }

  async function upload(
    fields: Record<string, string>,
    files: FilePart[],
    token: string | undefined = adminToken,
  ): Promise<{ status: number; body: ProductPicture & { message?: string; errors?: Record<string, string[]> } }> {
    const { body, contentType } = await multipart(fields, files);
    const answer = await shop.app.inject({
      method: 'POST',
      url: '/api/products/images',
      headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: body,
    });
    return { status: answer.statusCode, body: answer.json() };
  }

  function jpegPart(data: Uint8Array = jpeg, filename = 'photo.jpg', type = 'image/jpeg'): FilePart {
    return { name: 'file', filename, type, data };
  }

  async function call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options: { token?: string | undefined; body?: unknown } = {},
  ): Promise<{ status: number; body: T }> {
    const answer = await shop.app.inject({
      method,
      url,
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
    });
    return { status: answer.statusCode, body: (answer.body ? answer.json() : null) as T };
  }

  function mediaPath(url: string): string {
    return join(mediaDir, url.replace(/^\/media\//, ''));
  }

  function srcsetUrls(srcset: string | null): string[] {
    return (srcset ?? '').split(',').map((candidate) => candidate.trim().split(' ')[0] ?? '');
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'harbour-pictures-'));
    mediaDir = join(dataDir, 'media');
    shop = await createTestShop('pglite', { products: 6, env: { DATA_DIR: dataDir, MEDIA_DIR: mediaDir } });
    const rows = await shop.database.db.select({ id: products.id }).from(products).orderBy(products.id).limit(5);
    for (const row of rows) {
      productIds.push(row.id);
      await shop.database.db.delete(productImages).where(eq(productImages.productId, row.id));
    }

    const adminEmail = `pictures-admin-${Date.now()}@example.com`;
    await shop.app.services.accounts.ensureAdmin(adminEmail, PASSWORD);
    const signedIn = await call<{ token: string }>('POST', '/api/auth/login', {
      body: { email: adminEmail, password: PASSWORD },
    });
    expect(signedIn.status).toBe(200);
    adminToken = signedIn.body.token;

    const registered = await call<{ token: string }>('POST', '/api/auth/register', {
      body: {
        firstName: 'Cas',
        lastName: 'Tomer',
        email: `pictures-customer-${Date.now()}@example.com`,
        password: PASSWORD,
        PhoneNumber: '0412 345 678',
        address: {
          addressLine1: '1 Test St',
          city: 'Sydney',
          state: 'NSW',
          postalCode: '2000',
          country: 'Australia',
        },
      },
    });
    expect(registered.status).toBe(201);
    customerToken = registered.body.token;

    jpeg = await photo(2400, 1800);
  }, 120_000);

  afterAll(async () => {
    await shop?.app.services.mailer.idle();
    await shop?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  describe('POST /api/products/images', () => {
    it('stores a JPEG as three WebP sizes under generated names, served under /media, with every bit of metadata gone', async () => {
      const source = await sharp(jpeg).metadata();
      expect(source.exif?.toString('latin1')).toContain('secret-owner');

      const productId = bareProduct(0);
      const answer = await upload({ productId: String(productId), altText: 'Drill, side view' }, [jpegPart()]);
      expect(answer.status).toBe(201);
      const picture = answer.body;
      expect(Object.keys(picture).sort()).toEqual(
        ['altText', 'id', 'imageUrl', 'isPrimary', 'productId', 'sortOrder', 'srcset'].sort(),
      );
      expect(picture).toMatchObject({ productId, altText: 'Drill, side view', isPrimary: true, sortOrder: 0 });
      expect(picture.imageUrl).toMatch(GENERATED);
      expect(picture.imageUrl).toMatch(/-800\.webp$/);

      const candidates = (picture.srcset ?? '').split(', ').map((candidate) => candidate.split(' '));
      expect(candidates.map(([, descriptor]) => descriptor)).toEqual(['400w', '800w', '1600w']);
      const urls = candidates.map(([url]) => url ?? '');
      expect(urls).toContain(picture.imageUrl);
      const uuid = urls[0]?.slice('/media/products/'.length, -'-400.webp'.length);
      expect(urls).toEqual([400, 800, 1600].map((width) => `/media/products/${uuid}-${width}.webp`));

      for (const [index, url] of urls.entries()) {
        const path = mediaPath(url);
        expect(existsSync(path)).toBe(true);
        const stored = await sharp(path).metadata();
        expect(stored.format).toBe('webp');
        expect(stored.width).toBe([400, 800, 1600][index]);
        expect(stored.height).toBe([300, 600, 1200][index]);
        expect(stored.exif).toBeUndefined();
        expect(stored.xmp).toBeUndefined();
        expect(stored.iptc).toBeUndefined();
        expect(stored.icc).toBeUndefined();

        const served = await shop.app.inject({ method: 'GET', url });
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe('image/webp');
        expect(served.rawPayload.includes(Buffer.from('secret'))).toBe(false);
        expect(served.rawPayload.equals(readFileSync(path))).toBe(true);
      }
      expect(readdirSync(join(mediaDir, 'products')).filter((name) => name.startsWith(uuid ?? '-'))).toHaveLength(3);
    });

    it('the shop shows the upload at once: primary picture and sizes on the product and in listings', async () => {
      const productId = bareProduct(1);
      await shop.database.db.update(products).set({ isActive: true }).where(eq(products.id, productId));
      shop.app.services.catalog.invalidate();
      // Read (and cache) the product and the listing first: the upload must clear the catalogue cache.
      const before = await call<Product>('GET', `/api/products/${productId}`);
      expect(before.body.imageUrl).toBeNull();
      const listedBefore = await call<{ items: Product[] }>('GET', '/api/products?limit=100');
      expect(listedBefore.body.items.find((item) => item.id === productId)?.imageUrl).toBeNull();

      const answer = await upload({ productId: String(productId) }, [jpegPart()]);
      expect(answer.status).toBe(201);
      const after = await call<Product>('GET', `/api/products/${productId}`);
      expect(after.body.imageUrl).toBe(answer.body.imageUrl);
      expect(after.body.imageSrcset).toBe(answer.body.srcset);
      expect(after.body.images).toEqual([
        {
          id: answer.body.id,
          imageUrl: answer.body.imageUrl,
          isPrimary: true,
          altText: '',
          srcset: answer.body.srcset,
        },
      ]);
      const listed = await call<{ items: Product[] }>('GET', '/api/products?limit=100');
      const card = listed.body.items.find((item) => item.id === productId);
      expect(card?.imageUrl).toBe(answer.body.imageUrl);
      expect(card?.imageSrcset).toBe(answer.body.srcset);
      // Seeded pictures have no sizes: no srcset key at all, as before.
      const seeded = listed.body.items.find((item) => item.imageUrl && !productIds.includes(item.id));
      expect(seeded && 'imageSrcset' in seeded).toBe(false);

      const audit = await shop.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'product.image.add'), eq(auditLog.entityId, String(productId))));
      expect(audit).toHaveLength(1);
    });

    it('refuses a text file named photo.png and declared image/png (400): the content decides', async () => {
      const text = Buffer.from('This is not a picture, whatever its name says.\n'.repeat(50));
      const answer = await upload({ productId: String(bareProduct(2)) }, [jpegPart(text, 'photo.png', 'image/png')]);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(PICTURE_MESSAGES.type);
      expect(answer.body.errors).toEqual({ file: [PICTURE_MESSAGES.type] });
    });

    it('refuses pictures in other formats whatever they are called: SVG, GIF, TIFF (400)', async () => {
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
      );
      const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#f00' } })
        .gif()
        .toBuffer();
      const tiff = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#f00' } })
        .tiff()
        .toBuffer();
      for (const data of [svg, gif, tiff]) {
        const answer = await upload({ productId: String(bareProduct(2)) }, [jpegPart(data, 'photo.jpg')]);
        expect(answer.status).toBe(400);
        expect(answer.body.message).toBe(PICTURE_MESSAGES.type);
      }
    });

    it('refuses a damaged picture (a JPEG cut in half) with 400, not 500', async () => {
      const answer = await upload({ productId: String(bareProduct(2)) }, [jpegPart(jpeg.subarray(0, jpeg.length / 2))]);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(PICTURE_MESSAGES.unreadable);
    });

    it('refuses a 30 MB file with 413 and stores nothing', async () => {
      const before = readdirSync(join(mediaDir, 'products')).length;
      const big = Buffer.concat([jpeg, Buffer.alloc(30 * 1024 * 1024 - jpeg.length, 7)]);
      const answer = await upload({ productId: String(bareProduct(2)) }, [jpegPart(big)]);
      expect(answer.status).toBe(413);
      expect(answer.body.message).toBe(PICTURE_MESSAGES.tooLarge);
      expect(readdirSync(join(mediaDir, 'products'))).toHaveLength(before);
    });

    it('refuses a 20,000 × 20,000 PNG bomb with 400 before decoding it: memory grows by under 100 MB', async () => {
      const bomb = pngBomb();
      expect(bomb.length).toBeLessThan(200_000);
      const { body, contentType } = await multipart({ productId: String(bareProduct(2)) }, [
        jpegPart(bomb, 'bomb.png', 'image/png'),
      ]);
      global.gc?.();
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 2);
      const started = performance.now();
      const answer = await shop.app.inject({
        method: 'POST',
        url: '/api/products/images',
        headers: { 'content-type': contentType, authorization: `Bearer ${adminToken}` },
        payload: body,
      });
      const elapsed = performance.now() - started;
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ message: PICTURE_MESSAGES.tooManyPixels });
      expect(answer.json().errors.file[0]).toContain('20000 × 20000');
      expect(peak - baseline).toBeLessThan(100 * 1024 * 1024);
      // Decoding 400 megapixels would take seconds; a header read takes milliseconds.
      expect(elapsed).toBeLessThan(2000);
    });

    it('stores "../" and odd file names under a generated name inside MEDIA_DIR/products only', async () => {
      const names = [
        '../../etc/passwd.png',
        '..\\..\\windows\\win.ini.jpg',
        '/absolute/path.jpg',
        'photo"; filename="evil.jpg',
        'ph\u0000oto.jpg',
        '\u202Egpj.exe',
        `${'a'.repeat(300)}.jpg`,
        '.htaccess',
      ];
      const small = await photo(300, 200);
      for (const filename of names) {
        const answer = await upload({ productId: String(bareProduct(3)) }, [jpegPart(small, filename)]);
        expect(answer.status, filename).toBe(201);
        for (const url of srcsetUrls(answer.body.srcset)) {
          expect(url).toMatch(GENERATED);
          expect(existsSync(mediaPath(url))).toBe(true);
        }
        // A 300 × 200 original is never enlarged: one 300 px file for every size.
        expect(answer.body.srcset).toBe(`${answer.body.imageUrl} 300w`);
      }
      expect(readdirSync(mediaDir).sort()).toEqual(['products']);
      expect(readdirSync(join(mediaDir, 'products')).every((name) => /^[0-9a-f-]{36}-\d+\.webp$/.test(name))).toBe(
        true,
      );
      expect(existsSync(join(dataDir, 'etc'))).toBe(false);
      expect(existsSync(join(mediaDir, 'etc'))).toBe(false);
    });

    it('turns a picture upright by its EXIF orientation', async () => {
      // 600 × 300 stored sideways (orientation 6: rotate 90° clockwise to view) is a 300 × 600 portrait.
      const sideways = await photo(600, 300, 6);
      const answer = await upload({ productId: String(bareProduct(3)) }, [jpegPart(sideways)]);
      expect(answer.status).toBe(201);
      expect(answer.body.srcset).toMatch(/-200\.webp 200w, \/media\/products\/.+-300\.webp 300w$/);
      const stored = await sharp(mediaPath(answer.body.imageUrl)).metadata();
      expect([stored.width, stored.height, stored.orientation]).toEqual([300, 600, undefined]);
    });

    it('accepts PNG, WebP and AVIF by content, whatever the declared type', async () => {
      const base = sharp({
        create: { width: 500, height: 500, channels: 4, background: { r: 0, g: 80, b: 160, alpha: 0.5 } },
      });
      const files: [string, Buffer][] = [
        ['png', await base.clone().png().toBuffer()],
        ['webp', await base.clone().webp().toBuffer()],
        ['avif', await base.clone().avif().toBuffer()],
      ];
      for (const [format, data] of files) {
        const answer = await upload({ productId: String(bareProduct(4)) }, [
          jpegPart(data, `picture.${format}`, 'application/octet-stream'),
        ]);
        expect(answer.status, format).toBe(201);
        expect(answer.body.srcset, format).toMatch(/ 400w, .+ 500w$/);
        const stored = await sharp(mediaPath(answer.body.imageUrl)).metadata();
        expect(stored.hasAlpha, format).toBe(true);
      }
    });

    it('answers 401 signed out and 403 for a customer, without reading the upload', async () => {
      const signedOut = await upload({ productId: String(bareProduct(2)) }, [jpegPart()], '');
      expect(signedOut.status).toBe(401);
      const customer = await upload({ productId: String(bareProduct(2)) }, [jpegPart()], customerToken);
      expect(customer.status).toBe(403);
      // Even a 30 MB body is refused for its sender, not its size.
      const big = Buffer.alloc(30 * 1024 * 1024, 1);
      const bigCustomer = await upload({ productId: String(bareProduct(2)) }, [jpegPart(big)], customerToken);
      expect(bigCustomer.status).toBe(403);
      const rows = await shop.database.db
        .select()
        .from(productImages)
        .where(eq(productImages.productId, bareProduct(2)));
      expect(rows).toHaveLength(0);
    });

    it('answers 404 for an unknown product and 400 for bad fields or a missing file', async () => {
      const unknown = await upload({ productId: '999999' }, [jpegPart()]);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(PICTURE_MESSAGES.productNotFound);

      const badId = await upload({ productId: 'abc' }, [jpegPart()]);
      expect(badId.status).toBe(400);
      expect(Object.keys(badId.body.errors ?? {})).toEqual(['productId']);

      const badPrimary = await upload({ productId: String(bareProduct(2)), isPrimary: 'yes' }, [jpegPart()]);
      expect(badPrimary.status).toBe(400);
      expect(badPrimary.body.errors).toEqual({ isPrimary: ['isPrimary must be true or false'] });

      const longAlt = await upload({ productId: String(bareProduct(2)), altText: 'x'.repeat(2000) }, [jpegPart()]);
      expect(longAlt.status).toBe(400);
      expect(Object.keys(longAlt.body.errors ?? {})).toEqual(['altText']);

      const noFile = await upload({ productId: String(bareProduct(2)) }, []);
      expect(noFile.status).toBe(400);
      expect(noFile.body.message).toBe(PICTURE_MESSAGES.missing);

      const twoFiles = await upload({ productId: String(bareProduct(2)) }, [jpegPart(), jpegPart()]);
      expect(twoFiles.status).toBe(400);
      expect(twoFiles.body.message).toBe(PICTURE_MESSAGES.oneFile);

      const json = await call<{ message: string }>('POST', '/api/products/images', {
        token: adminToken,
        body: { productId: bareProduct(2) },
      });
      expect(json.status).toBe(415);
      expect(json.body.message).toBe(PICTURE_MESSAGES.notMultipart);

      const rows = await shop.database.db
        .select()
        .from(productImages)
        .where(eq(productImages.productId, bareProduct(2)));
      expect(rows).toHaveLength(0);
    });
  });

  describe('managing a product’s pictures', () => {
    let productId: number;
    let otherProductId: number;
    let ids: number[];
    let pictures: Map<number, ProductPicture>;

    async function primaries(id: number): Promise<number[]> {
      const rows = await shop.database.db
        .select({ id: productImages.id })
        .from(productImages)
        .where(and(eq(productImages.productId, id), eq(productImages.isPrimary, true)));
      return rows.map((row) => row.id);
    }

    beforeAll(async () => {
      productId = bareProduct(2);
      otherProductId = bareProduct(0);
      const small = await photo(900, 600);
      pictures = new Map();
      const first = await upload({ productId: String(productId), altText: 'first' }, [jpegPart(small)]);
      const second = await upload({ productId: String(productId), altText: 'second', isPrimary: 'true' }, [
        jpegPart(small),
      ]);
      const third = await upload({ productId: String(productId), altText: 'third', isPrimary: 'false' }, [
        jpegPart(small),
      ]);
      for (const answer of [first, second, third]) {
        expect(answer.status).toBe(201);
        pictures.set(answer.body.id, answer.body);
      }
      ids = [first.body.id, second.body.id, third.body.id];
      expect([first.body.isPrimary, second.body.isPrimary, third.body.isPrimary]).toEqual([true, true, false]);
      expect([first.body.sortOrder, second.body.sortOrder, third.body.sortOrder]).toEqual([0, 1, 2]);
    });

    it('keeps one primary picture: a new primary upload took over from the first', async () => {
      expect(await primaries(productId)).toEqual([ids[1]]);
      const list = await call<{ images: ProductPicture[] }>('GET', `/api/products/${productId}/images`, {
        token: adminToken,
      });
      expect(list.status).toBe(200);
      expect(list.body.images.map((image) => [image.id, image.isPrimary])).toEqual([
        [ids[0], false],
        [ids[1], true],
        [ids[2], false],
      ]);
    });

    it('sets another primary picture; the shop shows it first', async () => {
      const answer = await call<{ images: ProductPicture[] }>(
        'POST',
        `/api/products/${productId}/images/${ids[2]}/primary`,
        { token: adminToken },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.images.filter((image) => image.isPrimary).map((image) => image.id)).toEqual([ids[2]]);
      expect(await primaries(productId)).toEqual([ids[2]]);
      const product = await call<Product>('GET', `/api/products/${productId}`);
      expect(product.body.imageUrl).toBe(pictures.get(ids[2] ?? 0)?.imageUrl);
      expect(product.body.images.map((image) => image.id)).toEqual([ids[2], ids[0], ids[1]]);
    });

    it('reorders the pictures; a partial or repeated list is 400, another product’s picture 404', async () => {
      const [a, b, c] = ids as [number, number, number];
      const answer = await call<{ images: ProductPicture[] }>('PUT', `/api/products/${productId}/images/order`, {
        token: adminToken,
        body: { imageIds: [b, a, c] },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.images.map((image) => [image.id, image.sortOrder])).toEqual([
        [b, 0],
        [a, 1],
        [c, 2],
      ]);
      const product = await call<Product>('GET', `/api/products/${productId}`);
      // The primary picture leads the gallery, then the order the owner chose.
      expect(product.body.images.map((image) => image.id)).toEqual([c, b, a]);

      for (const imageIds of [[a, b], [a, b, c, c], []]) {
        const wrong = await call<{ message: string }>('PUT', `/api/products/${productId}/images/order`, {
          token: adminToken,
          body: { imageIds },
        });
        expect(wrong.status, JSON.stringify(imageIds)).toBe(400);
      }
      const other = await upload({ productId: String(otherProductId) }, [jpegPart(await photo(300, 300))]);
      const foreign = await call('PUT', `/api/products/${productId}/images/order`, {
        token: adminToken,
        body: { imageIds: [a, b, c, other.body.id] },
      });
      expect(foreign.status).toBe(404);
      const notIds = await call('PUT', `/api/products/${productId}/images/order`, {
        token: adminToken,
        body: { imageIds: ['one'] },
      });
      expect(notIds.status).toBe(400);
    });

    it('another product’s picture id is 404 for delete and set-primary, and nothing changes', async () => {
      const foreignId = ids[0] as number;
      const before = await shop.database.db.select().from(productImages).where(eq(productImages.productId, productId));
      const remove = await call('DELETE', `/api/products/${otherProductId}/images/${foreignId}`, { token: adminToken });
      expect(remove.status).toBe(404);
      const primary = await call('POST', `/api/products/${otherProductId}/images/${foreignId}/primary`, {
        token: adminToken,
      });
      expect(primary.status).toBe(404);
      const unknownProduct = await call('DELETE', `/api/products/999999/images/${foreignId}`, { token: adminToken });
      expect(unknownProduct.status).toBe(404);
      const after = await shop.database.db.select().from(productImages).where(eq(productImages.productId, productId));
      expect(after).toEqual(before);
    });

    it('answers 401 signed out and 403 for a customer on every management route', async () => {
      const routes: ['DELETE' | 'POST' | 'PUT' | 'GET', string, unknown?][] = [
        ['GET', `/api/products/${productId}/images`],
        ['DELETE', `/api/products/${productId}/images/${ids[0]}`],
        ['POST', `/api/products/${productId}/images/${ids[0]}/primary`],
        ['PUT', `/api/products/${productId}/images/order`, { imageIds: ids }],
      ];
      for (const [method, url, body] of routes) {
        expect((await call(method, url, { body })).status, `${method} ${url}`).toBe(401);
        expect((await call(method, url, { body, token: customerToken })).status, `${method} ${url}`).toBe(403);
      }
      expect(await primaries(productId)).toEqual([ids[2]]);
    });

    it('deletes a picture with its files; deleting the primary one promotes the next in order', async () => {
      const [a, b, c] = ids as [number, number, number];
      const primary = pictures.get(c) as ProductPicture;
      const files = srcsetUrls(primary.srcset).map(mediaPath);
      expect(files.length).toBeGreaterThan(0);
      expect(files.every((file) => existsSync(file))).toBe(true);

      const answer = await call('DELETE', `/api/products/${productId}/images/${c}`, { token: adminToken });
      expect(answer.status).toBe(204);
      expect(files.some((file) => existsSync(file))).toBe(false);
      // Order is b, a: b takes over.
      expect(await primaries(productId)).toEqual([b]);
      const product = await call<Product>('GET', `/api/products/${productId}`);
      expect(product.body.images.map((image) => image.id)).toEqual([b, a]);
      expect(product.body.imageUrl).toBe(pictures.get(b)?.imageUrl);

      const again = await call('DELETE', `/api/products/${productId}/images/${c}`, { token: adminToken });
      expect(again.status).toBe(404);

      expect((await call('DELETE', `/api/products/${productId}/images/${a}`, { token: adminToken })).status).toBe(204);
      expect((await call('DELETE', `/api/products/${productId}/images/${b}`, { token: adminToken })).status).toBe(204);
      const empty = await call<Product>('GET', `/api/products/${productId}`);
      expect(empty.body.imageUrl).toBeNull();
      expect(empty.body.images).toEqual([]);
    });

    it('uploads arriving together still leave exactly one primary picture', async () => {
      const productId = bareProduct(1);
      await shop.database.db.delete(productImages).where(eq(productImages.productId, productId));
      const small = await photo(400, 300);
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, index) =>
          upload({ productId: String(productId), isPrimary: index % 2 ? 'true' : 'false' }, [jpegPart(small)]),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
      expect(await primaries(productId)).toHaveLength(1);
      const orders = answers.map((answer) => answer.body.sortOrder).sort();
      expect(orders).toEqual([0, 1, 2, 3]);
    });
  });
});
