import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Suggestion } from '../../contracts/search.ts';
import { buildTsQuery, tokenize } from '../../server/domain/search-terms.ts';
import {
  buildSuggestionSnapshot,
  codeMatches,
  createSuggestionIndex,
  englishLexeme,
  packCodeBucket,
  parseTsQuery,
  parseTsVector,
  type SuggestionNamedRow,
  type SuggestionProductRow,
  type SuggestionSnapshot,
  type SuggestionSource,
  suggestFromSnapshot,
} from '../../server/domain/suggestion-index.ts';

/* ---------------- Reading PostgreSQL's text forms ---------------- */

describe('parseTsVector', () => {
  it('reads lexemes, positions and weights (D is written without a letter)', () => {
    expect(parseTsVector("'drill':4A,11B 'hd853':7A 'valu':13C 'x':2")).toEqual({
      lexemes: ['drill', 'hd853', 'valu', 'x'],
      positions: [[(3 << 14) | 4, (2 << 14) | 11], [(3 << 14) | 7], [(1 << 14) | 13], [2]],
    });
  });

  it('reads quoted quotes and backslashes, and lexemes without positions', () => {
    expect(parseTsVector("'it''s':1 'a\\\\b' 'c'")).toEqual({
      lexemes: ["it's", 'a\\b', 'c'],
      positions: [[1], [], []],
    });
    expect(parseTsVector('')).toEqual({ lexemes: [], positions: [] });
  });
});

describe('parseTsQuery reads what buildTsQuery writes', () => {
  it('a word, an irregular plural and a model number written apart', () => {
    expect(parseTsQuery(buildTsQuery(['hammer', 'dri'], { prefixLast: true, weights: 'AB' }))).toEqual({
      kind: 'and',
      children: [
        { kind: 'operand', text: 'hammer', prefix: false, weightMask: 0b1100 },
        { kind: 'operand', text: 'dri', prefix: true, weightMask: 0b1100 },
      ],
    });
    expect(parseTsQuery(buildTsQuery(['knives'], { prefixLast: false }))).toEqual({
      kind: 'or',
      children: [
        { kind: 'operand', text: 'knives', prefix: false, weightMask: 0b1111 },
        { kind: 'operand', text: 'knife', prefix: false, weightMask: 0b1111 },
      ],
    });
    expect(parseTsQuery(buildTsQuery(['vx', 'hd85'], { prefixLast: true }))).toEqual({
      kind: 'or',
      children: [
        {
          kind: 'and',
          children: [
            { kind: 'operand', text: 'vx', prefix: false, weightMask: 0b1111 },
            { kind: 'operand', text: 'hd85', prefix: true, weightMask: 0b1111 },
          ],
        },
        { kind: 'operand', text: 'vxhd85', prefix: true, weightMask: 0b1111 },
      ],
    });
    expect(parseTsQuery('')).toBeNull();
  });
});

describe('englishLexeme', () => {
  it('stems words, drops stop words and keeps words with digits as typed', () => {
    expect(englishLexeme('drills')).toBe('drill');
    expect(englishLexeme('batteries')).toBe('batteri');
    expect(englishLexeme('the')).toBeNull();
    expect(englishLexeme('too')).toBeNull();
    expect(englishLexeme('hd853')).toBe('hd853');
    expect(englishLexeme('18v')).toBe('18v');
  });
});

/* ---------------- A small catalogue, as PostgreSQL would hand it over ---------------- */

interface Listing {
  id: number;
  name: string[];
  brand: number;
  category: number;
  tagLine: string[];
  featured: boolean;
  reviewCount: number;
}

const WEIGHT_LETTER = ['', 'C', 'B', 'A'];

/** search_title_of for words that are already lexemes: name A, brand and category B, tag line C. */
function titleVector(name: string[], brand: string[], category: string[], tagLine: string[]): string {
  const positions = new Map<string, string[]>();
  let at = 0;
  const add = (words: string[], weight: number) => {
    for (const word of words) {
      at++;
      positions.set(word, [...(positions.get(word) ?? []), `${at}${WEIGHT_LETTER[weight]}`]);
    }
  };
  add(name, 3);
  add([...brand, ...category], 2);
  add(tagLine, 1);
  return [...positions.keys()]
    .sort()
    .map((word) => `'${word}':${positions.get(word)!.join(',')}`)
    .join(' ');
}

