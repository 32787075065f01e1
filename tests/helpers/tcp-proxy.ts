import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A TCP proxy between the shop and PostgreSQL that a test can make misbehave the two ways a
 * database goes away (issue 23), without touching the shared server:
 * - `refuse()`: the server stopped — the port refuses connections and every open one is reset;
 * - `silence()`: the network drops packets — open connections carry nothing either way (what
 *   was sent waits, as TCP would retransmit it) and new ones are accepted but never answered;
 * - `restore()`: back to normal. Connections the shop gave up during the silence are closed
 *   towards PostgreSQL (as the shop's reset would reach it once the network heals); the rest
 *   carry on with what waited.
 */
export interface TcpProxy {
  port: number;
  refuse(): Promise<void>;
  silence(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | null;
  clientGone: boolean;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: 'open' | 'refused' | 'silent' = 'open';
  const pairs = new Set<Pair>();

  const bridge = (pair: Pair) => {
    const upstream = tcpConnect(target.port, target.host);
    pair.upstream = upstream;
    pair.client.pipe(upstream);
    upstream.pipe(pair.client);
    upstream.on('error', () => pair.client.destroy());
    upstream.on('close', () => {
      pair.client.destroy();
      pairs.delete(pair);
    });
  };

  const onConnection = (client: Socket) => {
    const pair: Pair = { client, upstream: null, clientGone: false };
    pairs.add(pair);
    client.on('error', () => {});
    client.on('close', () => {
      pair.clientGone = true;
      // While silent the news of the close travels nowhere; it arrives on restore.
      if (mode !== 'silent') {
        pair.upstream?.destroy();
        pairs.delete(pair);
      }
    });
    if (mode === 'silent') {
      client.pause();
      return;
    }
    bridge(pair);
  };

  let server: Server = createServer(onConnection);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the proxy has no port');
  const port = address.port;

  const listen = () =>
    new Promise<void>((done, fail) => {
      server = createServer(onConnection);
      server.once('error', fail);
      server.listen(port, '127.0.0.1', done);
    });

  return {
    port,
    async refuse() {
      mode = 'refused';
      await new Promise<void>((done) => {
        server.close(() => done());
        for (const pair of pairs) {
          pair.client.resetAndDestroy();
          pair.upstream?.destroy();
        }
        pairs.clear();
      });
    },
    silence() {
      mode = 'silent';
      for (const pair of pairs) {
        if (!pair.upstream) continue;
        pair.client.unpipe(pair.upstream);
        pair.upstream.unpipe(pair.client);
        pair.client.pause();
        pair.upstream.pause();
      }
    },
    async restore() {
      const was = mode;
      mode = 'open';
      if (was === 'refused') {
        await listen();
        return;
      }
      for (const pair of [...pairs]) {
        if (pair.clientGone) {
          pair.upstream?.destroy();
          pairs.delete(pair);
        } else if (pair.upstream) {
          pair.client.pipe(pair.upstream);
          pair.upstream.pipe(pair.client);
        } else {
          pair.client.resume();
          bridge(pair);
        }
      }
    },
    async close() {
      mode = 'refused';
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      pairs.clear();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
