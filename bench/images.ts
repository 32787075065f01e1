import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { productImages, products } from '../db/schema.ts';
import { storeProductImage } from '../server/domain/media.ts';
import { createTestShop } from '../tests/helpers/test-app.ts';

/** Issue 10 asks for the figure ("image processing time per upload"); it sets no budget. */
export interface ImageFigures {
  source: { width: number; height: number; bytes: number };
  uploads: number;
  /** `storeProductImage` alone: content checks, one decode, three WebP encodes, three writes. */
  processing: { medianMs: number; minMs: number; maxMs: number };
  /** `POST /api/products/images` over HTTP as an admin: multipart parse, processing, the row, the audit entry. */
  roundTrip: { medianMs: number; minMs: number; maxMs: number };
  /** The WebP files one upload becomes. */
  outputs: { width: number; bytes: number }[];
  /** How much the process's resident memory grew across the processing runs. */
  rssGrowthMb: number;
}

function stats(values: number[]): { medianMs: number; minMs: number; maxMs: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    medianMs: round(sorted[Math.floor(sorted.length / 2)] ?? 0),
    minMs: round(sorted[0] ?? 0),
    maxMs: round(sorted.at(-1) ?? 0),
  };
}

/**
 * A 12-megapixel camera-like JPEG (4000 × 3000, quality 90, ~2.7 MB): overlapping shapes on a
 * gradient with sensor-like noise and EXIF, so it decodes and compresses like a photo rather
 * than a flat colour.
 */
async function cameraJpeg(width = 4000, height = 3000): Promise<Buffer> {
  const shapes = Array.from({ length: 300 }, (_, index) => {
    const x = (index * 7919) % width;
    const y = (index * 104_729) % height;
    const radius = 40 + ((index * 31) % 300);
    return `<circle cx="${x}" cy="${y}" r="${radius}" fill="hsl(${(index * 47) % 360},60%,${30 + (index % 40)}%)" fill-opacity="0.6"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#234"/><stop offset="1" stop-color="#dca"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
  const scene = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 0, sigma: 12 } },
  })
    .raw()
    .toBuffer();
  return sharp(scene, { raw: { width, height, channels: 3 } })
    .composite([{ input: noise, raw: { width, height, channels: 3 }, blend: 'add' }])
    .jpeg({ quality: 90 })
    .withMetadata({ exif: { IFD0: { Make: 'Bench', Model: 'Camera', Copyright: 'bench' } } })
    .toBuffer();
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/**
 * Time per picture upload: the processing alone (median of `uploads` runs after one warm-up)
 * and the whole `POST /api/products/images` round trip against a listening shop on PGlite.
 */
export async function benchImages(options: { uploads?: number } = {}): Promise<ImageFigures> {
  const uploads = options.uploads ?? 10;
  const source = await cameraJpeg();
  const sourceInfo = await sharp(source).metadata();
  const dataDir = mkdtempSync(join(tmpdir(), 'harbour-bench-images-'));
  const mediaDir = join(dataDir, 'media');
  try {
    let outputs: ImageFigures['outputs'] = [];
    await storeProductImage(source, { mediaDir });
    const rssBefore = process.memoryUsage().rss;
    const processing: number[] = [];
    for (let run = 0; run < uploads; run += 1) {
      processing.push(
        await timed(async () => {
          const stored = await storeProductImage(source, { mediaDir });
          outputs = stored.files.map((file) => ({ width: file.width, bytes: file.bytes }));
        }),
      );
    }
    const rssGrowthMb = Math.round((process.memoryUsage().rss - rssBefore) / 1e6);

    const shop = await createTestShop('pglite', { products: 20, env: { DATA_DIR: dataDir, MEDIA_DIR: mediaDir } });
    const roundTrip: number[] = [];
    try {
      await shop.app.listen({ host: '127.0.0.1', port: 0 });
      const address = shop.app.server.address() as { port: number };
      const origin = `http://127.0.0.1:${address.port}`;
      const email = `bench-images-${Date.now()}@example.com`;
      const password = 'Bench-Images-Pass-42';
      await shop.app.services.accounts.ensureAdmin(email, password);
      const login = await fetch(`${origin}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      if (!login.ok) throw new Error(`admin sign-in answered ${login.status}`);
      const { token } = (await login.json()) as { token: string };
      const [product] = await shop.database.db.select({ id: products.id }).from(products).limit(1);
      if (!product) throw new Error('the bench shop has no product');
      const post = async () => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(source)], { type: 'image/jpeg' }), 'IMG_0001.jpg');
        form.append('productId', String(product.id));
        form.append('altText', 'Bench picture');
        const answer = await fetch(`${origin}/api/products/images`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${await answer.text()}`);
        await answer.arrayBuffer();
      };
      await post();
      for (let run = 0; run < uploads; run += 1) roundTrip.push(await timed(post));
      await shop.database.db.delete(productImages).where(eq(productImages.productId, product.id));
    } finally {
      await shop.close();
    }
    return {
      source: { width: sourceInfo.width ?? 0, height: sourceInfo.height ?? 0, bytes: source.length },
      uploads,
      processing: stats(processing),
      roundTrip: stats(roundTrip),
      outputs,
      rssGrowthMb,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
