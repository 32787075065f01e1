import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SearchQuery } from '../../contracts/search.ts';
import { createSearchAnswers, createSharedVersionRead, searchAnswerKey } from '../../server/domain/search-answers.ts';

const query = (term: string, extra: Partial<SearchQuery> = {}): SearchQuery => ({
  term,
  page: 1,
  pageSize: 20,
  sortBy: 'relevance',
  ...extra,
});

/** A database in memory: a version that moves with each committed write, and one value per term. */
function fakeCatalogue() {
  const state = { version: 0, values: new Map<string, number>() };
  return {
    state,
    write(term: string, value: number) {
      state.values.set(term, value);
      state.version++;
    },
  };
}

describe('searchAnswerKey', () => {
  it('gives equal keys for equal queries whatever order their fields were written in', () => {
    const a = searchAnswerKey({ term: 'drill', page: 2, pageSize: 20, sortBy: 'price_asc', brandId: 3 });
    const b = searchAnswerKey({ brandId: 3, sortBy: 'price_asc', pageSize: 20, page: 2, term: 'drill' });
    expect(a).toBe(b);
    expect(searchAnswerKey(query('drill', { brandId: 3 }))).not.toBe(
      searchAnswerKey(query('drill', { categoryId: 3 })),
    );
    expect(searchAnswerKey(query('drill', { minPrice: 5 }))).not.toBe(searchAnswerKey(query('drill', { maxPrice: 5 })));
  });
});

