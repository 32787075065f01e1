import type { PGlite } from '@electric-sql/pglite';

/**
 * Every statement the embedded database is asked from now on, in order (its text), for tests
 * that prove a path reads or writes once: clear it with `statements.length = 0` before the step.
 */
export function logStatements(client: PGlite): string[] {
  const statements: string[] = [];
  const query = client.query.bind(client);
  client.query = ((text: string, ...rest: unknown[]) => {
    statements.push(text);
    return (query as (...args: unknown[]) => unknown)(text, ...rest);
  }) as PGlite['query'];
  return statements;
}
