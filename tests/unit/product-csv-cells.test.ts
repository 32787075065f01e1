/**
 * CSV injection (issue 21, OWASP "CSV Injection"): the product export puts a `'` before any
 * cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return, so a spreadsheet shows
 * it as text instead of running it, and before any cell that already starts with `'`, so the
 * import can take exactly one leading `'` off every cell and a round trip changes nothing.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeCsvCell, unescapeCsvCell } from '../../server/domain/product-csv.ts';

const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'];

/** Strings that often start with a character the rule cares about. */
const cell = fc.oneof(
  fc.string(),
  fc.tuple(fc.constantFrom(...FORMULA_STARTS, "'", "''"), fc.string()).map(([start, rest]) => start + rest),
);

describe('spreadsheet formulas in the product CSV', () => {
  it('escapes a cell that a spreadsheet would run, and one that starts with a quote', () => {
    expect(escapeCsvCell('=HYPERLINK("https://evil.example","Click")')).toBe(
      `'=HYPERLINK("https://evil.example","Click")`,
    );
    expect(escapeCsvCell('+61 2 9000 0000')).toBe("'+61 2 9000 0000");
    expect(escapeCsvCell('-2+3')).toBe("'-2+3");
    expect(escapeCsvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(escapeCsvCell('\t=1')).toBe("'\t=1");
    expect(escapeCsvCell('\r=1')).toBe("'\r=1");
    expect(escapeCsvCell("'quoted'")).toBe("''quoted'");
    expect(escapeCsvCell('Cordless drill')).toBe('Cordless drill');
    expect(escapeCsvCell('')).toBe('');
    expect(escapeCsvCell('199.99')).toBe('199.99');
  });

  it('takes exactly one leading quote off on import', () => {
    expect(unescapeCsvCell("'=1")).toBe('=1');
    expect(unescapeCsvCell("''quoted'")).toBe("'quoted'");
    expect(unescapeCsvCell('plain')).toBe('plain');
  });

  it('never leaves a cell starting with a formula character, and a round trip changes nothing (property)', () => {
    fc.assert(
      fc.property(cell, (value) => {
        const escaped = escapeCsvCell(value);
        expect(FORMULA_STARTS.includes(escaped.charAt(0))).toBe(false);
        expect(unescapeCsvCell(escaped)).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips through the CSV writer and reader the export and import use (property)', () => {
    // The import trims every cell, so values with surrounding blanks come back trimmed (as before).
    const trimmed = cell.filter((value) => value === value.trim());
    fc.assert(
      fc.property(fc.array(trimmed, { minLength: 1, maxLength: 5 }), (values) => {
        const row = Object.fromEntries(values.map((value, index) => [`c${index}`, escapeCsvCell(value)]));
        const csv = stringify([row], { header: true, columns: Object.keys(row) });
        const [read] = parse(csv, { columns: true, trim: true, bom: true }) as Record<string, string>[];
        expect(values.map((_, index) => unescapeCsvCell(read?.[`c${index}`] ?? ''))).toEqual(values);
      }),
      { numRuns: 500 },
    );
  });
});
