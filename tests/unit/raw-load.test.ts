import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResponseReader } from '../../bench/raw-load.ts';

const sized = 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\nContent-Length: 11\r\n\r\nhello world';
const chunked =
  'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-encoding: br\r\n\r\n5\r\nhello\r\n1;ext=1\r\n \r\n5\r\nworld\r\n0\r\n\r\n';
const notModified = 'HTTP/1.1 304 Not Modified\r\netag: "x"\r\ncontent-length: 11\r\n\r\n';
const missing = 'HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n';

/** Feeds `wire` cut at `cuts` and returns each response's status in the order they ended. */
function read(wire: string, cuts: number[]): number[] {
  const bytes = Buffer.from(wire, 'latin1');
  const edges = [...new Set([0, ...cuts.map((cut) => cut % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b);
  const reader = new ResponseReader();
  const ended: number[] = [];
  for (let index = 1; index < edges.length; index += 1) {
    const chunk = bytes.subarray(edges[index - 1], edges[index]);
    let offset = 0;
    while (offset < chunk.length) {
      offset = reader.feed(chunk, offset);
      if (reader.done) {
        ended.push(reader.status);
        reader.reset();
      }
    }
  }
  return ended;
}

describe('the page bench load generator reads responses off a keep-alive socket', () => {
  it('ends each response exactly where the next begins, whole', () => {
    expect(read(sized + chunked + notModified + missing, [])).toEqual([200, 200, 304, 404]);
  });

  it('ends them the same wherever the bytes are cut into chunks', () => {
    const wire = sized + chunked + notModified + chunked + missing + sized;
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), (cuts) => {
        expect(read(wire, cuts)).toEqual([200, 200, 304, 200, 404, 200]);
      }),
    );
  });

  it('does not end a response whose body has not all arrived', () => {
    expect(read(sized.slice(0, -1), [])).toEqual([]);
    expect(read(chunked.slice(0, -2), [])).toEqual([]);
  });
});
