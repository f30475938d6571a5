import fc from 'fast-check';
import { lowerBound, upperBound, validValue, type SchemaContext } from './arbitraries';
import { isPlainObject, typesOf, violations, type JsonSchema } from './json-schema';

/** One value of every JSON type: whichever the schema does not allow is a wrong-type value. */
const everyType: unknown[] = [null, true, 7, 2.5, 'text', [], {}];

export const notOfFormat: Record<string, string[]> = {
  date: ['2026-02-30', '31.01.2026', 'today'],
  'date-time': ['2026-01-31 10:00:00', '2026-01-31', '2026-13-01T00:00:00Z', 'now'],
  // RFC 5321 refuses each (dots at the ends of or doubled in the local part, a label ending in "-"): a pattern may not.
  email: ['no-at-sign', 'two@@example.com', '', '.jane@example.com', 'jane.@example.com', 'jane..doe@example.com', 'jane@example-.com', 'jane@-example.com', 'jane@example..com'],
  uri: ['not a uri', '://missing-scheme'],
};

/**
 * Values that break `schema`: a wrong type, a broken bound, pattern, enum or format, a missing
 * required or an unknown property, or a broken value nested inside an otherwise valid one. Every
 * value is checked against the document, so each is certainly invalid.
 */
export function invalidValue(schema: JsonSchema, ctx: SchemaContext): fc.Arbitrary<unknown> {
  const resolved = schema.$ref ? ctx.resolve(schema.$ref) : schema;
  if (!canBeInvalid(resolved, ctx)) throw new Error(`Every value is valid for ${JSON.stringify(resolved)}`);
  const candidates = [fc.constantFrom(...everyType), ...stringBreaks(resolved), ...numberBreaks(resolved), ...objectBreaks(resolved, ctx), ...arrayBreaks(resolved, ctx)];
  return fc.oneof(...candidates).filter((value) => violations(resolved, value, ctx.resolve).length > 0);
}

/** False for a schema that accepts any JSON value (`{}`, or a union with such a branch). */
function canBeInvalid(schema: JsonSchema, ctx: SchemaContext): boolean {
  const resolved = schema.$ref ? ctx.resolve(schema.$ref) : schema;
  const branches = resolved.anyOf ?? resolved.oneOf;
  if (branches) return branches.every((branch) => canBeInvalid(branch, ctx));
  return resolved.type !== undefined || resolved.enum !== undefined || resolved.const !== undefined;
}

function allows(schema: JsonSchema, type: 'string' | 'integer' | 'number' | 'object' | 'array'): boolean {
  const types = typesOf(schema);
  return types !== undefined && types.includes(type);
}

function stringBreaks(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  if (!allows(schema, 'string') && !schema.enum) return [];
  const out: fc.Arbitrary<unknown>[] = [fc.string()];
  if (schema.minLength !== undefined && schema.minLength > 0) out.push(fc.string({ minLength: 0, maxLength: schema.minLength - 1 }));
  if (schema.maxLength !== undefined) {
    const longer = schema.maxLength + 1;
    out.push(fc.string({ minLength: longer, maxLength: longer + 8 }), fc.string({ minLength: longer, maxLength: longer, unit: 'binary' }));
  }
  if (schema.pattern !== undefined) out.push(fc.string({ unit: 'binary' }));
  const wrongFormats = schema.format === undefined ? undefined : notOfFormat[schema.format];
  if (wrongFormats) out.push(fc.constantFrom(...wrongFormats));
  // What the pattern allows and the format does not: a pattern wider than its format shows here.
  if (schema.format !== undefined && schema.pattern !== undefined) out.push(fc.stringMatching(new RegExp(schema.pattern)));
  return out;
}

function numberBreaks(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  if (!allows(schema, 'integer') && !allows(schema, 'number')) return [];
  const out: fc.Arbitrary<unknown>[] = [];
  const min = lowerBound(schema);
  const max = upperBound(schema);
  if (min > -Number.MAX_SAFE_INTEGER) out.push(fc.integer({ min: -1000, max: 0 }).map((below) => min - 1 + below));
  if (max < Number.MAX_SAFE_INTEGER) out.push(fc.integer({ min: 0, max: 1000 }).map((above) => max + 1 + above));
  if (!allows(schema, 'number')) out.push(fc.double({ min: Math.max(min, -1e6), max: Math.min(max, 1e6), noNaN: true, noInteger: true }));
  return out;
}

function objectBreaks(schema: JsonSchema, ctx: SchemaContext): fc.Arbitrary<unknown>[] {
  if (!allows(schema, 'object')) return [];
  const valid = validValue(schema, ctx).filter(isPlainObject);
  const out: fc.Arbitrary<unknown>[] = [];
  const required = schema.required ?? [];
  if (required.length > 0) {
    out.push(fc.tuple(valid, fc.constantFrom(...required)).map(([value, key]) => withoutKey(value, key)));
  }
  if (schema.additionalProperties === false) {
    out.push(fc.tuple(valid, fc.string({ minLength: 1 })).map(([value, key]) => ({ ...value, [`${key}_unlisted`]: 1 })));
  }
  if (schema.minProperties !== undefined && schema.minProperties > 0) out.push(fc.constant({}));
  const properties = Object.entries(schema.properties ?? {}).filter(([, property]) => canBeInvalid(property, ctx));
  if (properties.length > 0) {
    out.push(
      fc
        .tuple(valid, fc.constantFrom(...properties))
        .chain(([value, [key, property]]) => invalidValue(property, ctx).map((broken) => ({ ...value, [key]: broken }))),
    );
  }
  return out;
}

function arrayBreaks(schema: JsonSchema, ctx: SchemaContext): fc.Arbitrary<unknown>[] {
  if (!allows(schema, 'array')) return [];
  const items = schema.items ?? {};
  const out: fc.Arbitrary<unknown>[] = [];
  if (schema.minItems !== undefined && schema.minItems > 0) out.push(fc.array(validValue(items, ctx), { maxLength: schema.minItems - 1 }));
  if (schema.maxItems !== undefined) {
    const longer = schema.maxItems + 1;
    out.push(fc.array(validValue(items, ctx), { minLength: longer, maxLength: longer }));
  }
  if (schema.uniqueItems) out.push(validValue(schema, ctx).filter((value): value is unknown[] => Array.isArray(value) && value.length > 0).map((value) => withDuplicate(value, schema.maxItems)));
  if (schema.items && canBeInvalid(items, ctx)) {
    out.push(
      fc
        .tuple(validValue(schema, ctx).filter(Array.isArray), invalidValue(items, ctx))
        .map(([value, broken]) => [...value, broken]),
    );
  }
  return out;
}

/** The array with its first item repeated (in place of its last when it is already at its longest, so a `maxItems` does not break too). */
export function withDuplicate(items: unknown[], maxItems = Number.POSITIVE_INFINITY): unknown[] {
  return items.length < maxItems ? [...items, items[0]] : [...items.slice(0, -1), items[0]];
}

export function withoutKey<T>(value: Record<string, T>, key: string): Record<string, T> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}
