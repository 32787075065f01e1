import { data } from 'react-router';

/**
 * How much of a refused body is read and thrown away so the client, still
 * uploading, gets to see the answer: an unread body leaves the connection
 * stuck. Past this the connection is cut instead (the same 1 MiB the API allows).
 */
const DISCARD_LIMIT_BYTES = 1024 * 1024;

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): Promise<void> {
  let seen = alreadyRead;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    seen += value.byteLength;
    if (seen > DISCARD_LIMIT_BYTES) {
      await reader.cancel();
      return;
    }
  }
}

async function refuse(request: Request, message: string, status: 413 | 415): Promise<never> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (request.body && !request.bodyUsed) {
    const reader = request.body.getReader();
    if (declared > DISCARD_LIMIT_BYTES) await reader.cancel();
    else await discardRest(reader, 0);
  }
  throw data(message, { status });
}

/**
 * Reads a URL-encoded form post (what a `<form method="post">` sends, with or
 * without JavaScript) from a route action, refusing bodies over `maxBytes`
 * without holding them in memory: the page scope of the server sets no body
 * limit of its own. Throws a 413 or 415 response for the route's error boundary, and a 400
 * for a NUL character anywhere in the form.
 */
export async function readUrlEncodedForm(request: Request, maxBytes: number): Promise<URLSearchParams> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
    return refuse(request, 'This form only accepts URL-encoded form posts.', 415);
  }
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) return refuse(request, 'The form you sent is too large.', 413);
  if (!request.body) return new URLSearchParams();

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await discardRest(reader, size);
      throw data('The form you sent is too large.', { status: 413 });
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const form = new URLSearchParams(new TextDecoder().decode(bytes));
  // PostgreSQL text cannot hold U+0000: refused here, once, for every page form.
  for (const [name, value] of form) {
    if (name.includes('\u0000') || value.includes('\u0000')) {
      throw data('The form you sent has a character that is not allowed.', { status: 400 });
    }
  }
  return form;
}
