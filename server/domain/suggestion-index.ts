import { sql } from 'drizzle-orm';
import { stem } from 'porter2';
import { MAX_SUGGESTIONS, type Suggestion } from '../../contracts/search.ts';
import { MIN_SUGGESTION_TERM_LENGTH } from '../../contracts/search-links.ts';
import type { Database } from '../../db/client.ts';
import type { CatalogChange } from './catalog-events.ts';
import { buildTsQuery, chooseCorrection, compactModelNumber, maxEditsFor, tokenize } from './search-terms.ts';

/*
 * Autocomplete answered from memory. The SQL autocomplete (search.ts) runs two to four
 * full-text statements per keystroke; this index reads the same search data once
 * (`product_search.title` and `.codes`, `search_suggestions`, `search_words`, all kept by
 * the triggers of migration 0004) and answers every keystroke in process.
 *
 * It answers exactly as the SQL does, step for step: the same tsquery (built by
 * buildTsQuery and read back here), the same stemming and stop words as PostgreSQL's
 * 'english' configuration, matching on the title's A and B weights, the 50 best-known
 * matches ranked by a port of ts_rank (float4 arithmetic included, so ties fall the same
 * way), exact model numbers first, then the model-number attempt and the typo correction
 * with pg_trgm's candidate list. Reading the tsvectors PostgreSQL wrote, rather than
 * indexing the raw text again, keeps one definition of a product's words: the migration's.
 *
 * The structure is purpose-built (see docs/decisions.md, "Search at scale"): products are
 * numbered best-known first, so every posting list is already in the order the dropdown
 * wants and a query walks the shortest list and stops after the first 50 matches.
 */

/* ---------------- PostgreSQL's text search, as far as suggestions use it ---------------- */

/** PostgreSQL's english.stop (Snowball's list): to_tsquery('english', …) drops these words. */
const ENGLISH_STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers ' +
    'herself it its itself they them their theirs themselves what which who whom this that these those am is are ' +
    'was were be been being have has had having do does did doing a an the and but if or because as until while ' +
    'of at by for with about against between into through during before after above below to from up down in out ' +
    'on off over under again further then once here there when where why how all any both each few more most ' +
    'other some such no nor not only own same so than too very s t can will just don should now'
  ).split(' '),
);

/**
 * A query word as to_tsquery('english') stores it: words holding a digit are numbers to the
 * parser and go through the 'simple' dictionary unchanged; other words are stop words (null)
 * or stemmed with Snowball's English stemmer, which `porter2` implements.
 */
export function englishLexeme(word: string): string | null {
  if (/\d/.test(word)) return word;
  if (ENGLISH_STOP_WORDS.has(word)) return null;
  return stem(word);
}

/** PostgreSQL's WordEntryPos: the weight (D 0 … A 3) in the top two bits, the position below. */
const WEIGHT_SHIFT = 14;
const POSITION_MASK = (1 << WEIGHT_SHIFT) - 1;
const WEIGHT_OF_LETTER: Record<string, number> = { A: 3, B: 2, C: 1, D: 0 };
/** ts_rank's default weights {D, C, B, A}, as the float4 values PostgreSQL multiplies. */
const RANK_WEIGHTS = [Math.fround(0.1), Math.fround(0.2), Math.fround(0.4), 1];

interface ParsedVector {
  lexemes: string[];
  /** Per lexeme, its positions as WordEntryPos values. */
  positions: number[][];
}

/** Reads a tsvector's text form ('drill':4A,11B 'hd853':7A …). Lexemes come sorted, as PostgreSQL keeps them. */
export function parseTsVector(text: string): ParsedVector {
  const lexemes: string[] = [];
  const positions: number[][] = [];
  let index = 0;
  while (index < text.length) {
    if (text[index] !== "'") {
      index++;
      continue;
    }
    // Slices between escapes: most lexemes have none, and a slice is cheaper than a char at a time.
    let lexeme = '';
    index++;
    let from = index;
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code === 92) {
        lexeme += text.slice(from, index) + (text[index + 1] ?? '');
        index += 2;
        from = index;
      } else if (code === 39) {
        if (text.charCodeAt(index + 1) === 39) {
          lexeme += `${text.slice(from, index)}'`;
          index += 2;
          from = index;
        } else {
          lexeme += text.slice(from, index);
          index++;
          break;
        }
      } else {
        index++;
      }
    }
    const found: number[] = [];
    if (text[index] === ':') {
      index++;
      while (index < text.length && text[index] !== ' ') {
        let position = 0;
        while (index < text.length && text.charCodeAt(index) >= 48 && text.charCodeAt(index) <= 57) {
          position = position * 10 + text.charCodeAt(index) - 48;
          index++;
        }
        let weight = 0;
        const letter = text[index];
        if (letter !== undefined && letter in WEIGHT_OF_LETTER) {
          weight = WEIGHT_OF_LETTER[letter]!;
          index++;
        }
        found.push((weight << WEIGHT_SHIFT) | position);
        if (text[index] === ',') index++;
      }
    }
    lexemes.push(lexeme);
    positions.push(found);
  }
  return { lexemes, positions };
}

type QueryNode =
  | { kind: 'and' | 'or'; children: QueryNode[] }
  | { kind: 'operand'; text: string; prefix: boolean; weightMask: number };

/** Which weights an operand's `:AB`-style flags accept, as a mask of (1 << weight); no letters means all. */
function weightMaskOf(letters: string): number {
  if (letters === '') return 0b1111;
  let mask = 0;
  for (const letter of letters) mask |= 1 << WEIGHT_OF_LETTER[letter]!;
  return mask;
}

/**
 * Reads back the query text buildTsQuery writes for to_tsquery (operands, &, |,
 * parentheses), so the index answers the very query the SQL sends.
 */
