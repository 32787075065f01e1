import { describe, expect, it } from 'vitest';
import {
  buildMatch,
  buildTsQuery,
  chooseCorrection,
  compactModelNumber,
  editDistance,
  groupTokens,
  MAX_QUERY_TOKENS,
  maxEditsFor,
  tokenize,
} from '../../server/domain/search-terms.ts';

describe('tokenize', () => {
  it('lower-cases, drops accents and splits at anything but letters and digits', () => {
    expect(tokenize('  Makita   DHP-482 Z  ')).toEqual(['makita', 'dhp', '482', 'z']);
    expect(tokenize('Crème brûlée torch')).toEqual(['creme', 'brulee', 'torch']);
    expect(tokenize("O'Brien's 1/2\" drive")).toEqual(['o', 'brien', 's', '1', '2', 'drive']);
  });

  it('keeps nothing from punctuation alone and caps the number of words', () => {
    expect(tokenize(' -- / ')).toEqual([]);
    expect(tokenize('a b c d e f g h i j k')).toHaveLength(MAX_QUERY_TOKENS);
  });
});

describe('groupTokens', () => {
  it('joins short letter groups with a neighbouring number into one possible model number', () => {
    expect(groupTokens(['dcd', '791'])).toEqual([['dcd', '791']]);
    expect(groupTokens(['vx', 'hd', '853'])).toEqual([['vx', 'hd', '853']]);
    expect(groupTokens(['voltrex', 'vx', 'hd853'])).toEqual([['voltrex'], ['vx', 'hd853']]);
  });

  it('leaves ordinary words alone', () => {
    expect(groupTokens(['hammer', 'drill'])).toEqual([['hammer'], ['drill']]);
    // "drill" is too long to be a model-number prefix.
    expect(groupTokens(['drill', '18v'])).toEqual([['drill'], ['18v']]);
  });
});

describe('buildTsQuery', () => {
  it('requires every word and reads the last one as unfinished when asked', () => {
    expect(buildTsQuery(['hammer', 'dri'], { prefixLast: true })).toBe("'hammer' & 'dri':*");
    expect(buildTsQuery(['hammer', 'drill'], { prefixLast: false })).toBe("'hammer' & 'drill'");
  });

  it('offers a split model number joined as well', () => {
    expect(buildTsQuery(['dcd', '791'], { prefixLast: false })).toBe("(('dcd' & '791') | 'dcd791')");
    expect(buildTsQuery(['dcd', '79'], { prefixLast: true })).toBe("(('dcd' & '79':*) | 'dcd79':*)");
  });

  it('restricts weights and can accept any word', () => {
    expect(buildTsQuery(['drill', 'saw'], { prefixLast: true, weights: 'AB', anyWord: true })).toBe(
      "'drill':AB | 'saw':*AB",
    );
  });

  it('adds the other form of irregular plurals', () => {
    expect(buildTsQuery(['knives'], { prefixLast: false })).toBe("('knives' | 'knife')");
  });
});

describe('buildMatch', () => {
  it('sends plain words to the document and possible model numbers to both words and codes', () => {
    expect(buildMatch(['voltrex', 'vx', 'hd853'], { prefixLast: false })).toEqual({
      words: "'voltrex'",
      codeGroups: [{ words: "'vx' & 'hd853'", code: "'vxhd853'" }],
    });
    expect(buildMatch(['hd85'], { prefixLast: true })).toEqual({
      words: '',
      codeGroups: [{ words: "'hd85':*", code: "'hd85':*" }],
    });
  });
});

describe('compactModelNumber', () => {
  it('joins a term that mixes letters and digits', () => {
    expect(compactModelNumber(tokenize('DCD-791'))).toBe('dcd791');
    expect(compactModelNumber(tokenize('DCD 791'))).toBe('dcd791');
  });

  it('is null for plain words, bare numbers and very short codes', () => {
    expect(compactModelNumber(['hammer', 'drill'])).toBeNull();
    expect(compactModelNumber(['791'])).toBeNull();
    expect(compactModelNumber(['a1'])).toBeNull();
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and swapped neighbours as one edit each', () => {
    expect(editDistance('hamer', 'hammer')).toBe(1);
    expect(editDistance('drils', 'drill')).toBe(1);
    expect(editDistance('dirlls', 'drill')).toBe(2);
    expect(editDistance('kelvnae', 'kelvane')).toBe(1);
    expect(editDistance('grindr', 'grinder')).toBe(1);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('stops early once the distance must exceed the maximum', () => {
    expect(editDistance('abcdefgh', 'zyxwvuts', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });
});

describe('chooseCorrection', () => {
  const vocabulary = ['hammer', 'hammers', 'drill', 'driver', 'kelvane', 'voltrex', 'grinder', 'ladder'];

  it('picks the nearest word within the edits the word length allows', () => {
    expect(chooseCorrection('hamer', vocabulary, { prefix: false })).toBe('hammer');
    expect(chooseCorrection('kelvnae', vocabulary, { prefix: false })).toBe('kelvane');
    expect(chooseCorrection('voltrx', vocabulary, { prefix: false })).toBe('voltrex');
    expect(chooseCorrection('laddre', vocabulary, { prefix: false })).toBe('ladder');
  });

  it('prefers the word with a dropped letter restored over a shorter word at the same distance', () => {
    expect(chooseCorrection('grindr', ['grind', 'grinder'], { prefix: false })).toBe('grinder');
    expect(chooseCorrection('grindr', ['grinder', 'grind'], { prefix: false })).toBe('grinder');
  });

  it('corrects an unfinished last word against the start of longer words', () => {
    expect(chooseCorrection('voltx', vocabulary, { prefix: true })).toBe('voltrex');
    expect(chooseCorrection('voltx', vocabulary, { prefix: false })).toBeNull();
  });

  it('refuses words too short to correct and words too far from any', () => {
    expect(maxEditsFor('dr')).toBe(0);
    expect(chooseCorrection('dr', vocabulary, { prefix: false })).toBeNull();
    expect(chooseCorrection('zzzzzz', vocabulary, { prefix: false })).toBeNull();
  });
});
