/**
 * How a shopper's words become a PostgreSQL full-text query, and how a misspelt word is
 * corrected. Pure functions: the SQL side (migration 0004) builds the matching documents.
 *
 * The two sides must agree: documents are built from text lower-cased with every run of
 * punctuation turned into a space (`search_clean`), and model numbers are also stored
 * joined (`search_codes`: two or three neighbouring words, one with a digit, the others
 * short letter groups). A query is tokenised the same way and offers the joined form as
 * an alternative, so DCD791, dcd-791 and "DCD 791" all meet.
 */

/** More words than this add nothing to a product search and only cost time. */
export const MAX_QUERY_TOKENS = 8;

/** Plurals the English stemmer does not fold onto their singular. */
const IRREGULAR_FORMS: Record<string, string> = {
  knives: 'knife',
  knife: 'knives',
  shelves: 'shelf',
  shelf: 'shelves',
  halves: 'half',
  leaves: 'leaf',
  feet: 'foot',
  teeth: 'tooth',
  men: 'man',
  women: 'woman',
};

/** Lower case, accents dropped, split at anything that is not a letter or digit. */
export function tokenize(term: string): string[] {
  return term
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token !== '')
    .slice(0, MAX_QUERY_TOKENS);
}

const hasDigit = (token: string) => /\d/.test(token);
/** A word that can be part of a model number: holds a digit, or is a short letter group (DCD, VX, GSB). */
const joinable = (token: string) => hasDigit(token) || token.length <= 4;

/**
 * Groups neighbouring tokens that may be one model number written apart ("dcd 791"),
 * exactly as the database joins them in documents: two or three joinable tokens, one
 * holding a digit. Greedy from the left; everything else stays a group of one.
 */
export function groupTokens(tokens: readonly string[]): string[][] {
  const groups: string[][] = [];
  let index = 0;
  while (index < tokens.length) {
    const three = tokens.slice(index, index + 3);
    const two = tokens.slice(index, index + 2);
    if (three.length === 3 && three.every(joinable) && three.some(hasDigit)) {
      groups.push(three);
      index += 3;
    } else if (two.length === 2 && two.every(joinable) && two.some(hasDigit)) {
      groups.push(two);
      index += 2;
    } else {
      groups.push([tokens[index]!]);
      index += 1;
    }
  }
  return groups;
}

export interface TsQueryOptions {
  /** The last word may be unfinished: match it as a prefix ("dri" finds drill). */
  prefixLast: boolean;
  /** Restrict matches to these weights, e.g. 'ABC' leaves descriptions out of suggestions. */
  weights?: string;
  /** Any word may match (for "closest matches") instead of all of them. */
  anyWord?: boolean;
}

function operand(token: string, prefix: boolean, weights: string): string {
  const marks = `${prefix ? '*' : ''}${weights}`;
  // Tokens are letters and digits only, so quoting cannot be broken out of.
  return marks ? `'${token}':${marks}` : `'${token}'`;
}

function wordOperand(token: string, prefix: boolean, weights: string): string {
  const other = IRREGULAR_FORMS[token];
  if (!other) return operand(token, prefix, weights);
  return `(${operand(token, prefix, weights)} | ${operand(other, prefix, weights)})`;
}

/**
 * The text for `to_tsquery('english', …)`: every word (or any word) must match; a split
 * model number may also match joined. PostgreSQL stems each operand, so "drills" meets
 * "drill". Returns '' when there is nothing to search for.
 */
export function buildTsQuery(tokens: readonly string[], options: TsQueryOptions): string {
  const weights = options.weights ?? '';
  const groups = groupTokens(tokens);
  const parts = groups.map((group, groupIndex) => {
    const lastGroup = groupIndex === groups.length - 1;
    if (group.length === 1) return wordOperand(group[0]!, options.prefixLast && lastGroup, weights);
    const apart = group
      .map((token, index) => operand(token, options.prefixLast && lastGroup && index === group.length - 1, weights))
      .join(' & ');
    return `((${apart}) | ${operand(group.join(''), options.prefixLast && lastGroup, weights)})`;
  });
  return parts.join(options.anyWord ? ' | ' : ' & ');
}