export function parseTsQuery(text: string): QueryNode | null {
  let index = 0;
  const skipSpaces = () => {
    while (text[index] === ' ') index++;
  };
  const primary = (): QueryNode | null => {
    skipSpaces();
    if (text[index] === '(') {
      index++;
      const inner = either();
      skipSpaces();
      index++; // ')'
      return inner;
    }
    if (text[index] !== "'") return null;
    const close = text.indexOf("'", index + 1);
    const word = text.slice(index + 1, close);
    index = close + 1;
    let prefix = false;
    let letters = '';
    if (text[index] === ':') {
      index++;
      while (index < text.length && /[*A-D]/.test(text[index]!)) {
        if (text[index] === '*') prefix = true;
        else letters += text[index];
        index++;
      }
    }
    return { kind: 'operand', text: word, prefix, weightMask: weightMaskOf(letters) };
  };
  const both = (): QueryNode | null => {
    const children: QueryNode[] = [];
    const first = primary();
    if (first) children.push(first);
    skipSpaces();
    while (text[index] === '&') {
      index++;
      const next = primary();
      if (next) children.push(next);
      skipSpaces();
    }
    return children.length === 1 ? children[0]! : { kind: 'and', children };
  };
  const either = (): QueryNode | null => {
    const children: QueryNode[] = [];
    const first = both();
    if (first) children.push(first);
    skipSpaces();
    while (text[index] === '|') {
      index++;
      const next = both();
      if (next) children.push(next);
      skipSpaces();
    }
    return children.length === 1 ? children[0]! : { kind: 'or', children };
  };
  return text.trim() === '' ? null : either();
}

/**
 * Normalises every operand as to_tsquery does with a configuration: a stop word leaves the
 * query (an & or | of it and something keeps the something), and a node left with one
 * child is that child. Null when nothing is left: PostgreSQL's empty query matches nothing.
 */
function normalizeQuery(node: QueryNode | null, lexemeOf: (word: string) => string | null): QueryNode | null {
  if (!node) return null;
  if (node.kind === 'operand') {
    const lexeme = lexemeOf(node.text);
    return lexeme === null ? null : { ...node, text: lexeme };
  }
  const children = node.children
    .map((child) => normalizeQuery(child, lexemeOf))
    .filter((child): child is QueryNode => child !== null);
  if (children.length === 0) return null;
  return children.length === 1 ? children[0]! : { kind: node.kind, children };
}

/** PostgreSQL's tsCompareString order: bytes, a shorter word before its longer form. */
function compareLexemes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/* ---------------- Vectors in flat arrays ---------------- */

/**
 * Many tsvectors in typed arrays: one sorted lexicon, and per document its entries
 * (lexicon ids, ascending as in the tsvector) with their positions.
 */
interface VectorStore {
  terms: string[];
  docStart: Int32Array;
  entryTerm: Int32Array;
  /** Bit (1 << weight) for each weight among the entry's positions, to match `:AB` operands. */
  entryWeights: Uint8Array;
  entryPositionStart: Int32Array;
  positions: Uint16Array;
}

/** A query operand resolved against one store: the lexicon ids it covers, [from, to). */
interface BoundOperand {
  text: string;
  prefix: boolean;
  weightMask: number;
  from: number;
  to: number;
}

type BoundNode = { kind: 'and' | 'or'; children: BoundNode[] } | ({ kind: 'operand' } & BoundOperand);

