import fc from 'fast-check';
import { integerIn, lowerBound, upperBound, validValue, type SchemaContext } from './arbitraries';
import { typesOf, violations, type JsonSchema, type Resolve } from './json-schema';
import { invalidValue } from './mutations';

/** A documented path, query or header parameter. */
export type Parameter = { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: JsonSchema; description?: string };

const INTEGER_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;
/** A lone surrogate cannot be percent-encoded (URIError), so no client can send one in a URL. */
const LONE_SURROGATE = /\p{Cs}/u;
/** `.` and `..` are dot segments: the URL parser removes them, so they never reach a route as a value. */
const DOT_SEGMENT = /^\.{1,2}$/;
/**
 * Header values a client can send as they are: bytes (U+0000-U+00FF) without NUL, CR or LF (fetch
 * refuses those) and without a space or tab at either end (fetch trims them). Past ASCII, workerd
 * sends UTF-8 with a warning; an API may well refuse such a value, but only if its document says so.
 */
const HEADER_EDGE = '\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x21-\\xff';
const HEADER_TEXT = new RegExp(`^[${HEADER_EDGE}](?:[${HEADER_EDGE}\\t ]*[${HEADER_EDGE}])?$`);

function numeric(schema: JsonSchema, resolve: Resolve): 'integer' | 'number' | undefined {
  const resolved = schema.$ref ? resolve(schema.$ref) : schema;
  const types = typesOf(resolved);
  if (!types || !types.every((type) => type === 'integer' || type === 'number')) return undefined;
  return types.includes('number') ? 'number' : 'integer';
}

/** How a parameter's text breaks its schema (OpenAPI style `simple`/`form`: numbers are read from the text). */
export function textViolations(schema: JsonSchema, text: string, resolve: Resolve): string[] {
  const kind = numeric(schema, resolve);
  if (kind === undefined) return violations(schema, text, resolve);
  if (!(kind === 'integer' ? INTEGER_TEXT : NUMBER_TEXT).test(text)) return [`$: ${JSON.stringify(text)} is not an ${kind}`];
  return violations(schema, Number(text), resolve);
}

export function sendable(parameter: Parameter, text: string): boolean {
  if (LONE_SURROGATE.test(text)) return false;
  if (parameter.in === 'path') return text !== '' && !DOT_SEGMENT.test(text);
  if (parameter.in === 'header') return text === '' || HEADER_TEXT.test(text);
  return true;
}

function generatedText(parameter: Parameter, ctx: SchemaContext): fc.Arbitrary<string> {
  const { schema } = parameter;
  const kind = numeric(schema, ctx.resolve);
  if (kind !== undefined) {
    const resolved = schema.$ref ? ctx.resolve(schema.$ref) : schema;
    const min = lowerBound(resolved);
    const max = upperBound(resolved);
    // Without a documented maximum any integer is valid, also past 2^53 (the document sets the bound).
    const huge = resolved.maximum === undefined ? [fc.bigInt({ min: BigInt(Math.max(min, 0)), max: 10n ** 24n }).map(String)] : [];
    return fc.oneof(integerIn(min, max).map(String), ...huge);
  }
  if (parameter.in === 'header') {
    const ascii = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 80 });
    return fc.oneof(ascii, validValue(schema, ctx).filter((value): value is string => typeof value === 'string'));
  }
  return validValue(schema, ctx, parameter.name).filter((value): value is string => typeof value === 'string');
}

/** Texts valid for the parameter, real values of the world offered first where a hint exists. */
export function validText(parameter: Parameter, ctx: SchemaContext): fc.Arbitrary<string> {
  const hint = ctx.hints[parameter.name];
  const generated = generatedText(parameter, ctx);
  const offered = hint ? fc.oneof({ arbitrary: hint.map(String), weight: 3 }, { arbitrary: generated, weight: 1 }) : generated;
  return offered.filter((text) => sendable(parameter, text) && textViolations(parameter.schema, text, ctx.resolve).length === 0);
}

const notNumbers = ['abc', '1.5', '-', '', ' 1'];

/** Texts that break the parameter's schema and can still be sent there; undefined when none can. */
export function invalidText(parameter: Parameter, ctx: SchemaContext): fc.Arbitrary<string> | undefined {
  const { schema } = parameter;
  if (!canBreak(parameter, ctx.resolve)) return undefined;
  const candidates = numeric(schema, ctx.resolve)
    ? fc.oneof(fc.constantFrom(...notNumbers), invalidValue(schema, ctx).filter((value) => typeof value === 'number').map(String))
    : invalidValue(schema, ctx).filter((value): value is string => typeof value === 'string');
  return candidates.filter((text) => sendable(parameter, text) && textViolations(schema, text, ctx.resolve).length > 0);
}

/** Whether some sendable text breaks the schema: an unconstrained string has none, nor a path segment of only `minLength` (empty changes the route). */
function canBreak(parameter: Parameter, resolve: Resolve): boolean {
  const schema = parameter.schema.$ref ? resolve(parameter.schema.$ref) : parameter.schema;
  if (numeric(schema, resolve) !== undefined) return true;
  const constrained = schema.maxLength !== undefined || schema.pattern !== undefined || schema.enum !== undefined || schema.format !== undefined || schema.anyOf !== undefined;
  return constrained || (parameter.in !== 'path' && (schema.minLength ?? 0) > 0);
}
