import fc from 'fast-check';

/**
 * fast-check arbitraries from the JSON-schema subset the shop's OpenAPI document uses (zod's
 * output: type, enum, const, anyOf/oneOf, properties/required, items with min/maxItems,
 * min/maxLength, pattern, minimum/maximum, $ref into components). A small generator of our own:
 * the npm packages for this are unmaintained or cover older drafts, and the subset is small.
 */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface OpenApiOperation {
  tags?: string[];
  parameters?: { in: 'path' | 'query' | 'header' | 'cookie'; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}

/** Follows `#/components/schemas/…` references (one level at a time, so recursion stays lazy). */
export function resolve(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  while (current.$ref) {
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = document.components?.schemas?.[name];
    if (!target) throw new Error(`Unresolved $ref ${current.$ref}`);
    current = target;
  }
  return current;
}

/** Strings short enough to keep the requests small, long enough to cross the usual limits. */
const STRING_SPAN = 24;

/** Values the shop's schemas allow. */
export function validValue(document: OpenApiDocument, raw: JsonSchema): fc.Arbitrary<unknown> {
  const schema = resolve(document, raw);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map((option) => validValue(document, option)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER);
      const max = Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER);
      // Small values reach real records (ids, quantities) far more often than uniform ones.
      const small = fc.integer({ min, max: Math.min(max, Math.max(min, 0) + 50) });
      return fc.oneof(small, fc.integer({ min, max }));
    }
    case 'number': {
      const min = schema.minimum ?? -1_000_000;
      const max = schema.maximum ?? 1_000_000;
      return fc.oneof(
        fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
        fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
      );
    }
    case 'string': {
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.min(schema.maxLength ?? minLength + STRING_SPAN, minLength + STRING_SPAN);
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.pattern) {
        return fc
          .stringMatching(new RegExp(schema.pattern))
          .filter(
            (value) => value.length >= minLength && value.length <= (schema.maxLength ?? Number.MAX_SAFE_INTEGER),
          );
      }
      return fc.string({ minLength, maxLength, unit: 'grapheme' });
    }
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? minLength + 3, minLength + 3);
      return fc.array(schema.items ? validValue(document, schema.items) : fc.jsonValue(), { minLength, maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = validValue(document, property);
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((name) => name in properties) });
    }
    default:
      // An empty schema (zod's `unknown`): anything JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Inputs that hurt parsers, databases and file systems: NUL bytes, lone surrogates, huge numbers, paths, SQL. */
export const HOSTILE_VALUES: readonly unknown[] = [
  null,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\uD800',
  '\u202E\u0000',
  'x'.repeat(5000),
  '../../../../etc/passwd',
  "' OR 1=1 --",
  '%',
  '_',
  '\\',
  '*',
  '(',
  '<script>alert(1)</script>',
  'NaN',
  'Infinity',
  '1e400',
  '٣',
  '0x10',
  '-0',
  0,
  -1,
  1.5,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  true,
  [],
  [null],
  {},
  { $ne: 1 },
  { __proto__: { polluted: true } },
];

/** A value the schema refuses, or one that merely looks odd: a wrong type, past a limit, or a hostile constant. */
export function invalidValue(document: OpenApiDocument, raw: JsonSchema): fc.Arbitrary<unknown> {
  const schema = resolve(document, raw);
  const hostile = fc.constantFrom(...HOSTILE_VALUES);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const specific: fc.Arbitrary<unknown>[] = [];
  if (type === 'integer' || type === 'number') {
    if (schema.minimum !== undefined) specific.push(fc.constant(schema.minimum - 1));
    if (schema.maximum !== undefined) specific.push(fc.constant(schema.maximum + 1));
    specific.push(fc.string({ maxLength: 6 }));
  }
  if (type === 'string') {
    if (schema.maxLength !== undefined) specific.push(fc.constant('y'.repeat(schema.maxLength + 1)));
    if (schema.minLength) specific.push(fc.constant(''));
    specific.push(fc.string({ maxLength: 12, unit: 'binary' }));
  }
  if (schema.enum) specific.push(fc.constant(`${String(schema.enum[0])}-not-one`));
  if (type === 'object' && schema.properties) specific.push(mutatedValue(document, schema));
  return fc.oneof(hostile, ...specific);
}

/**
 * A valid object with one property swapped for an invalid value, removed, or a stray one
 * added: it passes most of the validation and probes what lies behind it.
 */
export function mutatedValue(document: OpenApiDocument, raw: JsonSchema, base?: unknown): fc.Arbitrary<unknown> {
  const schema = resolve(document, raw);
  const start = base === undefined ? validValue(document, schema) : fc.constant(base);
  const names = Object.keys(schema.properties ?? {});
  if (names.length === 0) return fc.oneof(start, invalidValue(document, { type: 'string' }));
  return fc.tuple(start, fc.constantFrom(...names), fc.nat(2)).chain(([value, name, how]) => {
    const object = (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Record<
      string,
      unknown
    >;
    if (how === 0) {
      const { [name]: _dropped, ...rest } = object;
      return fc.constant(rest);
    }
    if (how === 1) return fc.constant({ ...object, [`${name}Extra`]: '\u0000' });
    const property = schema.properties?.[name] ?? {};
    return invalidValue(document, property).map((bad) => ({ ...object, [name]: bad }));
  });
}

/** A value as it travels in a path segment or a query string. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