/** First index in the sorted list whose word is not below `word`. */
function lowerBound(terms: readonly string[], word: string): number {
  let low = 0;
  let high = terms.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (terms[middle]! < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The lexicon ids an operand covers: the word itself, or every word it begins. */
function termRange(terms: readonly string[], text: string, prefix: boolean): [number, number] {
  const from = lowerBound(terms, text);
  if (!prefix) return terms[from] === text ? [from, from + 1] : [from, from];
  let to = from;
  // Lexicon ids of a prefix are contiguous; a gallop then a binary search finds the end.
  let step = 1;
  while (to + step <= terms.length && terms[to + step - 1]!.startsWith(text)) {
    to += step;
    step *= 2;
  }
  let high = Math.min(terms.length, to + step);
  while (to < high) {
    const middle = (to + high) >>> 1;
    if (terms[middle]!.startsWith(text)) to = middle + 1;
    else high = middle;
  }
  return [from, to];
}

function bind(node: QueryNode, terms: readonly string[]): BoundNode {
  if (node.kind !== 'operand') return { kind: node.kind, children: node.children.map((child) => bind(child, terms)) };
  const [from, to] = termRange(terms, node.text, node.prefix);
  return { ...node, from, to };
}

/** The document's first entry at or after lexicon id `term`. */
function entryAtOrAfter(store: VectorStore, doc: number, term: number): number {
  let low = store.docStart[doc]!;
  let high = store.docStart[doc + 1]!;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (store.entryTerm[middle]! < term) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether the document holds a word the operand covers, with a weight the operand accepts. */
function docHasOperand(store: VectorStore, doc: number, operand: BoundOperand): boolean {
  if (operand.from === operand.to) return false;
  const end = store.docStart[doc + 1]!;
  for (let entry = entryAtOrAfter(store, doc, operand.from); entry < end; entry++) {
    if (store.entryTerm[entry]! >= operand.to) return false;
    if (store.entryWeights[entry]! & operand.weightMask) return true;
  }
  return false;
}

/** tsvector @@ tsquery for one document. */
function docMatches(store: VectorStore, doc: number, node: BoundNode): boolean {
  if (node.kind === 'operand') return docHasOperand(store, doc, node);
  if (node.kind === 'and') return node.children.every((child) => docMatches(store, doc, child));
  return node.children.some((child) => docMatches(store, doc, child));
}

/* ---------------- ts_rank, ported ---------------- */

const fround = Math.fround;

/** tsrank.c word_distance: the weight of two words `distance` apart. */
function wordDistance(distance: number): number {
  if (distance > 100) return fround(1e-30);
  return fround(1.0 / (1.005 + 0.05 * Math.exp(distance / 1.5 - 2)));
}

interface RankQuery {
  /** The query's root is an AND (ts_rank then weighs how close the words stand). */
  rootIsAnd: boolean;
  /** Distinct operands in PostgreSQL's order (SortAndUniqItems). */
  operands: BoundOperand[];
}

function rankQuery(node: BoundNode): RankQuery {
  const leaves = (at: BoundNode): BoundOperand[] => (at.kind === 'operand' ? [at] : at.children.flatMap(leaves));
  const sorted = leaves(node).sort((a, b) => compareLexemes(a.text, b.text));
  const operands = sorted.filter((operand, index) => index === 0 || operand.text !== sorted[index - 1]!.text);
  return { rootIsAnd: node.kind === 'and', operands };
}

/** The entries of `doc` an operand ranks over: every covered word, whatever its weight (ts_rank ignores `:AB`). */
function rankedEntries(store: VectorStore, doc: number, operand: BoundOperand): [number, number] {
  if (operand.from === operand.to) return [0, 0];
  const first = entryAtOrAfter(store, doc, operand.from);
  let last = first;
  const end = store.docStart[doc + 1]!;
  while (last < end && store.entryTerm[last]! < operand.to) last++;
  return [first, last];
}

function rankOr(store: VectorStore, doc: number, operands: readonly BoundOperand[]): number {
  let result = 0;
  for (const operand of operands) {
    const [first, last] = rankedEntries(store, doc, operand);
    for (let entry = first; entry < last; entry++) {
      let sum = 0;
      let heaviest = -1;
      let heaviestAt = 0;
      const start = store.entryPositionStart[entry]!;
      const count = store.entryPositionStart[entry + 1]! - start;
      for (let j = 0; j < count; j++) {
        const weight = RANK_WEIGHTS[store.positions[start + j]! >> WEIGHT_SHIFT]!;
        sum = fround(sum + fround(weight / ((j + 1) * (j + 1))));
        if (weight > heaviest) {
          heaviest = weight;
          heaviestAt = j;
        }
      }
      const inner = fround(fround(heaviest + sum) - fround(heaviest / ((heaviestAt + 1) * (heaviestAt + 1))));
      result = fround(result + inner / 1.64493406685);
    }
  }
  return operands.length > 0 ? fround(result / operands.length) : result;
}

function rankAnd(store: VectorStore, doc: number, operands: readonly BoundOperand[]): number {
  if (operands.length < 2) return rankOr(store, doc, operands);
  let result = -1;
  // As in tsrank.c, each operand remembers the positions of the last word it matched.
  const seen: (number[] | null)[] = operands.map(() => null);
  operands.forEach((operand, i) => {
    const [first, last] = rankedEntries(store, doc, operand);
    for (let entry = first; entry < last; entry++) {
      const here: number[] = [];
      for (let at = store.entryPositionStart[entry]!; at < store.entryPositionStart[entry + 1]!; at++) {
        here.push(store.positions[at]!);
      }
      seen[i] = here;
      for (let k = 0; k < i; k++) {
        const before = seen[k];
        if (!before) continue;
        for (const mine of here) {
          for (const theirs of before) {
            const distance = Math.abs((mine & POSITION_MASK) - (theirs & POSITION_MASK));
            if (distance === 0) continue;
            const product = fround(
              fround(RANK_WEIGHTS[mine >> WEIGHT_SHIFT]! * RANK_WEIGHTS[theirs >> WEIGHT_SHIFT]!) *
                wordDistance(distance),
            );
            const weight = fround(Math.sqrt(product));
            result = result < 0 ? weight : fround(1.0 - (1.0 - result) * (1.0 - weight));
          }
        }
      }
    }
  });
  return result;
}

/** ts_rank(vector, query) with the default weights and no normalisation. */
function tsRank(store: VectorStore, doc: number, query: RankQuery | null): number {
  if (!query || query.operands.length === 0 || store.docStart[doc] === store.docStart[doc + 1]) return 0;
  const result = query.rootIsAnd ? rankAnd(store, doc, query.operands) : rankOr(store, doc, query.operands);
  return result < 0 ? fround(1e-20) : result;
}

/* ---------------- pg_trgm, for the typo candidates ---------------- */

/** pg_trgm's trigrams of one word: padded with two spaces before and one after, each counted once. */
function trigramsOf(word: string): string[] {
  const chars = [' ', ' ', ...word, ' '];
  const found = new Set<string>();
  for (let index = 0; index + 2 < chars.length; index++)
    found.add(chars[index]! + chars[index + 1]! + chars[index + 2]!);
  return [...found].sort();
}

/** pg_trgm similarity(): shared trigrams over all trigrams, as a float4. */
function trigramSimilarity(a: readonly string[], b: readonly string[]): number {
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! === b[j]!) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return fround(shared / (a.length + b.length - shared));
}

/** pg_trgm.similarity_threshold's default, what `word % token` compares with. */
const SIMILARITY_THRESHOLD = 0.3;
/** The SQL's candidate list per word: the closest 200 by similarity. */
const CORRECTION_CANDIDATES = 200;

/* ---------------- The snapshot ---------------- */

/** Brands and categories shown at most in the dropdown (search.ts). */
const MAX_NAMED_SUGGESTIONS = 4;
/** Popular matches ranked by relevance (search.ts). */
const SUGGESTION_CANDIDATES = 50;
/** A code query needs this many characters, so shorter codes are never looked up. */
const CODE_KEY_LENGTH = 3;

/** One row of the catalogue as the index reads it. */
export interface SuggestionProductRow {
  id: number;
  name: string;
  category: string;
  featured: boolean;
  reviewCount: number;
  /** product_search.title as text (name A; brand, category, subcategory B; tag line C). */
  title: string;
  /** product_search.codes as text (model numbers and SKUs, 'simple' configuration). */
  codes: string;
}

export interface SuggestionNamedRow {
  type: 'Brand' | 'Category';
  id: number;
  value: string;
  /** search_suggestions.document as text. */
  document: string;
}

/** Everything a snapshot holds, for building one without a database (tests, benchmarks). */
export interface SuggestionSource {
  products: SuggestionProductRow[];
  named: SuggestionNamedRow[];
  /** search_words: the vocabulary typos are corrected towards. */
  words: string[];
}

export interface SuggestionSnapshot {
  /** Products best known first: featured, then most reviewed, then by id (the SQL's order). */
  ids: Int32Array;
  names: string[];
  categories: string[];
  featured: Uint8Array;
  reviewCounts: Int32Array;
  /** How many products are featured: they hold the numbers 0 … featuredCount - 1. */
  featuredCount: number;
  titles: VectorStore;
  /** Per title word, the products holding it with weight A or B, ascending (best known first). */
  postingStart: Int32Array;
  postings: Int32Array;
  /** Model numbers and SKUs by their first three characters: each code and its product. */
  codes: Map<string, CodeBucket>;
  named: { rows: SuggestionNamedRow[]; vectors: VectorStore };
  vocabulary: { words: string[]; trigrams: string[][] };
}

/**
 * The codes that begin with one three-character key, without it, in one string: each code's
 * other characters followed by a newline ('simple' lexemes never hold whitespace), `starts`
 * saying where each begins. At 100,000 products a string per code took 15 MB of heap; this
 * takes 4.
 */
export interface CodeBucket {
  rests: string;
  starts: Int32Array;
  products: Int32Array;
}

/** One bucket from each code's characters after the key and its product. */
export function packCodeBucket(rests: readonly string[], products: Int32Array): CodeBucket {
  const starts = new Int32Array(rests.length + 1);
  rests.forEach((rest, index) => {
    starts[index + 1] = starts[index]! + rest.length + 1;
  });
  return { rests: `${rests.join('\n')}\n`, starts, products };
}

/** Whether the code at `index` of the bucket begins with (or, `whole`, is) the key followed by `rest`. */
export function codeMatches(bucket: CodeBucket, index: number, rest: string, whole: boolean): boolean {
  const start = bucket.starts[index]!;
  if (whole && bucket.starts[index + 1]! - 1 - start !== rest.length) return false;
  // `rest` holds no newline, so a match cannot run on into the next code.
  return bucket.rests.startsWith(rest, start);
}

/** Grows while rows are read, then becomes a snapshot. */
class SnapshotBuilder {
  private readonly termIds = new Map<string, number>();
  private readonly products: {
    id: number;
    name: string;
    category: string;
    featured: boolean;
    reviewCount: number;
  }[] = [];
  private readonly docStart: number[] = [0];
  private readonly entryTerm: number[] = [];
  private readonly entryWeights: number[] = [];
  private readonly entryPositionStart: number[] = [0];
  private readonly positions: number[] = [];
  private readonly codeKeys = new Map<string, { rests: string[]; products: number[] }>();
  private readonly categoryNames = new Map<string, string>();

  addProducts(rows: readonly SuggestionProductRow[]): void {
    for (const row of rows) {
      const load = this.products.length;
      // Many products share a category: keep one copy of each name.
      const category = this.categoryNames.get(row.category) ?? row.category;
      this.categoryNames.set(category, category);
      this.products.push({
        id: row.id,
        name: row.name,
        category,
        featured: row.featured,
        reviewCount: row.reviewCount,
      });
      const title = parseTsVector(row.title);
      title.lexemes.forEach((lexeme, index) => {
        let term = this.termIds.get(lexeme);
        if (term === undefined) {
          term = this.termIds.size;
          this.termIds.set(lexeme, term);
        }
        this.entryTerm.push(term);
        let weights = 0;
        for (const position of title.positions[index]!) {
          this.positions.push(position);
          weights |= 1 << (position >> WEIGHT_SHIFT);
        }
        this.entryWeights.push(weights);
        this.entryPositionStart.push(this.positions.length);
      });
      this.docStart.push(this.entryTerm.length);
      for (const code of parseTsVector(row.codes).lexemes) {
        if (code.length < CODE_KEY_LENGTH) continue;
        const key = code.slice(0, CODE_KEY_LENGTH);
        let bucket = this.codeKeys.get(key);
        if (!bucket) {
          bucket = { rests: [], products: [] };
          this.codeKeys.set(key, bucket);
        }
        bucket.rests.push(code.slice(CODE_KEY_LENGTH));
        bucket.products.push(load);
      }
    }
  }

  /** The snapshot; `pause` lets a caller yield to the event loop between the slower steps. */
  async finish(named: SuggestionNamedRow[], words: string[], pause: () => Promise<void>): Promise<SuggestionSnapshot> {
    const count = this.products.length;
    // 1. Number products best known first, so posting lists come out in the dropdown's order.
    const order = Array.from({ length: count }, (_, index) => index).sort((a, b) => {
      const x = this.products[a]!;
      const y = this.products[b]!;
      return Number(y.featured) - Number(x.featured) || y.reviewCount - x.reviewCount || x.id - y.id;
    });
    const rankOfLoad = new Int32Array(count);
    order.forEach((load, rank) => {
      rankOfLoad[load] = rank;
    });
    await pause();

    // 2. The lexicon in PostgreSQL's order; ids follow it, so a prefix covers a range of ids.
    const terms = [...this.termIds.keys()].sort(compareLexemes);
    const finalTerm = new Int32Array(terms.length);
    terms.forEach((term, index) => {
      finalTerm[this.termIds.get(term)!] = index;
    });
    await pause();

    // 3. Titles renumbered in product order (entries keep their order: ids are monotonic).
    const docStart = new Int32Array(count + 1);
    const entryTerm = new Int32Array(this.entryTerm.length);
    const entryWeights = new Uint8Array(this.entryTerm.length);
    const entryPositionStart = new Int32Array(this.entryTerm.length + 1);
    const positions = new Uint16Array(this.positions.length);
    let entryAt = 0;
    let positionAt = 0;
    const postingCount = new Int32Array(terms.length + 1);
    for (let rank = 0; rank < count; rank++) {
      const load = order[rank]!;
      docStart[rank] = entryAt;
      for (let entry = this.docStart[load]!; entry < this.docStart[load + 1]!; entry++) {
        const term = finalTerm[this.entryTerm[entry]!]!;
        entryTerm[entryAt] = term;
        entryWeights[entryAt] = this.entryWeights[entry]!;
        entryPositionStart[entryAt] = positionAt;
        for (let at = this.entryPositionStart[entry]!; at < this.entryPositionStart[entry + 1]!; at++) {
          positions[positionAt++] = this.positions[at]!;
        }
        // Suggestions match the name (A) and brand, category and subcategory (B), never the tag line.
        if (this.entryWeights[entry]! & 0b1100) postingCount[term + 1]!++;
        entryAt++;
      }
      if ((rank & 0x3fff) === 0x3fff) await pause();
    }
    docStart[count] = entryAt;
    entryPositionStart[entryAt] = positionAt;

    // 4. Posting lists: counted, then filled in product order, so each is ascending.
    const postingStart = new Int32Array(terms.length + 1);
    for (let term = 0; term < terms.length; term++)
      postingStart[term + 1] = postingStart[term]! + postingCount[term + 1]!;
    const postings = new Int32Array(postingStart[terms.length]!);
    const fill = postingStart.slice(0, terms.length);
    for (let rank = 0; rank < count; rank++) {
      for (let entry = docStart[rank]!; entry < docStart[rank + 1]!; entry++) {
        if (entryWeights[entry]! & 0b1100) postings[fill[entryTerm[entry]!]!++] = rank;
      }
    }
    await pause();

    const codes = new Map<string, CodeBucket>();
    let renumbered = 0;
    for (const [key, bucket] of this.codeKeys) {
      codes.set(
        key,
        packCodeBucket(
          bucket.rests,
          Int32Array.from(bucket.products, (load) => rankOfLoad[load]!),
        ),
      );
      renumbered += bucket.products.length;
      if (renumbered > 100_000) {
        renumbered = 0;
        await pause();
      }
    }
    await pause();
    const vocabulary = [...words].sort(compareLexemes);
    const snapshot: SuggestionSnapshot = {
      ids: Int32Array.from(order, (load) => this.products[load]!.id),
      names: order.map((load) => this.products[load]!.name),
      categories: order.map((load) => this.products[load]!.category),
      featured: Uint8Array.from(order, (load) => (this.products[load]!.featured ? 1 : 0)),
      reviewCounts: Int32Array.from(order, (load) => this.products[load]!.reviewCount),
      featuredCount: this.products.filter((product) => product.featured).length,
      titles: { terms, docStart, entryTerm, entryWeights, entryPositionStart, positions },
      postingStart,
      postings,
      codes,
      named: { rows: named, vectors: vectorStoreOf(named.map((row) => row.document)) },
      vocabulary: { words: vocabulary, trigrams: vocabulary.map(trigramsOf) },
    };
    return snapshot;
  }
}

/** A small store built in one go (the brands and categories). */
function vectorStoreOf(texts: readonly string[]): VectorStore {
  const parsed = texts.map(parseTsVector);
  const terms = [...new Set(parsed.flatMap((vector) => vector.lexemes))].sort(compareLexemes);
  const ids = new Map(terms.map((term, index) => [term, index]));
  const docStart = [0];
  const entryTerm: number[] = [];
  const entryWeights: number[] = [];
  const entryPositionStart = [0];
  const positions: number[] = [];
  for (const vector of parsed) {
    vector.lexemes.forEach((lexeme, index) => {
      entryTerm.push(ids.get(lexeme)!);
      let weights = 0;
      for (const position of vector.positions[index]!) {
        positions.push(position);
        weights |= 1 << (position >> WEIGHT_SHIFT);
      }
      entryWeights.push(weights);
      entryPositionStart.push(positions.length);
    });
    docStart.push(entryTerm.length);
  }
  return {
    terms,
    docStart: Int32Array.from(docStart),
    entryTerm: Int32Array.from(entryTerm),
    entryWeights: Uint8Array.from(entryWeights),
    entryPositionStart: Int32Array.from(entryPositionStart),
    positions: Uint16Array.from(positions),
  };
}

/** Builds a snapshot in one go from rows already in memory. */
export async function buildSuggestionSnapshot(source: SuggestionSource): Promise<SuggestionSnapshot> {
  const builder = new SnapshotBuilder();
  builder.addProducts(source.products);
  return builder.finish(source.named, source.words, async () => {});
}

/* ---------------- Answering ---------------- */

interface Candidate {
  type: Suggestion['type'];
  value: string;
  category: string;
  referenceId: number;
  score: number;
  kind: number;
  featured: boolean;
  reviewCount: number;
}

/** search.ts bySuggestionRank: score, then brands and categories, then best known, then A–Z. */
function bySuggestionRank(a: Candidate, b: Candidate): number {
  return (
    b.score - a.score ||
    a.kind - b.kind ||
    Number(b.featured) - Number(a.featured) ||
    b.reviewCount - a.reviewCount ||
    a.value.localeCompare(b.value, 'en-AU')
  );
}

/** Walks the union of sorted posting lists in ascending order, each product once (a heap of cursors). */
class PostingUnion {
  private readonly heap: { at: number; end: number }[] = [];
  private readonly postings: Int32Array;
  private last = -1;

  constructor(postings: Int32Array, ranges: readonly [number, number][]) {
    this.postings = postings;
    for (const [at, end] of ranges) if (at < end) this.heap.push({ at, end });
    for (let index = (this.heap.length >> 1) - 1; index >= 0; index--) this.down(index);
  }

  /** The next product, or -1 when every list is used up. */
  next(): number {
    while (this.heap.length > 0) {
      const top = this.heap[0]!;
      const value = this.postings[top.at]!;
      top.at++;
      if (top.at >= top.end) {
        const tail = this.heap.pop()!;
        if (this.heap.length > 0) this.heap[0] = tail;
      }
      if (this.heap.length > 0) this.down(0);
      if (value !== this.last) {
        this.last = value;
        return value;
      }
    }
    return -1;
  }

  private down(index: number): void {
    const heap = this.heap;
    const size = heap.length;
    let at = index;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let smallest = at;
      if (left < size && this.postings[heap[left]!.at]! < this.postings[heap[smallest]!.at]!) smallest = left;
      if (right < size && this.postings[heap[right]!.at]! < this.postings[heap[smallest]!.at]!) smallest = right;
      if (smallest === at) return;
      [heap[at], heap[smallest]] = [heap[smallest]!, heap[at]!];
      at = smallest;
    }
  }
}

/**
 * Posting ranges that produce every product a node can match (a superset): an operand
 * gives its words' lists; an OR, all its children's; an AND, its cheapest child's.
 */
function generator(snapshot: SuggestionSnapshot, node: BoundNode): { ranges: [number, number][]; cost: number } {
  if (node.kind === 'operand') {
    const ranges: [number, number][] = [];
    let cost = 0;
    for (let term = node.from; term < node.to; term++) {
      const range: [number, number] = [snapshot.postingStart[term]!, snapshot.postingStart[term + 1]!];
      cost += range[1] - range[0];
      ranges.push(range);
    }
    return { ranges, cost };
  }
  const parts = node.children.map((child) => generator(snapshot, child));
  if (node.kind === 'or') {
    return { ranges: parts.flatMap((part) => part.ranges), cost: parts.reduce((sum, part) => sum + part.cost, 0) };
  }
  return parts.reduce((best, part) => (part.cost < best.cost ? part : best));
}

/**
 * The SQL's candidates: the 50 best-known featured matches, and while fewer than 10
 * featured products match, the 50 best-known others; best known first.
 */
function titleCandidates(snapshot: SuggestionSnapshot, query: BoundNode): number[] {
  const union = new PostingUnion(snapshot.postings, generator(snapshot, query).ranges);
  const found: number[] = [];
  let featured = 0;
  let others = 0;
  for (let rank = union.next(); rank !== -1; rank = union.next()) {
    const isFeatured = rank < snapshot.featuredCount;
    if (!isFeatured && featured >= MAX_SUGGESTIONS) break;
    if (!docMatches(snapshot.titles, rank, query)) continue;
    found.push(rank);
    if (isFeatured) {
      // Fifty featured matches are the whole list: the others only count while fewer than ten are featured.
      if (++featured === SUGGESTION_CANDIDATES) break;
    } else if (++others === SUGGESTION_CANDIDATES) break;
  }
  return found;
}

/** Products whose model numbers or SKUs start with `code`: the 50 best known. */
function codeCandidates(snapshot: SuggestionSnapshot, code: string): number[] {
  const bucket = snapshot.codes.get(code.slice(0, CODE_KEY_LENGTH));
  if (!bucket) return [];
  const rest = code.slice(CODE_KEY_LENGTH);
  const found = new Set<number>();
  for (let index = 0; index < bucket.products.length; index++) {
    if (codeMatches(bucket, index, rest, false)) found.add(bucket.products[index]!);
  }
  return [...found].sort((a, b) => a - b).slice(0, SUGGESTION_CANDIDATES);
}

/** The products that have exactly this model number or SKU among their codes. */
function productsWithCode(snapshot: SuggestionSnapshot, code: string): Set<number> {
  const bucket = snapshot.codes.get(code.slice(0, CODE_KEY_LENGTH));
  const found = new Set<number>();
  if (!bucket) return found;
  const rest = code.slice(CODE_KEY_LENGTH);
  for (let index = 0; index < bucket.products.length; index++) {
    if (codeMatches(bucket, index, rest, true)) found.add(bucket.products[index]!);
  }
  return found;
}

function titleQuery(tokens: readonly string[], weights: 'AB' | undefined): QueryNode | null {
  return normalizeQuery(
    parseTsQuery(buildTsQuery(tokens, { prefixLast: true, ...(weights ? { weights } : {}) })),
    englishLexeme,
  );
}

function productCandidates(
  snapshot: SuggestionSnapshot,
  tokens: readonly string[],
  ranks: readonly number[],
  ranking: RankQuery | null,
): Candidate[] {
  const code = compactModelNumber(tokens);
  const exact = code ? productsWithCode(snapshot, code) : new Set<number>();
  return ranks.map((rank) => ({
    type: 'Product',
    value: snapshot.names[rank]!,
    category: snapshot.categories[rank]!,
    referenceId: snapshot.ids[rank]!,
    score: tsRank(snapshot.titles, rank, ranking) + (exact.has(rank) ? 20 : 0),
    kind: 2,
    featured: snapshot.featured[rank] === 1,
    reviewCount: snapshot.reviewCounts[rank]!,
  }));
}

function toSuggestions(found: Candidate[]): Suggestion[] {
  return found
    .sort(bySuggestionRank)
    .slice(0, MAX_SUGGESTIONS)
    .map((row) => ({ type: row.type, value: row.value, category: row.category, referenceId: row.referenceId }));
}

/** search.ts findSuggestions(…, 'title'): brands and categories, then products, by the title words. */
function suggestByTitle(snapshot: SuggestionSnapshot, tokens: readonly string[]): Suggestion[] {
  const named = titleQuery(tokens, undefined);
  const products = titleQuery(tokens, 'AB');
  const found: Candidate[] = [];
  if (named) {
    const { vectors, rows } = snapshot.named;
    const bound = bind(named, vectors.terms);
    const ranking = rankQuery(bound);
    const matches: Candidate[] = [];
    rows.forEach((row, doc) => {
      if (!docMatches(vectors, doc, bound)) return;
      matches.push({
        type: row.type,
        value: row.value,
        category: row.type,
        referenceId: row.id,
        score: 10 + tsRank(vectors, doc, ranking),
        kind: row.type === 'Brand' ? 0 : 1,
        featured: false,
        reviewCount: 0,
      });
    });
    matches.sort((a, b) => b.score - a.score || compareLexemes(a.value, b.value));
    found.push(...matches.slice(0, MAX_NAMED_SUGGESTIONS));
  }
  if (products) {
    const bound = bind(products, snapshot.titles.terms);
    found.push(...productCandidates(snapshot, tokens, titleCandidates(snapshot, bound), rankQuery(bound)));
  }
  return toSuggestions(found);
}

/** search.ts findSuggestions(…, 'codes'): the whole term as the start of a model number or SKU. */
function suggestByCode(snapshot: SuggestionSnapshot, tokens: readonly string[]): Suggestion[] {
  const ranks = codeCandidates(snapshot, tokens.join(''));
  const products = titleQuery(tokens, 'AB');
  const ranking = products ? rankQuery(bind(products, snapshot.titles.terms)) : null;
  return toSuggestions(productCandidates(snapshot, tokens, ranks, ranking));
}

/** search.ts correctTokens over the snapshot's vocabulary, with pg_trgm's candidate list. */
function correctTokens(snapshot: SuggestionSnapshot, tokens: readonly string[]): string[] | null {
  const { words, trigrams } = snapshot.vocabulary;
  const replacements = new Map<string, string>();
  tokens.forEach((token, index) => {
    if (maxEditsFor(token) === 0 || /\d/.test(token)) return;
    const prefix = index === tokens.length - 1;
    const own = trigramsOf(token);
    const start = token.slice(0, 2);
    const scored: { word: string; similarity: number }[] = [];
    words.forEach((word, at) => {
      const similarity = trigramSimilarity(trigrams[at]!, own);
      if (similarity >= SIMILARITY_THRESHOLD || word.startsWith(start)) scored.push({ word, similarity });
    });
    const candidates = scored
      .sort((a, b) => b.similarity - a.similarity || compareLexemes(a.word, b.word))
      .slice(0, CORRECTION_CANDIDATES)
      .map((candidate) => candidate.word);
    if (candidates.some((word) => word === token || (prefix && word.startsWith(token)))) return;
    const choice = chooseCorrection(token, candidates, { prefix });
    if (choice) replacements.set(token, choice);
  });
  if (replacements.size === 0) return null;
  return tokens.map((token) => replacements.get(token) ?? token);
}

/**
 * The words suggestions are made for (search.ts autocomplete()): none below two characters;
 * a lone letter just typed after a word ("safety b") waits until it grows. Null when there is
 * nothing to suggest for.
 */
function suggestionTokens(term: string): string[] | null {
  if (term.trim().length < MIN_SUGGESTION_TERM_LENGTH) return null;
  const typed = tokenize(term);
  const last = typed.at(-1) ?? '';
  const tokens = typed.length > 1 && last.length === 1 && !/\d/.test(last) ? typed.slice(0, -1) : typed;
  return tokens.length > 0 ? tokens : null;
}

/**
 * search.ts autocomplete() over a snapshot: the same steps and the same answer (see the
 * agreement test in tests/api/suggestion-index.test.ts).
 */
export function suggestFromSnapshot(snapshot: SuggestionSnapshot, term: string): Suggestion[] {
  const tokens = suggestionTokens(term);
  if (!tokens) return [];
  const suggestions = suggestByTitle(snapshot, tokens);
  if (suggestions.length > 0) return suggestions;
  if (compactModelNumber(tokens) || (tokens.join('').length >= 3 && tokens.every((token) => token.length <= 4))) {
    const byCode = suggestByCode(snapshot, tokens);
    if (byCode.length > 0) return byCode;
  }
  const corrected = correctTokens(snapshot, tokens);
  return corrected ? suggestByTitle(snapshot, corrected) : [];
}

/* ---------------- Loading and keeping it current ---------------- */

/**
 * Rows per read: on PGlite a read runs on this thread, so each read and its parsing must stay
 * a few tens of milliseconds for requests to keep flowing during a build (measured at 100,000
 * products: pauses under 80 ms with 1,000 rows, over 100 ms with 2,000).
 */
const PAGE_SIZE = 1000;

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reads the search data page by page (by product id, so no long transaction holds the
 * embedded database) and builds a snapshot, yielding to the event loop between pages.
 * `stopped` is asked between pages so a closing app does not wait for a whole build.
 */
export async function loadSuggestionSnapshot(
  db: Database,
  options: { pageSize?: number; stopped?: () => boolean } = {},
): Promise<SuggestionSnapshot | null> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const builder = new SnapshotBuilder();
  let after = 0;
  for (;;) {
    if (options.stopped?.()) return null;
    const page = rowsOf<{
      id: number;
      name: string;
      category: string;
      featured: boolean;
      review_count: number;
      title: string;
      codes: string;
    }>(
      await db.execute(sql`
        select s.product_id as id, p.name, c.name as category, s.is_featured as featured, s.review_count,
               s.title::text as title, s.codes::text as codes
        from product_search s
        join products p on p.id = s.product_id
        join categories c on c.id = s.category_id
        where s.is_active and s.product_id > ${after}
        order by s.product_id
        limit ${pageSize}`),
    );
    builder.addProducts(
      page.map((row) => ({
        id: row.id,
        name: row.name,
        category: row.category,
        featured: row.featured,
        reviewCount: row.review_count,
        title: row.title,
        codes: row.codes,
      })),
    );
    if (page.length < pageSize) break;
    after = page.at(-1)!.id;
    await yieldToLoop();
  }
  const named = rowsOf<SuggestionNamedRow>(
    await db.execute(sql`
      select type, reference_id as id, value, document::text as document
      from search_suggestions order by type, reference_id`),
  );
  const words = rowsOf<{ word: string }>(await db.execute(sql`select word from search_words`)).map((row) => row.word);
  if (options.stopped?.()) return null;
  return builder.finish(named, words, yieldToLoop);
}

