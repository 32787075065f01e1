import { connect, type Socket } from 'node:net';
import type { LoadOptions, LoadResult } from './load.ts';

/**
 * A keep-alive HTTP/1.1 load generator that counts response bodies without reading them.
 *
 * Why not autocannon here: autocannon appends every body chunk to a string (`req.body += data`),
 * so each compressed page is decoded as UTF-8 on the client. Brotli bytes are invalid UTF-8,
 * which takes the decoder's slow path, and that cost lands on the load generator's core. On
 * this 2-core machine a bare Fastify route sending 40 different 13 kB buffers from memory got
 * 5,200 requests/s from autocannon (0.15× of its `/bare` figure) and 13,400/s when the 40
 * buffers were copies of one: the client, not the server, set the figure. The page bench
 * measures its bare route with this generator too, so its ratios compare like with like.
 */
export async function measureRawLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.baseUrl);
  const extra = Object.entries(options.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const requests = options.paths.map((path) =>
    Buffer.from(`GET ${path} HTTP/1.1\r\nhost: ${url.host}\r\nconnection: keep-alive\r\n${extra}\r\n`, 'latin1'),
  );
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let non2xx = 0;
  const started = performance.now();
  const endsAt = started + options.durationSeconds * 1000;

  // A server that closes a connection (an idle timeout, `Connection: close`) gets a new one
  // while the run lasts; one that stops answering is cut off a little after it.
  const runConnection = (): Promise<void> =>
    new Promise((resolve) => {
      const open = () => {
        const socket: Socket = connect({
          host: url.hostname,
          port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
          noDelay: true,
        });
        const response = new ResponseReader();
        let sentAt = 0;
        let awaiting = false;
        const send = () => {
          if (performance.now() >= endsAt) {
            awaiting = false;
            socket.end();
            return;
          }
          sentAt = performance.now();
          awaiting = true;
          socket.write(requests[next++ % requests.length]!);
        };
        const deadline = setTimeout(() => socket.destroy(), endsAt - performance.now() + 10_000);
        socket.on('connect', send);
        socket.on('data', (chunk: Buffer) => {
          let offset = 0;
          try {
            while (offset < chunk.length) {
              offset = response.feed(chunk, offset);
              if (!response.done) continue;
              const status = response.status;
              response.reset();
              // An interim answer (103 Early Hints, say) is followed by the real one.
              if (status >= 100 && status < 200) continue;
              latencies.push(performance.now() - sentAt);
              if (status < 200 || status > 299) non2xx += 1;
              send();
            }
          } catch {
            errors += 1;
            socket.destroy();
          }
        });
        socket.on('error', () => {
          errors += 1;
        });
        socket.on('close', () => {
          clearTimeout(deadline);
          if (awaiting) errors += 1;
          if (performance.now() < endsAt) open();
          else resolve();
        });
      };
      open();
    });

  await Promise.all(Array.from({ length: options.connections }, runConnection));
  const elapsedSeconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const percentile = (share: number) =>
    latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))]!;
  return {
    title: options.title,
    requestsPerSecond: Math.round(latencies.length / elapsedSeconds),
    p50Ms: Math.round(percentile(0.5)),
    p99Ms: Math.round(percentile(0.99)),
    errors,
    non2xx,
  };
}

/** One response at a time off a keep-alive socket: the head parsed, the body (sized or chunked) skipped. */
export class ResponseReader {
  status = 0;
  done = false;
  private state: 'head' | 'sized' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailer' = 'head';
  private head = '';
  private remaining = 0;
  private line = '';

  reset(): void {
    this.status = 0;
    this.done = false;
    this.state = 'head';
    this.head = '';
    this.remaining = 0;
    this.line = '';
  }

  /** Consumes bytes from `offset` until the response ends or the chunk does; returns the new offset. */
  feed(chunk: Buffer, offset: number): number {
    while (offset < chunk.length && !this.done) {
      if (this.state === 'head') {
        const end = chunk.indexOf('\r\n\r\n', offset, 'latin1');
        // The end marker may straddle two chunks: keep the head's text and look again in it.
        const upto = end === -1 ? chunk.length : end + 4;
        this.head += chunk.toString('latin1', offset, upto);
        offset = upto;
        const headEnd = this.head.indexOf('\r\n\r\n');
        if (headEnd === -1) continue;
        // A marker found only in the joined text: give back what followed it.
        offset -= this.head.length - (headEnd + 4);
        this.startBody(this.head.slice(0, headEnd));
      } else if (this.state === 'sized') {
        const take = Math.min(this.remaining, chunk.length - offset);
        this.remaining -= take;
        offset += take;
        if (this.remaining === 0) this.done = true;
      } else if (this.state === 'chunk-data') {
        const take = Math.min(this.remaining, chunk.length - offset);
        this.remaining -= take;
        offset += take;
        if (this.remaining === 0) this.state = 'chunk-end';
      } else {
        // chunk-size, chunk-end (the CRLF after data) and trailer are lines.
        const end = chunk.indexOf('\n', offset);
        const upto = end === -1 ? chunk.length : end + 1;
        this.line += chunk.toString('latin1', offset, upto);
        offset = upto;
        if (end === -1) continue;
        const text = this.line.trim();
        this.line = '';
        if (this.state === 'chunk-end') this.state = 'chunk-size';
        else if (this.state === 'chunk-size') {
          const size = Number.parseInt(text.split(';')[0] ?? '', 16);
          if (Number.isNaN(size)) throw new Error(`bad chunk size line: ${JSON.stringify(text)}`);
          if (size === 0) this.state = 'trailer';
          else {
            this.remaining = size;
            this.state = 'chunk-data';
          }
        } else if (text === '') this.done = true;
      }
    }
    return offset;
  }

  private startBody(head: string): void {
    const lines = head.split('\r\n');
    this.status = Number(lines[0]?.split(' ')[1]);
    let length = 0;
    let chunked = false;
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') length = Number(value);
      else if (name === 'transfer-encoding' && value.toLowerCase().includes('chunked')) chunked = true;
    }
    // 304s and 204s have no body whatever their headers say.
    if (this.status === 304 || this.status === 204) this.done = true;
    else if (chunked) this.state = 'chunk-size';
    else if (length > 0) {
      this.remaining = length;
      this.state = 'sized';
    } else this.done = true;
  }
}
