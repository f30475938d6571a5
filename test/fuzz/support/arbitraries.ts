import fc from 'fast-check';
import { typesOf, violations, type JsonSchema, type JsonType, type Resolve } from './json-schema';

/**
 * Values of the seeded world offered, besides generated ones, for fields and parameters of a
 * given name (`user_id` -> real customer ids...). `<name>:key` offers the keys of a record field.
 */
export type Hints = Partial<Record<string, fc.Arbitrary<unknown>>>;
export type SchemaContext = { resolve: Resolve; hints: Hints };

const SAFE = Number.MAX_SAFE_INTEGER;
/** Longest string generated at a boundary; longer limits are exercised by the oversized-body requests. */
const LONGEST_BOUNDARY = 8192;

const anyJson = fc.jsonValue({ maxDepth: 2 });

/** Values valid for `schema` by the document's rules (each is checked; a hint that does not fit is dropped). */
export function validValue(schema: JsonSchema, ctx: SchemaContext, name?: string): fc.Arbitrary<unknown> {
  const generated = generate(schema, ctx, name);
  const hint = name === undefined ? undefined : ctx.hints[name];
  const offered = hint ? fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: generated, weight: 1 }) : generated;
  return offered.filter((value) => violations(schema, value, ctx.resolve).length === 0);
}

function generate(schema: JsonSchema, ctx: SchemaContext, name?: string): fc.Arbitrary<unknown> {
  if (schema.$ref) return generate(ctx.resolve(schema.$ref), ctx, name);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => validValue(branch, ctx, name)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const types = typesOf(schema);
  if (!types) return anyJson;
  return fc.oneof(...types.map((type) => ofType(type, schema, ctx, name)));
}

function ofType(type: JsonType, schema: JsonSchema, ctx: SchemaContext, name?: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerIn(lowerBound(schema), upperBound(schema));
    case 'number':
      return fc.oneof(
        integerIn(lowerBound(schema), upperBound(schema)),
        fc.double({ min: lowerBound(schema), max: upperBound(schema), noNaN: true, noDefaultInfinity: true }),
      );
    case 'string':
      return stringOf(schema);
    case 'array': {
      const lengths = { minLength: schema.minItems ?? 0, maxLength: schema.maxItems ?? (schema.minItems ?? 0) + 4 };
      const item = validValue(schema.items ?? {}, ctx, name);
      return schema.uniqueItems ? fc.uniqueArray(item, { ...lengths, selector: (value) => JSON.stringify(value) }) : fc.array(item, lengths);
    }
    case 'object':
      return objectOf(schema, ctx, name);
  }
}

export function lowerBound(schema: JsonSchema): number {
  if (schema.exclusiveMinimum !== undefined) return Math.floor(schema.exclusiveMinimum) + 1;
  return schema.minimum ?? -SAFE;
}

export function upperBound(schema: JsonSchema): number {
  if (schema.exclusiveMaximum !== undefined) return Math.ceil(schema.exclusiveMaximum) - 1;
  return schema.maximum ?? SAFE;
}

/** Integers in [min, max], the bounds themselves and small values more often than their share. */
export function integerIn(min: number, max: number): fc.Arbitrary<number> {
  const lo = Math.ceil(Math.max(min, -SAFE));
  const hi = Math.floor(Math.min(max, SAFE));
  const near = [lo, hi, 0, 1, -1].filter((value) => value >= lo && value <= hi);
  const small = { min: Math.max(lo, -1000), max: Math.min(hi, 1000) };
  const anywhere = fc.bigInt({ min: BigInt(lo), max: BigInt(hi) }).map(Number);
  if (small.min > small.max) return fc.oneof(fc.constantFrom(...near), anywhere);
  return fc.oneof(fc.constantFrom(...near), fc.integer(small), anywhere);
}

const datePart = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T23:59:59Z'), noInvalidDate: true });
const offset = fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 30, 45));

/** RFC 3339 date-times: `Z` or a numeric offset, with or without fractional seconds. */
const dateTime = fc.tuple(datePart, fc.option(offset), fc.boolean()).map(([date, zone, fraction]) => {
  const iso = date.toISOString();
  const base = fraction ? iso.slice(0, -1) : iso.slice(0, 19);
  if (!zone) return `${base}Z`;
  const [sign, hours, minutes] = zone;
  return `${base}${sign}${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
});

const formatted: Record<string, fc.Arbitrary<string>> = {
  date: datePart.map((date) => date.toISOString().slice(0, 10)),
  'date-time': dateTime,
  email: fc.emailAddress(),
  uri: fc.webUrl(),
};

/**
 * Strings for a format or pattern when there is one, always mixed with plain strings of the allowed
 * lengths (boundaries included), so a pattern like `\S` still meets its `maxLength`; the caller's
 * check drops what does not fit.
 */
function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength;
  const shaped: fc.Arbitrary<string>[] = [];
  if (schema.format) {
    const arbitrary = formatted[schema.format];
    if (!arbitrary) throw new Error(`No generator for format ${schema.format}`);
    shaped.push(arbitrary);
  }
  if (schema.pattern) shaped.push(fc.stringMatching(new RegExp(schema.pattern)));
  const lengths = { minLength: min, maxLength: max };
  const boundary = Math.min(max ?? min + 64, LONGEST_BOUNDARY);
  return fc.oneof(
    ...shaped.map((arbitrary) => ({ arbitrary, weight: 6 })),
    { arbitrary: fc.string(lengths), weight: 3 },
    // Code points of every plane (JSON Schema counts lengths in code points), controls included.
    { arbitrary: fc.string({ ...lengths, unit: 'binary' }), weight: 1 },
    { arbitrary: fc.string({ minLength: boundary, maxLength: boundary, unit: fc.constantFrom('a', 'é', '中', '😀') }), weight: 1 },
  );
}

function objectOf(schema: JsonSchema, ctx: SchemaContext, name?: string): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, validValue(property, ctx, key)]));
  const declared = fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
  const extra = extraProperties(schema, ctx, name);
  if (!extra) return declared;
  return fc.tuple(declared, extra).map(([fields, extras]) => ({ ...extras, ...fields }));
}

/** Undeclared keys: those of a record (`additionalProperties: schema`), or any JSON in a free-form object. */
function extraProperties(schema: JsonSchema, ctx: SchemaContext, name?: string) {
  if (schema.additionalProperties === false) return undefined;
  const keyHint = name === undefined ? undefined : ctx.hints[`${name}:key`];
  const names = schema.propertyNames ? validValue(schema.propertyNames, ctx) : fc.string();
  const keys = (keyHint ? fc.oneof({ arbitrary: keyHint, weight: 3 }, names) : names).filter((key): key is string => typeof key === 'string');
  if (typeof schema.additionalProperties === 'object') return fc.dictionary(keys, validValue(schema.additionalProperties, ctx), { maxKeys: 5 });
  return schema.properties ? undefined : fc.dictionary(keys, anyJson, { maxKeys: 4 });
}
