import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import { ownBytes } from '../own-bytes.ts';

/*
 * Catalogue answers compressed once, not per request (issue 24). A kept catalogue answer (a
 * product, a listing, search results) is the same object on every hit while it is kept, so its
 * JSON and its br and gzip bytes are made the first time a client asks for each and sent as
 * they are after: the per-request brotli of @fastify/compress cost a JSON answer two thirds of
 * its time. Keyed by the answer object itself, so a stale answer (dropped by the catalogue
 * cache after a change) is never asked for again and leaves by least recent use; the bytes
 * are bounded by KEPT_JSON_MB.
 */

/** Below this the answer goes uncompressed, as @fastify/compress's threshold sends it. */
const COMPRESS_FROM_BYTES = 1024;

interface KeptBody {
  json: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

export interface KeptJsonStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}

export function createKeptJson(maxBytes: number) {
  const kept =
    maxBytes > 0
      ? new LRUCache<object, KeptBody>({
          maxSize: maxBytes,
          sizeCalculation: (body) =>
            Math.max(1, body.json.length + (body.br?.length ?? 0) + (body.gzip?.length ?? 0) + 128),
        })
      : null;
  let hits = 0;
  let misses = 0;

  function bodyOf(answer: object, schema: z.ZodType): { body: KeptBody; fresh: boolean } {
    const found = kept?.get(answer);
    if (found) return { body: found, fresh: false };
    // The same bytes Fastify's serializer would send: the response schema's output, as JSON.
    return { body: { json: ownBytes(Buffer.from(JSON.stringify(schema.parse(answer)))) }, fresh: true };
  }

  return {
    /**
     * Sends `answer` (an object the catalogue keeps, shared by requests) as JSON, compressed
     * for this client as it asks (br, else gzip), from the bytes kept for it.
     */
    send(request: FastifyRequest, reply: FastifyReply, answer: object, schema: z.ZodType): FastifyReply {
      const { body, fresh } = bodyOf(answer, schema);
      reply.type('application/json; charset=utf-8');
      if (body.json.length < COMPRESS_FROM_BYTES) {
        if (fresh) kept?.set(answer, body);
        return reply.send(body.json);
      }
      reply.header('vary', 'accept-encoding');
      const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
      if (encoding !== 'br' && encoding !== 'gzip') {
        if (fresh) kept?.set(answer, body);
        return reply.send(body.json);
      }
      let bytes = body[encoding];
      if (bytes) hits++;
      else {
        misses++;
        bytes = ownBytes(
          encoding === 'br'
            ? brotliCompressSync(body.json, {
                params: {
                  // As for kept pages: quality 6 is within 1 % of 9's size at a fraction of the time.
                  [zlibConstants.BROTLI_PARAM_QUALITY]: 6,
                  [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.json.length,
                },
              })
            : gzipSync(body.json, { level: 6 }),
        );
        body[encoding] = bytes;
        // Set again so the cache counts the new bytes.
        kept?.set(answer, body);
      }
      return reply.header('content-encoding', encoding).send(bytes);
    },

    stats(): KeptJsonStats {
      return { entries: kept?.size ?? 0, bytes: kept?.calculatedSize ?? 0, hits, misses };
    },
  };
}

export type KeptJson = ReturnType<typeof createKeptJson>;