export interface SuggestionIndexOptions {
  /** Reads a fresh snapshot (loadSuggestionSnapshot); null when `stopped` said to give up. */
  load: (stopped: () => boolean) => Promise<SuggestionSnapshot | null>;
  /** The SQL autocomplete, for whenever the index cannot answer for the database. */
  fallback: (term: string) => Promise<Suggestion[]>;
  /** Quiet time after a change before rebuilding, so a burst of changes costs one build. */
  debounceMs?: number;
  /**
   * How often to look for changes nobody announced: writes made outside the domain (a SQL
   * console, a script) send no change, announcements are lost while the LISTEN connection is
   * down, and review counts change by trigger. With `version`, a look rebuilds only when the
   * version moved since the snapshot was read.
   */
  refreshMs?: number;
  /**
   * The catalogue's version (catalog_version: every write to what suggestions read moves it,
   * whoever made it; stock alone does not). Without it every refresh rebuilds.
   */
  version?: () => Promise<number>;
  /** Wait after a failed build before trying again. */
  retryMs?: number;
  /** Answers kept per snapshot (see ANSWER_CACHE_SIZE). */
  cacheSize?: number;
  /**
   * Called once a new snapshot is in and the old one let go: a build at 100,000 products
   * leaves a few hundred MB of heap behind it (the app hands it back, `releaseHeapIfGrown`).
   */
  afterBuild?: () => void;
}

