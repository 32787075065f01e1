import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { DEFERRED_MODULE_TYPE, DEFERRED_PRELOAD_REL } from './deferred-modules.ts';

/** React Router's module preloads, as React writes them. */
const MODULE_PRELOAD = '<link rel="modulepreload"';
/** React Router's one inline module script (`<Scripts>`), as React writes it, nonce and all. */
const MODULE_SCRIPT = /<script((?: nonce="[^"]*")?) type="module" async="">/;
/** Writes the page's module preloads and module script inert, on every chunk of the document. */
export function deferModuleTags(html: string, state: { scriptDeferred: boolean }): string {
  let text = html.replaceAll(MODULE_PRELOAD, `<link rel="${DEFERRED_PRELOAD_REL}"`);
  if (!state.scriptDeferred && MODULE_SCRIPT.test(text)) {
    text = text.replace(MODULE_SCRIPT, `<script$1 type="${DEFERRED_MODULE_TYPE}">`);
    state.scriptDeferred = true;
  }
  return text;
}

/**
 * A stream the rendered document passes through on its way out: module preloads and the
 * module script leave inert, for `RESTORE_DEFERRED_MODULES` (deferred-modules.ts) to bring
 * back after the first paint. Only a tag left open at a chunk's end is held back, so streamed
 * parts of the page are not delayed.
 *
 * What React writes in one turn of the event loop leaves as one piece, at the end of that
 * turn: React writes a page in chunks of a few kB, and every chunk cost its own trip through
 * the web stream, the reply and a zlib call on the thread pool (a signed-in product page is
 * about forty of them). Nothing waits on anything but the current turn, so streaming is
 * unchanged. Past `PIECE_BYTES` a piece goes at once, through the transform's own output, so
 * a slow reader still holds the writer back.
 */
/** A piece this large leaves without waiting for the end of the turn (a stream's usual high-water mark). */
const PIECE_BYTES = 16 * 1024;

export function createDeferredModulesStream(): Transform {
  const decoder = new StringDecoder('utf8');
  const state = { scriptDeferred: false };
  let held = '';
  let pending = '';
  let scheduled: NodeJS.Immediate | null = null;
  const sendPending = () => {
    scheduled = null;
    if (pending === '') return;
    stream.push(pending);
    pending = '';
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = deferModuleTags(held + decoder.write(chunk), state);
      // Only a tag still open at the chunk's end can be one of ours cut in two: a closed one
      // has been rewritten already. So a chunk ending in `</script>` (every streamed part
      // does) goes out whole, in this turn.
      const lastTag = text.lastIndexOf('<');
      const holdFrom = lastTag >= 0 && !text.includes('>', lastTag) ? lastTag : text.length;
      held = text.slice(holdFrom);
      pending += text.slice(0, holdFrom);
      if (pending.length >= PIECE_BYTES) {
        const piece = pending;
        pending = '';
        done(null, piece);
        return;
      }
      scheduled ??= setImmediate(sendPending);
      done();
    },
    flush(done) {
      if (scheduled) clearImmediate(scheduled);
      scheduled = null;
      const rest = pending + deferModuleTags(held + decoder.end(), state);
      pending = '';
      done(null, rest);
    },
    destroy(error, done) {
      if (scheduled) clearImmediate(scheduled);
      scheduled = null;
      done(error);
    },
  });
  return stream;
}
