import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryMix } from '../../bench/search.ts';
import type { Suggestion } from '../../contracts/search.ts';
import { autocomplete } from '../../server/domain/search.ts';
import {
  englishLexeme,
  loadSuggestionSnapshot,
  type SuggestionSnapshot,
  suggestFromSnapshot,
} from '../../server/domain/suggestion-index.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * The suggestion index claims to answer every term exactly as the SQL autocomplete does
 * (search.ts): same suggestions, same order. Checked here against the SQL itself on the
 * seeded test catalogue, over what shoppers type (the benchmark's mix), every prefix of
 * catalogue words, model numbers and SKUs as typed in parts, and misspellings.
 */

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

async function rows<T>(shop: TestShop, statement: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await shop.database.db.execute(statement)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

const show = (suggestions: Suggestion[]) => suggestions.map((s) => `${s.type} ${s.referenceId} ${s.value}`);

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`suggestion index on ${kind}`, () => {
    let shop: TestShop;
    let snapshot: SuggestionSnapshot;
    let words: string[];

    beforeAll(async () => {
      shop = await createTestShop(kind);
      snapshot = (await loadSuggestionSnapshot(shop.database.db))!;
      words = (await rows<{ word: string }>(shop, sql`select word from search_words order by word`)).map(
        (row) => row.word,
      );
    });
    afterAll(async () => {
      await shop?.close();
    });

    it('stems and drops stop words as PostgreSQL’s english configuration does', async () => {
      const common =
        'the and too only other own same very should now power tools drilling batteries knives shelves ' +
        'generously skis dying news running cordless grinders measuring';
      const checked = [...new Set([...words, ...words.flatMap((w) => [w.slice(0, 2), w.slice(0, 3), w.slice(0, 5)])])]
        .concat(common.split(' '))
        .filter((word) => word.length > 0);
      const stemmed = await rows<{ word: string; lexeme: string }>(
        shop,
        sql`select w as word, coalesce((ts_lexize('english_stem', w))[1], '') as lexeme
            from unnest(${`{${checked.join(',')}}`}::text[]) as w`,
      );
      expect(stemmed.length).toBe(checked.length);
      const disagreements = stemmed.filter((row) => (englishLexeme(row.word) ?? '') !== row.lexeme);
      expect(disagreements).toEqual([]);
      // Words with digits are numbers to the parser: kept as typed.
      for (const word of ['18v', 'hd853', '2', 'x20mm']) expect(englishLexeme(word)).toBe(word);
    });

    it('answers every term exactly as the SQL autocomplete does', async () => {
      const products = await rows<{ name: string; sku: string }>(
        shop,
        sql`select name, sku from products where is_active order by id`,
      );
      const terms = new Set(queryMix(products).autocomplete.map((path) => decodeURIComponent(path.split('term=')[1]!)));
      // Every prefix of a sample of the catalogue's words: broad, narrow and unknown ones.
      for (const word of words.filter((_, index) => index % 4 === 0)) {
        for (let length = 2; length <= word.length; length++) terms.add(word.slice(0, length));
      }
      // Names and SKUs typed in parts: two and three words, the last one unfinished.
      for (const product of products.filter((_, index) => index % 6 === 0)) {
        const parts = product.name.split(/\s+/);
        for (let start = 0; start + 1 < parts.length; start += 2) {
          const phrase = parts.slice(start, start + 3).join(' ');
          terms.add(phrase);
          terms.add(phrase.slice(0, -2));
        }
        terms.add(product.sku);
        terms.add(product.sku.slice(0, -2).toLowerCase());
      }
      for (const term of ['hamer dril', 'cordles dri', 'voltrx', 'kelvnae', 'the', 'the dr', 'saw s', 'for saw']) {
        terms.add(term);
      }
      expect(terms.size).toBeGreaterThan(400);

      const disagreements: { term: string; index: string[]; sql: string[] }[] = [];
      let answered = 0;
      for (const term of terms) {
        const fromIndex = suggestFromSnapshot(snapshot, term);
        const fromSql = await autocomplete(shop.database.db, term);
        if (fromSql.length > 0) answered++;
        if (JSON.stringify(fromIndex) !== JSON.stringify(fromSql)) {
          disagreements.push({ term, index: show(fromIndex), sql: show(fromSql) });
        }
      }
      expect(disagreements).toEqual([]);
      // Many words live only in descriptions, which suggestions never read; still, a good share
      // of the terms find something, so this is not a comparison of empty lists.
      expect(answered).toBeGreaterThan(terms.size / 3);
    });

    it('answers the route from memory once built, and asks the database only to confirm an empty answer', async () => {
      const { suggestions } = shop.app.services.search;
      await suggestions.whenCurrent();
      const before = suggestions.state();
      expect(before).toMatchObject({ current: true, products: snapshot.ids.length });
      for (const term of ['drill', 'hammer dri', 'voltrex', 'power too']) {
        const answer = await shop.app.inject({ method: 'GET', url: `/api/search/autocomplete?term=${term}` });
        expect(answer.json(), term).toEqual(suggestFromSnapshot(snapshot, term));
      }
      expect(suggestions.state().fromDatabase).toBe(before.fromDatabase);
      const nothing = await shop.app.inject({ method: 'GET', url: '/api/search/autocomplete?term=qqzzxx' });
      expect(nothing.json()).toEqual([]);
      expect(suggestions.state().fromDatabase).toBe(before.fromDatabase + 1);
    });
  });
}
