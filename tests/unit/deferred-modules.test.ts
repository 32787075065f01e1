import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDeferredModulesStream, deferModuleTags } from '../../app/lib/deferred-modules.server.ts';
import { DEFERRED_MODULE_TYPE, DEFERRED_PRELOAD_REL } from '../../app/lib/deferred-modules.ts';

/** The tags as React Router 8 and React 19 write them (seen in a built page). */
const PAGE = [
  '<!DOCTYPE html><html lang="en-AU"><head><meta charSet="utf-8"/>',
  '<link rel="modulepreload" href="/assets/entry.client-DgOHYVw7.js" nonce="BrKtq5AdK01ipGJjCrGugg=="/>',
  '<link rel="modulepreload" href="/assets/shop-qE2ra8Fj.js" nonce="BrKtq5AdK01ipGJjCrGugg=="/>',
  '<link rel="preload" href="/assets/inter.woff2" as="font" type="font/woff2" crossorigin="anonymous"/>',
  '</head><body><main>Drills ’n’ drivers — “18V” &amp; more</main>',
  '<script type="application/ld+json">{"@type":"Product"}</script>',
  '<script nonce="BrKtq5AdK01ipGJjCrGugg==">window.__reactRouterContext = {};</script>',
  '<script nonce="BrKtq5AdK01ipGJjCrGugg==" type="module" async="">import "/assets/entry.client-DgOHYVw7.js";</script>',
  '<script nonce="BrKtq5AdK01ipGJjCrGugg==">$RC("B:1","S:1")</script></body></html>',
].join('');

async function streamed(chunks: Buffer[]): Promise<string> {
  const out: Buffer[] = [];
  for await (const piece of Readable.from(chunks).pipe(createDeferredModulesStream())) out.push(piece as Buffer);
  return Buffer.concat(out).toString('utf8');
}

describe('deferModuleTags', () => {
  it('writes the module preloads and the module script inert, and nothing else', () => {
    const html = deferModuleTags(PAGE, { scriptDeferred: false });
    expect(html).not.toContain('rel="modulepreload"');
    expect(html.match(new RegExp(`rel="${DEFERRED_PRELOAD_REL}"`, 'g'))).toHaveLength(2);
    expect(html).toContain(`<script nonce="BrKtq5AdK01ipGJjCrGugg==" type="${DEFERRED_MODULE_TYPE}">import`);
    expect(html).not.toContain('type="module"');
    // The font preload, the JSON-LD, the inline scripts and the text are left as they were.
    expect(html).toContain('<link rel="preload" href="/assets/inter.woff2"');
    expect(
      html
        .replace(/x-modulepreload/g, 'modulepreload')
        .replace(`type="${DEFERRED_MODULE_TYPE}"`, 'type="module" async=""'),
    ).toBe(PAGE);
  });
});

describe('createDeferredModulesStream', () => {
  it('gives the same page however the document is cut into chunks (multi-byte characters included)', async () => {
    const whole = deferModuleTags(PAGE, { scriptDeferred: false });
    const bytes = Buffer.from(PAGE, 'utf8');
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }),
        async (cuts) => {
          const edges = [0, ...cuts.toSorted((a, b) => a - b), bytes.length];
          const chunks = edges.slice(1).map((end, index) => bytes.subarray(edges[index], end));
          expect(await streamed(chunks)).toBe(whole);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds back only a tag left open at the end of a chunk, so streamed parts go out at once', async () => {
    const stream = createDeferredModulesStream();
    const written: string[] = [];
    stream.on('data', (piece: Buffer) => written.push(piece.toString('utf8')));
    const flushed = () => new Promise((resolve) => setImmediate(resolve));
    stream.write(Buffer.from('<div hidden id="S:0"><p>Ready</p></div><script nonce="n">$RC("B:1","S:1")</script>'));
    await flushed();
    expect(written.join('')).toBe('<div hidden id="S:0"><p>Ready</p></div><script nonce="n">$RC("B:1","S:1")</script>');
    stream.write(Buffer.from('<p>More</p><link rel="modu'));
    await flushed();
    expect(written.join('')).toMatch(/<p>More<\/p>$/);
    stream.end(Buffer.from('lepreload" href="/a.js"/>'));
    await flushed();
    expect(written.join('')).toMatch(/<p>More<\/p><link rel="x-modulepreload" href="\/a.js"\/>$/);
  });

  it('holds a writer back while nobody reads: a large piece leaves at once, through the stream', () => {
    const stream = createDeferredModulesStream();
    // No reader: whatever the stream passes on waits in its buffer, and past its high-water
    // mark write() says to stop. Pieces kept aside for the end of the turn would never say so.
    const chunk = Buffer.from(`<p>${'x'.repeat(4089)}</p>`);
    let accepted = 0;
    while (accepted < 64 && stream.write(chunk)) accepted += 1;
    expect(accepted).toBeLessThan(64);
    stream.destroy();
  });

  it('sends what is written in one turn of the event loop as one piece, at the end of that turn', async () => {
    const stream = createDeferredModulesStream();
    const written: string[] = [];
    stream.on('data', (piece: Buffer) => written.push(piece.toString('utf8')));
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    for (let index = 0; index < 40; index += 1) stream.write(Buffer.from(`<p>${index}</p>`));
    expect(written).toEqual([]);
    await nextTurn();
    expect(written).toEqual([Array.from({ length: 40 }, (_, index) => `<p>${index}</p>`).join('')]);
    // A later turn's writes are a piece of their own; the end sends what is left at once.
    stream.write(Buffer.from('<p>later</p>'));
    stream.end(Buffer.from('<p>last</p>'));
    await new Promise((resolve) => stream.on('end', resolve));
    expect(written.slice(1).join('')).toBe('<p>later</p><p>last</p>');
  });
});