function plainVector(words: string[]): string {
  const positions = new Map<string, number[]>();
  words.forEach((word, index) => {
    positions.set(word, [...(positions.get(word) ?? []), index + 1]);
  });
  return [...positions.keys()]
    .sort()
    .map((word) => `'${word}':${positions.get(word)!.join(',')}`)
    .join(' ');
}

interface Catalogue {
  brands: string[][];
  categories: string[][];
  listings: Listing[];
  source: SuggestionSource;
}

function catalogueOf(brands: string[][], categories: string[][], listings: Listing[], words: string[]): Catalogue {
  const products: SuggestionProductRow[] = listings.map((listing) => ({
    id: listing.id,
    name: listing.name.join(' '),
    category: categories[listing.category]!.join(' '),
    featured: listing.featured,
    reviewCount: listing.reviewCount,
    title: titleVector(listing.name, brands[listing.brand]!, categories[listing.category]!, listing.tagLine),
    codes: '',
  }));
  const named: SuggestionNamedRow[] = [
    ...brands.map((words, index) => ({
      type: 'Brand' as const,
      id: index + 1,
      value: words.join(' '),
      document: plainVector(words),
    })),
    ...categories.map((words, index) => ({
      type: 'Category' as const,
      id: index + 1,
      value: words.join(' '),
      document: plainVector(words),
    })),
  ];
  return { brands, categories, listings, source: { products, named, words } };
}

/* ---------------- The brute-force answer ---------------- */

const fround = Math.fround;
const RANK_WEIGHTS = [fround(0.1), fround(0.2), fround(0.4), 1];

interface Operand {
  text: string;
  prefix: boolean;
}

type Vector = ReturnType<typeof parseTsVector>;

const covers = (lexeme: string, operand: Operand) =>
  operand.prefix ? lexeme.startsWith(operand.text) : lexeme === operand.text;

/** ts_rank as tsrank.c writes it, over a parsed vector: no index structures. */
function rankOf(vector: Vector, operands: Operand[]): number {
  const unique = [...operands]
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .filter((operand, index, all) => index === 0 || operand.text !== all[index - 1]!.text);
  const matched = (operand: Operand) =>
    vector.lexemes.flatMap((lexeme, index) => (covers(lexeme, operand) ? [vector.positions[index]!] : []));
  if (unique.length < 2) {
    let result = 0;
    for (const operand of unique) {
      for (const positions of matched(operand)) {
        let sum = 0;
        let heaviest = -1;
        let heaviestAt = 0;
        positions.forEach((position, j) => {
          const weight = RANK_WEIGHTS[position >> 14]!;
          sum = fround(sum + fround(weight / ((j + 1) * (j + 1))));
          if (weight > heaviest) [heaviest, heaviestAt] = [weight, j];
        });
        const inner = fround(fround(heaviest + sum) - fround(heaviest / ((heaviestAt + 1) * (heaviestAt + 1))));
        result = fround(result + inner / 1.64493406685);
      }
    }
    return unique.length > 0 ? fround(result / unique.length) : result;
  }
  let result = -1;
  const last: (number[] | null)[] = unique.map(() => null);
  unique.forEach((operand, i) => {
    for (const positions of matched(operand)) {
      last[i] = positions;
      for (let k = 0; k < i; k++) {
        for (const mine of positions) {
          for (const theirs of last[k] ?? []) {
            const distance = Math.abs((mine & 0x3fff) - (theirs & 0x3fff));
            if (distance === 0) continue;
            const closeness =
              distance > 100 ? fround(1e-30) : fround(1 / (1.005 + 0.05 * Math.exp(distance / 1.5 - 2)));
            const weight = fround(
              Math.sqrt(fround(fround(RANK_WEIGHTS[mine >> 14]! * RANK_WEIGHTS[theirs >> 14]!) * closeness)),
            );
            result = result < 0 ? weight : fround(1 - (1 - result) * (1 - weight));
          }
        }
      }
    }
  });
  return result < 0 ? fround(1e-20) : result;
}

interface Row extends Suggestion {
  score: number;
  kind: number;
  featured: boolean;
  reviewCount: number;
}

/**
 * search.ts autocomplete() for plain words (no digits, no irregular plurals), by scanning
 * every product and every brand and category: what the index must answer.
 */
