import { randomUUID } from 'node:crypto';
import postgres from 'postgres';

/**
 * Which app processes are alive, for work one process starts and another may have to finish:
 * an order whose card charge was in flight when its process died (server/domain/orders.ts).
 * Each process has a random id; on PostgreSQL it holds a session advisory lock named by it for
 * its whole life, which PostgreSQL lets go the moment that process's connection dies, so a
 * lock another session can take belongs to a process that is gone. The embedded database has
 * one process: any other id is a process that died.
 */
export interface ProcessLiveness {
  /** This process's id, once it is known to the others (its lock held). */
  id(): Promise<string>;
  isAlive(processId: string): Promise<boolean>;
  close(): Promise<void>;
}

export function singleProcessLiveness(): ProcessLiveness {
  const mine = randomUUID();
  return {
    id: async () => mine,
    isAlive: async (processId) => processId === mine,
    close: async () => {},
  };
}

export function postgresLiveness(url: string): ProcessLiveness {
  const mine = randomUUID();
  let held: Promise<void> | null = null;
  // One connection, opened when first needed (scripts never need it), holding the lock.
  const session = postgres(url, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    connect_timeout: 1.5,
    onnotice: () => {},
    connection: { application_name: 'harbour-tools liveness' },
    // The connection went: so did the lock. The next use takes it again.
    onclose: () => {
      held = null;
    },
  });
  const hold = (): Promise<void> => {
    held ??= session`select pg_advisory_lock(hashtextextended(${mine}, 0))`.then(
      () => {},
      (error: unknown) => {
        held = null;
        throw error;
      },
    );
    return held;
  };
  return {
    id: async () => {
      await hold();
      return mine;
    },
    isAlive: async (processId) => {
      if (processId === mine) return true;
      await hold();
      const [row] = await session<{ taken: boolean }[]>`
        select pg_try_advisory_lock(hashtextextended(${processId}, 0)) as taken`;
      if (!row?.taken) return true;
      await session`select pg_advisory_unlock(hashtextextended(${processId}, 0))`;
      return false;
    },
    close: () => session.end({ timeout: 1 }),
  };
}