describe('createSearchAnswers', () => {
  it('answers a repeated query from memory until the version moves, then searches again', async () => {
    const catalogue = fakeCatalogue();
    catalogue.write('drill', 1);
    let computed = 0;
    const answers = createSearchAnswers({
      readVersion: async () => catalogue.state.version,
      compute: async (q) => {
        computed++;
        return { value: catalogue.state.values.get(q.term) };
      },
      sizeOf: () => 100,
    });
    expect(await answers.answer(query('drill'))).toEqual({ value: 1 });
    expect(await answers.answer(query('drill'))).toEqual({ value: 1 });
    expect(computed).toBe(1);
    catalogue.write('drill', 2);
    expect(await answers.answer(query('drill'))).toEqual({ value: 2 });
    expect(computed).toBe(2);
    expect(answers.state()).toMatchObject({ hits: 1, misses: 2, entries: 1 });
  });

  it('searches again once a kept answer is older than maxAgeMs, though the version stood still (stock moves it no more)', async () => {
    const catalogue = fakeCatalogue();
    catalogue.write('drill', 1);
    let now = 1_000;
    let computed = 0;
    const answers = createSearchAnswers({
      readVersion: async () => catalogue.state.version,
      compute: async (q) => {
        computed++;
        return { value: catalogue.state.values.get(q.term), at: now };
      },
      sizeOf: () => 100,
      maxAgeMs: 60_000,
      now: () => now,
    });
    expect(await answers.answer(query('drill'))).toEqual({ value: 1, at: 1_000 });
    now += 59_999;
    expect(await answers.answer(query('drill'))).toEqual({ value: 1, at: 1_000 });
    expect(computed).toBe(1);
    now += 1;
    expect(await answers.answer(query('drill'))).toEqual({ value: 1, at: 61_000 });
    expect(computed).toBe(2);
  });

  it('reads only the stock of an answer past maxAgeMs when it can, once for concurrent requests, keeping the object when nothing moved', async () => {
    let now = 0;
    let computed = 0;
    let restocked = 0;
    let stock = 7;
    const answers = createSearchAnswers<{ term: string; stock: number }>({
      readVersion: async () => 1,
      compute: async (q) => {
        computed++;
        return { term: q.term, stock };
      },
      restock: async (answer) => {
        restocked++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return answer.stock === stock ? answer : { ...answer, stock };
      },
      sizeOf: () => 10,
      maxAgeMs: 10_000,
      now: () => now,
    });
    const first = await answers.answer(query('saw'));
    now = 10_000;
    // Aged, nothing moved: the same object (its compressed JSON is kept with it), fresh again.
    const [a, b] = await Promise.all([answers.answer(query('saw')), answers.answer(query('saw'))]);
    expect(a).toBe(first);
    expect(b).toBe(first);
    expect(restocked).toBe(1);
    now = 15_000;
    expect(await answers.answer(query('saw'))).toBe(first);
    expect(restocked).toBe(1);
    // Aged again after a sale: a new, frozen answer with the new stock; the search itself never ran again.
    stock = 6;
    now = 20_000;
    const after = await answers.answer(query('saw'));
    expect(after).toEqual({ term: 'saw', stock: 6 });
    expect(Object.isFrozen(after)).toBe(true);
    expect(computed).toBe(1);
    expect(await answers.answer(query('saw'))).toBe(after);
  });

  it('runs one search for concurrent misses on the same query', async () => {
    let computed = 0;
    const answers = createSearchAnswers({
      readVersion: async () => 1,
      compute: async (q) => {
        computed++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { term: q.term };
      },
      sizeOf: () => 10,
    });
    const [a, b, c] = await Promise.all([
      answers.answer(query('saw')),
      answers.answer(query('saw')),
      answers.answer(query('drill')),
    ]);
    expect(a).toBe(b);
    expect(c).toEqual({ term: 'drill' });
    expect(computed).toBe(2);
  });

  it('keeps no more than its byte budget', async () => {
    const answers = createSearchAnswers({
      readVersion: async () => 0,
      compute: async (q) => ({ term: q.term }),
      sizeOf: () => 400,
      maxBytes: 1000,
    });
    for (const term of ['a', 'b', 'c', 'd']) await answers.answer(query(term));
    expect(answers.state().entries).toBe(2);
    expect(answers.state().bytes).toBeLessThanOrEqual(1000);
  });

  it('never answers with data older than the catalogue as committed when the request arrived', async () => {
    // Writes, requests, version reads and searches interleaved in every order fast-check finds.
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.oneof(fc.constant<'write'>('write'), fc.constant<'ask'>('ask')), { minLength: 1, maxLength: 12 }),
        async (s, steps) => {
          const catalogue = fakeCatalogue();
          catalogue.write('drill', 0);
          const answers = createSearchAnswers({
            // Shared among concurrent requests, as the app reads it from PostgreSQL.
            readVersion: createSharedVersionRead(s.scheduleFunction(async () => catalogue.state.version)),
            // A search reads the database as it stands when it runs, and says which version that was.
            compute: s.scheduleFunction(async (_q: SearchQuery) => ({
              asOf: catalogue.state.version,
              value: catalogue.state.values.get('drill'),
            })),
            sizeOf: () => 100,
          });
          const asked: Promise<void>[] = [];
          let written = 0;
          for (const step of steps) {
            if (step === 'write') {
              s.schedule(Promise.resolve()).then(() => catalogue.write('drill', ++written));
            } else {
              asked.push(
                s.schedule(Promise.resolve()).then(async () => {
                  const committedWhenAsked = catalogue.state.version;
                  const answer = await answers.answer(query('drill'));
                  expect(answer.asOf).toBeGreaterThanOrEqual(committedWhenAsked);
                }),
              );
            }
          }
          await s.waitFor(Promise.all(asked));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('createSharedVersionRead', () => {
  it('shares one read among the requests waiting, and never gives a request a read begun before it arrived', async () => {
    const pending: { resolve: (version: number) => void; startedAt: number }[] = [];
    let clock = 0;
    const read = createSharedVersionRead(
      () =>
        new Promise<number>((resolve) => {
          pending.push({ resolve, startedAt: clock });
        }),
    );
    clock = 1;
    const first = read();
    clock = 2;
    // Arrives while the first read runs: must wait for a read begun after it.
    const second = read();
    const third = read();
    expect(pending).toHaveLength(1);
    pending[0]!.resolve(10);
    expect(await first).toBe(10);
    await Promise.resolve();
    await Promise.resolve();
    expect(pending).toHaveLength(2);
    expect(pending[1]!.startedAt).toBe(2);
    pending[1]!.resolve(11);
    expect(await second).toBe(11);
    expect(await third).toBe(11);
  });

  it('lets a failed read fail only the requests that shared it', async () => {
    let calls = 0;
    const read = createSharedVersionRead(async () => {
      calls++;
      if (calls === 1) throw new Error('connection lost');
      return 7;
    });
    const failing = read();
    const waiting = read();
    await expect(failing).rejects.toThrow('connection lost');
    expect(await waiting).toBe(7);
  });
});