function bruteForce(catalogue: Catalogue, term: string): Suggestion[] {
  if (term.trim().length < 2) return [];
  const typed = tokenize(term);
  const tokens = typed.length > 1 && typed.at(-1)!.length === 1 ? typed.slice(0, -1) : typed;
  const operands = tokens.flatMap((token, index) => {
    const lexeme = englishLexeme(token);
    return lexeme === null ? [] : [{ text: lexeme, prefix: index === tokens.length - 1 }];
  });
  if (operands.length === 0) return [];
  const named: Row[] = catalogue.source.named
    .flatMap((row) => {
      const vector = parseTsVector(row.document);
      if (!operands.every((operand) => vector.lexemes.some((lexeme) => covers(lexeme, operand)))) return [];
      const kind = row.type === 'Brand' ? 0 : 1;
      return [
        {
          type: row.type,
          value: row.value,
          category: row.type,
          referenceId: row.id,
          kind,
          featured: false,
          reviewCount: 0,
          score: 10 + rankOf(vector, operands),
        },
      ];
    })
    .sort((a, b) => b.score - a.score || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, 4);
  const matching = catalogue.source.products
    .filter((row) => {
      const vector = parseTsVector(row.title);
      return operands.every((operand) =>
        vector.lexemes.some(
          (lexeme, index) =>
            covers(lexeme, operand) && vector.positions[index]!.some((position) => position >> 14 >= 2),
        ),
      );
    })
    .sort((a, b) => Number(b.featured) - Number(a.featured) || b.reviewCount - a.reviewCount || a.id - b.id);
  const featured = matching.filter((row) => row.featured).slice(0, 50);
  const others = featured.length < 10 ? matching.filter((row) => !row.featured).slice(0, 50) : [];
  const products: Row[] = [...featured, ...others].map((row) => ({
    type: 'Product',
    value: row.name,
    category: row.category,
    referenceId: row.id,
    kind: 2,
    featured: row.featured,
    reviewCount: row.reviewCount,
    score: rankOf(parseTsVector(row.title), operands),
  }));
  return [...named, ...products]
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.kind - b.kind ||
        Number(b.featured) - Number(a.featured) ||
        b.reviewCount - a.reviewCount ||
        a.value.localeCompare(b.value, 'en-AU'),
    )
    .slice(0, 10)
    .map(({ type, value, category, referenceId }) => ({ type, value, category, referenceId }));
}

/* ---------------- Properties ---------------- */

// Letters without "e" keep clear of the irregular plurals (knives, feet, men …), which the
// brute force leaves out; words are kept only when they are their own stem and no stop word.
const wordArbitrary = fc
  .string({ unit: fc.constantFrom(...'abcdgilmnorstu'), minLength: 2, maxLength: 7 })
  .filter((word) => englishLexeme(word) === word);

const catalogueArbitrary = fc
  .uniqueArray(wordArbitrary, { minLength: 6, maxLength: 24 })
  .chain((vocabulary) => {
    const word = fc.constantFrom(...vocabulary);
    const phrase = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max });
    return fc.record({
      vocabulary: fc.constant(vocabulary),
      brands: fc.array(phrase(1, 2), { minLength: 1, maxLength: 6 }),
      categories: fc.array(phrase(1, 3), { minLength: 1, maxLength: 4 }),
      listings: fc.uniqueArray(
        fc.record({
          id: fc.integer({ min: 1, max: 100_000 }),
          name: phrase(1, 4),
          brand: fc.nat(),
          category: fc.nat(),
          tagLine: phrase(0, 2),
          featured: fc.boolean(),
          reviewCount: fc.integer({ min: 0, max: 6 }),
        }),
        { minLength: 1, maxLength: 150, selector: (listing) => listing.id },
      ),
    });
  })
  .map(({ vocabulary, brands, categories, listings }) =>
    catalogueOf(
      brands,
      categories,
      listings.map((listing) => ({
        ...listing,
        brand: listing.brand % brands.length,
        category: listing.category % categories.length,
      })),
      vocabulary,
    ),
  );

/** What a shopper types: one to three catalogue words, the last one perhaps unfinished. */
function termArbitrary(catalogue: Catalogue) {
  const word = fc.constantFrom(...catalogue.source.words);
  return fc
    .tuple(fc.array(word, { minLength: 0, maxLength: 2 }), word, fc.nat())
    .map(([before, last, cut]) => [...before, last.slice(0, 1 + (cut % last.length))].join(' '));
}

const scenario = catalogueArbitrary.chain((catalogue) =>
  fc.record({
    catalogue: fc.constant(catalogue),
    terms: fc.array(termArbitrary(catalogue), { minLength: 1, maxLength: 8 }),
  }),
);

