import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ID, numberIdSchema, parseId } from '../../contracts/params.ts';

const root = join(import.meta.dirname, '..', '..');

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.(ts|tsx)$/.test(path) && !path.includes('+types'))
    .map((path) => join(folder, path));
}

describe('one id parser (issue 21)', () => {
  it('no route, page or schema spells the id bound itself: they use contracts/params.ts', () => {
    const spelled = ['app', 'server', 'contracts', 'db', 'scripts']
      .flatMap(sourcesUnder)
      .filter((path) => relative('contracts', path) !== 'params.ts')
      .filter((path) => /2_?147_?483_?647/.test(readFileSync(join(root, path), 'utf8')));
    expect(spelled).toEqual([]);
  });

  it('a JSON id is accepted exactly when its text is (1 … MAX_ID, whole)', () => {
    const schema = numberIdSchema('bad id');
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -5, max: 20 }), fc.integer(), fc.double(), fc.constant(MAX_ID + 1)),
        (n) => {
          const parsed = schema.safeParse(n);
          const expected = Number.isInteger(n) && n >= 1 && n <= MAX_ID;
          expect(parsed.success).toBe(expected);
          if (expected) expect(parseId(String(n))).toBe(n);
          else if (!parsed.success) expect(parsed.error.issues[0]?.message).toBe('bad id');
        },
      ),
    );
  });
});