/**
 * Answers kept per snapshot, least recently asked dropped first. Shoppers type the same
 * beginnings ("dr", "dri", "dril"), so most keystrokes are a lookup; a new snapshot starts
 * an empty cache. About 10 MB at a kilobyte and a half per answer.
 */
const ANSWER_CACHE_SIZE = 5000;

export interface SuggestionIndexState {
  /** Products in the snapshot in use, or null before the first build. */
  products: number | null;
  builds: number;
  lastBuildMs: number | null;
  /** The snapshot holds every change announced so far. */
  current: boolean;
  /** Suggestions the SQL answered: before the first build, while a change was taken in, and empty answers. */
  fromDatabase: number;
}

/**
 * The suggestion index of one app process. Answers from memory when its snapshot holds
 * every catalogue change this process has heard of; otherwise (before the first build,
 * and from a change until the rebuild it starts is in) the SQL answers, so suggestions are
 * never staler than the database. An empty answer is confirmed by the SQL too: a product
 * written behind the domain's back, under a word the index has never seen, is found at
 * once, and terms that match nothing are rare among keystrokes.
 *
 * Builds never overlap: changes during a build queue one more, and bursts are coalesced.
 */
export function createSuggestionIndex(options: SuggestionIndexOptions) {
  const debounceMs = options.debounceMs ?? 100;
  const refreshMs = options.refreshMs ?? 5 * 60_000;
  const retryMs = options.retryMs ?? 5_000;
  const cacheSize = options.cacheSize ?? ANSWER_CACHE_SIZE;
  /** The current snapshot's answers by the words they were made for; emptied when a snapshot comes in. */
  const answers = new Map<string, Suggestion[]>();
  let snapshot: { data: SuggestionSnapshot; generation: number; version: number | undefined } | null = null;
  /** Bumped by every change that can alter suggestions; a snapshot is current when it was read after the last one. */
  let generation = 0;
  let building: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let refresher: NodeJS.Timeout | undefined;
  let started = false;
  let closed = false;
  let builds = 0;
  let lastBuildMs: number | null = null;
  let fromDatabase = 0;
  let log: { warn(object: object, message: string): void } = { warn: () => {} };
  const settled = new Set<() => void>();

  const isCurrent = () => snapshot !== null && snapshot.generation === generation;

  function schedule(delayMs: number): void {
    if (closed || !started || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      build();
    }, delayMs);
    timer.unref();
  }

  function build(): void {
    if (closed) return;
    if (building) return;
    const readFrom = generation;
    const startedAt = performance.now();
    let failed = false;
    let readVersion: number | undefined;
    // The version before the rows: a write committed meanwhile moves it past what is read here,
    // so the next refresh rebuilds rather than keeping a snapshot that may have missed it.
    const loaded = options.version
      ? options
          .version()
          .catch(() => undefined)
          .then((version) => {
            readVersion = version;
            return options.load(() => closed);
          })
      : options.load(() => closed);
    building = loaded
      .then((data) => {
        if (!data || closed) return;
        snapshot = { data, generation: readFrom, version: readVersion };
        answers.clear();
        builds++;
        lastBuildMs = Math.round(performance.now() - startedAt);
        try {
          options.afterBuild?.();
        } catch (error) {
          // The snapshot is in: what runs after it must not make the build count as failed.
          log.warn(
            { reason: error instanceof Error ? error.message : String(error) },
            'after the suggestion index build',
          );
        }
      })
      .catch((error: unknown) => {
        failed = true;
        log.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'could not build the suggestion index; suggestions come from the database meanwhile',
        );
      })
      .finally(() => {
        building = null;
        for (const notify of settled) notify();
        settled.clear();
        if (failed) schedule(retryMs);
        // Changes that arrived while reading: one more build takes them all in.
        else if (!isCurrent()) schedule(debounceMs);
      });
  }

  /** The timer's look: a rebuild unless the version is the one the snapshot was read at. */
  function refresh(): void {
    if (closed || building) return;
    if (!options.version || snapshot?.version === undefined) {
      build();
      return;
    }
    options.version().then(
      (version) => {
        if (version !== snapshot?.version) build();
      },
      () => build(),
    );
  }

  return {
    /** Builds the first snapshot in the background; suggestions come from the SQL until it is in. */
    start(logger?: { warn(object: object, message: string): void }): void {
      if (started || closed) return;
      started = true;
      if (logger) log = logger;
      build();
      refresher = setInterval(refresh, refreshMs);
      refresher.unref();
    },

    /**
     * A catalogue change (this process's or another's). A stock change alters nothing a
     * suggestion shows or ranks by, so it keeps the snapshot; anything else makes the SQL
     * answer until a rebuild has read the change.
     */
    catalogChanged(change: CatalogChange): void {
      if ('productIds' in change) return;
      generation++;
      schedule(debounceMs);
    },

    /** Up to 10 suggestions, best first. A cached answer is shared, so it is frozen: read it, never change it. */
    async suggest(term: string): Promise<Suggestion[]> {
      const tokens = suggestionTokens(term);
      if (!tokens) return [];
      if (snapshot && isCurrent()) {
        const key = tokens.join(' ');
        let found = answers.get(key);
        if (found) {
          // Most recently asked last, so the oldest is the first to go.
          answers.delete(key);
        } else {
          found = Object.freeze(suggestFromSnapshot(snapshot.data, term)) as Suggestion[];
          if (answers.size >= cacheSize) answers.delete(answers.keys().next().value!);
        }
        answers.set(key, found);
        if (found.length > 0) return found;
      }
      fromDatabase++;
      return options.fallback(term);
    },

    /** Resolves once the snapshot holds every change so far (tests and benchmarks wait for it). */
    async whenCurrent(): Promise<void> {
      while (!closed && (!isCurrent() || building)) {
        if (!building && !timer) build();
        await new Promise<void>((resolve) => settled.add(resolve));
      }
    },

    state(): SuggestionIndexState {
      return {
        products: snapshot ? snapshot.data.ids.length : null,
        builds,
        lastBuildMs,
        current: isCurrent(),
        fromDatabase,
      };
    },

    async close(): Promise<void> {
      closed = true;
      clearTimeout(timer);
      clearInterval(refresher);
      await building;
      for (const notify of settled) notify();
      settled.clear();
    },
  };
}