describe('suggestFromSnapshot', () => {
  it('answers as a brute-force scan of the same catalogue does, order included', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ catalogue, terms }) => {
        const snapshot = await buildSuggestionSnapshot(catalogue.source);
        for (const term of terms) {
          const expected = bruteForce(catalogue, term);
          // An empty scan sends the index on to model numbers and typo corrections: compared where both find something.
          if (expected.length === 0) continue;
          expect(suggestFromSnapshot(snapshot, term), term).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('every product suggested holds each typed word in its name, brand or category, the last as a prefix', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ catalogue, terms }) => {
        const snapshot = await buildSuggestionSnapshot(catalogue.source);
        const byId = new Map(catalogue.listings.map((listing) => [listing.id, listing]));
        for (const term of terms) {
          const tokens = tokenize(term);
          const wanted = tokens.length > 1 && tokens.at(-1)!.length === 1 ? tokens.slice(0, -1) : tokens;
          for (const suggestion of suggestFromSnapshot(snapshot, term)) {
            if (suggestion.type !== 'Product') continue;
            const listing = byId.get(suggestion.referenceId)!;
            const words = [
              ...listing.name,
              ...catalogue.brands[listing.brand]!,
              ...catalogue.categories[listing.category]!,
            ];
            // Typo corrections may replace words: only answers for the words as typed are checked.
            if (bruteForce(catalogue, term).length === 0) continue;
            wanted.forEach((token, index) => {
              const lexeme = englishLexeme(token);
              // A stop word leaves the query, as in PostgreSQL.
              if (lexeme === null) return;
              const found = words.some((word) =>
                index === wanted.length - 1 ? word.startsWith(lexeme) : word === lexeme,
              );
              expect(found, `${term} → ${suggestion.value}`).toBe(true);
            });
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('puts the product whose model number is typed exactly before its neighbours', async () => {
    const product = (id: number, name: string, model: string, reviewCount: number): SuggestionProductRow => ({
      id,
      name,
      category: 'Power Tools',
      featured: false,
      reviewCount,
      title: `'drill':1A 'hd${model}':3A 'vx':2A`,
      codes: `'hd${model}':2 'vx':3 'vxhd${model}':1`,
    });
    const snapshot = await buildSuggestionSnapshot({
      products: [
        product(1, 'Drill VX-HD8531', '8531', 90),
        product(2, 'Drill VX-HD853', '853', 1),
        product(3, 'Drill VX-HD8532', '8532', 50),
      ],
      named: [],
      words: ['drill'],
    });
    for (const term of ['VX-HD853', 'vxhd853', 'vx hd853']) {
      expect(
        suggestFromSnapshot(snapshot, term).map((s) => s.referenceId),
        term,
      ).toEqual([2, 1, 3]);
    }
    // Half a model number: every product it starts, best known first.
    expect(suggestFromSnapshot(snapshot, 'vxhd85').map((s) => s.referenceId)).toEqual([1, 3, 2]);
  });
});

describe('code buckets', () => {
  // What follows a code's three-character key: 'simple' lexemes hold no whitespace.
  const rest = fc.string({ unit: fc.constantFrom('a', 'b', '1', '-', 'é'), maxLength: 6 });

  it('match exactly as startsWith and === on each code did, empty and longest codes included', () => {
    fc.assert(
      fc.property(fc.array(rest, { maxLength: 8 }), rest, (rests, query) => {
        const bucket = packCodeBucket(
          rests,
          Int32Array.from(rests, (_, index) => index),
        );
        rests.forEach((code, index) => {
          expect(codeMatches(bucket, index, query, false)).toBe(code.startsWith(query));
          expect(codeMatches(bucket, index, query, true)).toBe(code === query);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('a three-character code is the whole key: every code matches its empty rest, only it matches whole', () => {
    const bucket = packCodeBucket(['', 'd12', ''], Int32Array.of(5, 6, 7));
    expect([0, 1, 2].map((index) => codeMatches(bucket, index, '', false))).toEqual([true, true, true]);
    expect([0, 1, 2].map((index) => codeMatches(bucket, index, '', true))).toEqual([true, false, true]);
    // A query longer than a code does not run on into the next one.
    expect(codeMatches(bucket, 0, 'd12', false)).toBe(false);
    expect(codeMatches(bucket, 1, 'd123', false)).toBe(false);
  });
});

/* ---------------- Keeping the index current ---------------- */

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('createSuggestionIndex', () => {
  const source = catalogueOf(
    [['voltrex']],
    [['power', 'tools']],
    [{ id: 7, name: ['voltrex', 'drill'], brand: 0, category: 0, tagLine: [], featured: true, reviewCount: 3 }],
    ['voltrex', 'drill', 'power', 'tools'],
  ).source;

  /** An index whose builds the test finishes by hand, counting what the database is asked. */
  function harness(cacheSize?: number, afterBuild?: () => void) {
    const loads: ReturnType<typeof deferred<SuggestionSnapshot | null>>[] = [];
    const asked: string[] = [];
    const index = createSuggestionIndex({
      ...(cacheSize ? { cacheSize } : {}),
      ...(afterBuild ? { afterBuild } : {}),
      load: () => {
        const load = deferred<SuggestionSnapshot | null>();
        loads.push(load);
        return load.promise;
      },
      fallback: async (term) => {
        asked.push(term);
        return [{ type: 'Product', value: 'from the database', category: 'SQL', referenceId: 0 }];
      },
      debounceMs: 5,
      retryMs: 20,
    });
    return { index, loads, asked };
  }
  const tick = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

  it('asks the database until the first build is in, then answers from memory', async () => {
    const { index, loads, asked } = harness();
    index.start();
    expect(loads).toHaveLength(1);
    expect((await index.suggest('drill'))[0]?.value).toBe('from the database');
    loads[0]!.resolve(await buildSuggestionSnapshot(source));
    await index.whenCurrent();
    expect((await index.suggest('dri'))[0]).toMatchObject({ type: 'Product', referenceId: 7 });
    expect(asked).toEqual(['drill']);
    // Too short or no words at all: nobody is asked.
    expect(await index.suggest(' d ')).toEqual([]);
    expect(await index.suggest('--')).toEqual([]);
    // An empty answer is confirmed by the database (a product written behind the domain's back).
    await index.suggest('qqzzxx');
    expect(asked).toEqual(['drill', 'qqzzxx']);
    expect(index.state()).toMatchObject({ products: 1, builds: 1, current: true, fromDatabase: 2 });
    await index.close();
  });

  it('asks the database from a change until the rebuild is in, and coalesces a burst into one rebuild', async () => {
    const { index, loads, asked } = harness();
    index.start();
    loads[0]!.resolve(await buildSuggestionSnapshot(source));
    await index.whenCurrent();

    index.catalogChanged({ everything: true });
    expect(index.state().current).toBe(false);
    await index.suggest('drill');
    expect(asked).toEqual(['drill']);
    await tick();
    expect(loads).toHaveLength(2);
    // More changes while that build reads: it may have missed them, so exactly one more follows.
    index.catalogChanged({ everything: true });
    index.catalogChanged({ everything: true });
    index.catalogChanged({ everything: true });
    await tick();
    expect(loads).toHaveLength(2);
    loads[1]!.resolve(await buildSuggestionSnapshot(source));
    await tick();
    expect(index.state().current).toBe(false);
    expect(loads).toHaveLength(3);
    loads[2]!.resolve(await buildSuggestionSnapshot(source));
    await index.whenCurrent();
    expect(index.state()).toMatchObject({ builds: 3, current: true });
    await index.suggest('drill');
    expect(asked).toEqual(['drill']);
    await index.close();
  });

  it('keeps its snapshot through a stock change: suggestions show no stock', async () => {
    const { index, loads, asked } = harness();
    index.start();
    loads[0]!.resolve(await buildSuggestionSnapshot(source));
    await index.whenCurrent();
    index.catalogChanged({ productIds: [7] });
    await tick();
    expect(loads).toHaveLength(1);
    expect(index.state().current).toBe(true);
    await index.suggest('voltrex');
    expect(asked).toEqual([]);
    await index.close();
  });

  it('rebuilds on its timer only when the catalogue version moved since its snapshot was read', async () => {
    // Every write moves the version, the domain's or a SQL console's (stock alone does not): a
    // rebuild at 100,000 products costs seconds of the main thread and a few hundred MB of heap,
    // which every five minutes stalled the soak for nothing.
    let version: number | Error = 4;
    const loads: ReturnType<typeof deferred<SuggestionSnapshot | null>>[] = [];
    const index = createSuggestionIndex({
      load: () => {
        const load = deferred<SuggestionSnapshot | null>();
        loads.push(load);
        return load.promise;
      },
      fallback: async () => [],
      refreshMs: 20,
      version: async () => {
        if (version instanceof Error) throw version;
        return version;
      },
    });
    index.start();
    await tick(5);
    loads[0]!.resolve(await buildSuggestionSnapshot(source));
    await index.whenCurrent();
    await tick(120);
    expect(loads).toHaveLength(1);
    version = 5;
    await tick(60);
    expect(loads).toHaveLength(2);
    loads[1]!.resolve(await buildSuggestionSnapshot(source));
    await tick(120);
    expect(loads).toHaveLength(2);
    // A version that cannot be read proves nothing: the timer rebuilds.
    version = new Error('connection refused');
    await tick(60);
    expect(loads).toHaveLength(3);
    loads[2]!.resolve(null);
    await index.close();
  });

  it('keeps asking the database after a failed build, and tries again', async () => {
    const { index, loads, asked } = harness();
    const warnings: string[] = [];
    index.start({ warn: (_object, message) => warnings.push(message) });
    loads[0]!.reject(new Error('connection refused'));
    await tick(5);
    expect(warnings).toHaveLength(1);
    await index.suggest('drill');
    expect(asked).toEqual(['drill']);
    await tick(40);
    expect(loads).toHaveLength(2);
    loads[1]!.resolve(await buildSuggestionSnapshot(source));
    await index.whenCurrent();
    expect(index.state().current).toBe(true);
    await index.close();
  });

  it('calls afterBuild once per snapshot taken in, when it already answers, and not for a failed build', async () => {
    const seen: { builds: number; current: boolean }[] = [];
    const { index, loads } = harness(undefined, () => {
      const { builds, current } = index.state();
      seen.push({ builds, current });
    });
    index.start({ warn: () => {} });
    loads[0]!.reject(new Error('connection refused'));
    await tick(40);
    expect(seen).toEqual([]);
    loads[1]!.resolve(await buildSuggestionSnapshot(source));
    await index.whenCurrent();
    expect(seen).toEqual([{ builds: 1, current: true }]);
    index.catalogChanged({ everything: true });
    await tick();
    // A build given up (the index closing) takes nothing in.
    loads[2]!.resolve(null);
    await tick();
    expect(seen).toHaveLength(1);
    loads[3]!.resolve(await buildSuggestionSnapshot(source));
    await index.whenCurrent();
    expect(seen).toEqual([
      { builds: 1, current: true },
      { builds: 2, current: true },
    ]);
    await index.close();
  });

  it('keeps recent answers per snapshot, by the words they were made for', async () => {
    const { index, loads } = harness(2);
    index.start();
    loads[0]!.resolve(await buildSuggestionSnapshot(source));
    await index.whenCurrent();
    const drill = await index.suggest('drill');
    expect(drill[0]).toMatchObject({ referenceId: 7 });
    // The same words however typed, and a lone letter after them: the same answer, not a new one.
    expect(await index.suggest('  DRILL ')).toBe(drill);
    expect(await index.suggest('drill d')).toBe(drill);
    expect(Object.isFrozen(drill)).toBe(true);
    // Two answers are kept here: asking two others drops "drill".
    await index.suggest('voltrex');
    await index.suggest('power');
    const again = await index.suggest('drill');
    expect(again).not.toBe(drill);
    expect(again).toEqual(drill);

    // A new snapshot answers for itself: the product renamed there is no longer a "drill".
    index.catalogChanged({ everything: true });
    await tick();
    const renamed = catalogueOf(
      [['voltrex']],
      [['power', 'tools']],
      [{ id: 7, name: ['voltrex', 'driver'], brand: 0, category: 0, tagLine: [], featured: true, reviewCount: 3 }],
      ['voltrex', 'driver', 'power', 'tools'],
    ).source;
    loads[1]!.resolve(await buildSuggestionSnapshot(renamed));
    await index.whenCurrent();
    expect((await index.suggest('dri'))[0]).toMatchObject({ value: 'voltrex driver' });
    await index.close();
  });

  it('builds nothing more once closed', async () => {
    const { index, loads } = harness();
    index.start();
    const closing = index.close();
    loads[0]!.resolve(await buildSuggestionSnapshot(source));
    await closing;
    index.catalogChanged({ everything: true });
    await tick();
    expect(loads).toHaveLength(1);
    expect(index.state().products).toBeNull();
  });
});