/** The term as one model number ("DCD-791" → "dcd791") when it looks like one, else null. */
export function compactModelNumber(tokens: readonly string[]): string | null {
  const joined = tokens.join('');
  return /\d/.test(joined) && /\p{L}/u.test(joined) && joined.length >= 4 ? joined : null;
}

/**
 * How a term matches products, column by column (migration 0004): plain words against the
 * `document` (all words of a product), and anything that may be a model number either as
 * words or, joined, against `codes`. Each text is for `to_tsquery`: `words` and each
 * group's `words` with the 'english' configuration, each group's `code` with 'simple'.
 */
export interface MatchTerms {
  /** The plain words, all required ('' when there are none). */
  words: string;
  /** Tokens with a digit, and neighbours that may be one model number written apart. */
  codeGroups: { words: string; code: string }[];
}

export function buildMatch(tokens: readonly string[], options: { prefixLast: boolean }): MatchTerms {
  const groups = groupTokens(tokens);
  const words: string[] = [];
  const codeGroups: MatchTerms['codeGroups'] = [];
  groups.forEach((group, groupIndex) => {
    const prefix = options.prefixLast && groupIndex === groups.length - 1;
    if (group.length === 1 && !hasDigit(group[0]!)) {
      words.push(wordOperand(group[0]!, prefix, ''));
      return;
    }
    codeGroups.push({
      words: group.map((token, index) => operand(token, prefix && index === group.length - 1, '')).join(' & '),
      code: operand(group.join(''), prefix, ''),
    });
  });
  return { words: words.join(' & '), codeGroups };
}

/* ---------------- Typo correction ---------------- */

/**
 * Optimal string alignment distance (Levenshtein plus swapping two neighbours, the
 * commonest typing slip). Stops early and returns `max + 1` once the distance must exceed max.
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, beforePrevious[j - 2]! + 1);
      }
      current.push(value);
      rowMinimum = Math.min(rowMinimum, value);
    }
    if (rowMinimum > max) return max + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** How many wrong letters a word may hold and still be corrected: none below 3 letters, 1 up to 5, then 2. */
export function maxEditsFor(word: string): number {
  if (word.length < 3) return 0;
  return word.length <= 5 ? 1 : 2;
}

/**
 * The catalogue word a misspelt word most likely meant, or null. Fewest edits wins,
 * then a word with the same first letter (typos rarely hit it), then a longer word over a
 * shorter one, then the closer length.
 * With `prefix` the word may be unfinished: "dewl" is one edit from "dewa…" (dewalt).
 */
export function chooseCorrection(
  word: string,
  candidates: readonly string[],
  options: { prefix: boolean },
): string | null {
  const max = maxEditsFor(word);
  if (max === 0) return null;
  let best: { candidate: string; score: number[] } | null = null;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    let distance = editDistance(word, candidate, max);
    if (options.prefix && candidate.length > word.length) {
      distance = Math.min(distance, editDistance(word, candidate.slice(0, word.length), max));
    }
    if (distance > max) continue;
    // Ties: a dropped letter is a likelier slip than an extra one ("grindr" meant grinder, not grind).
    const score = [
      distance,
      candidate[0] === word[0] ? 0 : 1,
      candidate.length < word.length ? 1 : 0,
      Math.abs(candidate.length - word.length),
    ];
    if (!best || compareScores(score, best.score) < 0) best = { candidate, score };
  }
  return best?.candidate ?? null;
}

function compareScores(a: number[], b: number[]): number {
  for (let index = 0; index < a.length; index++) {
    const difference = a[index]! - b[index]!;
    if (difference !== 0) return difference;
  }
  return 0;
}
