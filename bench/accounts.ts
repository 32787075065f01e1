import { hashPassword, verifyPassword } from '../server/domain/passwords.ts';
import { startServer, stopServer } from './api-load.ts';
import { type LoadResult, measureLoad } from './load.ts';

/** Issue 8: an authenticated read must keep at least this share of a bare Fastify route. */
export const ACCOUNT_BUDGETS = { authenticatedReadRatio: 0.2 };

export interface AccountFigures {
  database: string;
  hashMedianMs: number;
  verifyMedianMs: number;
  /** Password checks a second with 10 at a time: what sign-ins cost the server, on purpose. */
  loginsPerSecond: number;
  bare: LoadResult;
  profile: LoadResult;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/**
 * The price of passwords (argon2id hash and verify, sign-ins a second) and the speed of an
 * authenticated API read, `GET /api/users/profile` with a bearer token, against the bare
 * route in the same run.
 */
export async function benchAccounts(options: {
  databaseUrl?: string;
  connections: number;
  durationSeconds: number;
}): Promise<AccountFigures> {
  const hashes: number[] = [];
  let hash = '';
  for (let index = 0; index < 15; index += 1)
    hashes.push(await timed(async () => (hash = await hashPassword('bench-password-1'))));
  const verifies: number[] = [];
  for (let index = 0; index < 15; index += 1)
    verifies.push(await timed(() => verifyPassword(hash, 'bench-password-1')));
  const logins = 60;
  const loginTime = await timed(async () => {
    for (let batch = 0; batch < logins / 10; batch += 1) {
      await Promise.all(Array.from({ length: 10 }, () => verifyPassword(hash, 'bench-password-1')));
    }
  });

  const server = await startServer(1500, options.databaseUrl);
  try {
    const email = `bench-${Date.now()}@example.com`;
    const response = await fetch(`${server.shopUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Bench',
        lastName: 'Mark',
        email,
        password: 'a-bench-password-9',
        phoneNumber: '0412 345 678',
        address: { addressLine1: '1 Test St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'Australia' },
      }),
    });
    if (response.status !== 201)
      throw new Error(`bench registration answered ${response.status}: ${await response.text()}`);
    const { token } = (await response.json()) as { token: string };
    const common = { connections: options.connections, durationSeconds: options.durationSeconds };
    const headers = { authorization: `Bearer ${token}` };
    await measureLoad({
      title: 'warm-up',
      baseUrl: server.shopUrl,
      paths: ['/api/users/profile'],
      headers,
      ...common,
      durationSeconds: 3,
    });
    const bare = await measureLoad({
      title: 'bare Fastify route',
      baseUrl: server.bareUrl,
      paths: ['/bare'],
      ...common,
    });
    const profile = await measureLoad({
      title: 'GET /api/users/profile (bearer)',
      baseUrl: server.shopUrl,
      paths: ['/api/users/profile'],
      headers,
      ...common,
    });
    return {
      database: server.database,
      hashMedianMs: Math.round(median(hashes) * 10) / 10,
      verifyMedianMs: Math.round(median(verifies) * 10) / 10,
      loginsPerSecond: Math.round((logins / loginTime) * 1000),
      bare,
      profile,
    };
  } finally {
    await stopServer(server);
  }
}
