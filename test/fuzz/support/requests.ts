import fc from 'fast-check';
import { MAX_BODY_BYTES } from '../../../src/middleware/body-limit';
import { validValue, type SchemaContext } from './arbitraries';
import type { Operation } from './document';
import { invalidValue, withoutKey } from './mutations';
import { invalidText, validText, type Parameter } from './params';

/**
 * What a generated request is. `valid` and `viewer` requests satisfy the document (the viewer
 * lacks the right to write); every other kind breaks it in one named way and must be refused.
 */
export type RequestKind =
  | 'valid'
  | 'viewer'
  | 'unauthenticated'
  | 'bad-credentials'
  | 'invalid-path'
  | 'invalid-query'
  | 'invalid-header'
  | 'missing-header'
  | 'invalid-body'
  | 'malformed-json'
  | 'not-json'
  | 'oversized';

export type RequestBody = { json: unknown } | { raw: string; contentType?: string };

export type FuzzRequest = {
  kind: RequestKind;
  /** How a refused kind breaks the document. */
  breaks?: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: RequestBody;
};

export const GARBLED_SIGNATURE = 'garbled signature';
export const STALE_TIMESTAMP = 'stale timestamp';
export const GARBLED_TOKEN = 'garbled token';
export const NOT_A_TOKEN = 'not a token';

export const isRefusedKind = (kind: RequestKind) => kind !== 'valid' && kind !== 'viewer';

export type Parts = Pick<FuzzRequest, 'params' | 'query' | 'headers' | 'body'>;

function parametersIn(op: Operation, location: Parameter['in']) {
  return op.parameters.filter((parameter) => parameter.in === location);
}

/** Valid texts for the parameters of one location; optional ones present or not. */
function validParameters(parameters: Parameter[], ctx: SchemaContext): fc.Arbitrary<Record<string, string>> {
  const model = Object.fromEntries(parameters.map((parameter) => [parameter.name, validText(parameter, ctx)]));
  return fc.record(model, { requiredKeys: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name) });
}

export function validParts(op: Operation, ctx: SchemaContext): fc.Arbitrary<Parts> {
  // Valid bodies stay within the body limit; the `oversized` kind is the one over it.
  const withinLimit = (json: unknown) => byteLength(JSON.stringify(json)) <= MAX_BODY_BYTES;
  const file: RequestBody | undefined = op.file === undefined ? undefined : { raw: op.file, contentType: 'text/csv' };
  const body = op.body ? validValue(op.body, ctx).filter(withinLimit).map((json): RequestBody => ({ json })) : fc.constant(file);
  return fc.record({
    params: validParameters(parametersIn(op, 'path'), ctx),
    query: validParameters(parametersIn(op, 'query'), ctx),
    headers: validParameters(parametersIn(op, 'header'), ctx),
    body,
  });
}

/** One parameter of `location` replaced by a text that breaks it. */
function brokenParameter(op: Operation, ctx: SchemaContext, location: 'path' | 'query' | 'header') {
  const breakable = parametersIn(op, location).flatMap((parameter) => {
    const broken = invalidText(parameter, ctx);
    return broken ? [{ parameter, broken }] : [];
  });
  if (breakable.length === 0) return undefined;
  const key = ({ path: 'params', query: 'query', header: 'headers' } as const)[location];
  return fc.tuple(validParts(op, ctx), fc.constantFrom(...breakable)).chain(([parts, { parameter, broken }]) =>
    broken.map((text) => ({ ...parts, [key]: { ...parts[key], [parameter.name]: text }, breaks: `${location} parameter ${parameter.name}` })),
  );
}

const notJson = ['{', '{"a":', 'not json', '[1,]', "{'a':1}", '{"a":1}}', ''];

/** The request kinds that apply to the operation, with the weight each gets among its runs. */
export function requestArbitrary(op: Operation, ctx: SchemaContext): fc.Arbitrary<FuzzRequest> {
  const valid = validParts(op, ctx);
  const as = (kind: RequestKind, parts: fc.Arbitrary<Parts & { breaks?: string }>) => parts.map((p): FuzzRequest => ({ kind, ...p }));
  const kinds: Array<{ arbitrary: fc.Arbitrary<FuzzRequest>; weight: number }> = [{ arbitrary: as('valid', valid), weight: 10 }];
  const add = (weight: number, arbitrary: fc.Arbitrary<FuzzRequest> | undefined) => {
    if (arbitrary) kinds.push({ arbitrary, weight });
  };
  if (op.surface === 'portal') add(2, as('viewer', valid));
  if (op.surface !== 'public') {
    add(1, as('unauthenticated', valid.map((parts) => ({ ...parts, breaks: 'no credentials' }))));
    const how = op.surface === 'gateway' ? fc.constantFrom(GARBLED_SIGNATURE, STALE_TIMESTAMP) : fc.constantFrom(GARBLED_TOKEN, NOT_A_TOKEN);
    add(1, as('bad-credentials', fc.tuple(valid, how).map(([parts, breaks]) => ({ ...parts, breaks }))));
  }
  const path = brokenParameter(op, ctx, 'path');
  const query = brokenParameter(op, ctx, 'query');
  const header = brokenParameter(op, ctx, 'header');
  add(1, path && as('invalid-path', path));
  add(3, query && as('invalid-query', query));
  add(1, header && as('invalid-header', header));
  for (const parameter of parametersIn(op, 'header').filter((p) => p.required)) {
    add(1, as('missing-header', valid.map((parts) => ({ ...parts, headers: withoutKey(parts.headers, parameter.name), breaks: `header ${parameter.name} missing` }))));
  }
  if (op.body) {
    const broken = invalidValue(op.body, ctx).map((json): RequestBody => ({ json }));
    add(4, as('invalid-body', fc.tuple(valid, broken).map(([parts, body]) => ({ ...parts, body, breaks: 'body' }))));
    const malformed = fc.oneof(fc.constantFrom(...notJson), fc.string().filter((text) => !parsesAsJson(text)));
    add(1, as('malformed-json', fc.tuple(valid, malformed).map(([parts, raw]) => ({ ...parts, body: { raw, contentType: 'application/json' }, breaks: 'body is not JSON' }))));
    // A string body without a type goes out as text/plain (fetch), so that case is text/plain here.
    const mediaType = fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml');
    add(1, as('not-json', fc.tuple(valid, mediaType).map(([parts, contentType]) => ({ ...parts, body: { raw: JSON.stringify(jsonOf(parts.body)), contentType }, breaks: `sent as ${contentType}` }))));
    const padding = 'x'.repeat(MAX_BODY_BYTES);
    add(1, as('oversized', valid.map((parts) => ({ ...parts, body: { raw: JSON.stringify({ padding }), contentType: 'application/json' }, breaks: 'body over the size limit' }))));
  }
  return fc.oneof(...kinds).map(printable);
}

const PRINTED_LENGTH = 600;

/** fast-check prints a counterexample with this: the request, clipped (bodies can be 64 KiB). */
function printable(request: FuzzRequest): FuzzRequest {
  const shown = () => {
    const text = JSON.stringify(request);
    return text.length > PRINTED_LENGTH ? `${text.slice(0, PRINTED_LENGTH)}… (${text.length} characters)` : text;
  };
  return Object.assign(request, { [fc.toStringMethod]: shown });
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export const byteLength = (text: string) => new TextEncoder().encode(text).length;

export function jsonOf(body: RequestBody | undefined): unknown {
  return body && 'json' in body ? body.json : undefined;
}

/** The text sent and its media type. */
export function bodyText(body: RequestBody | undefined): { text?: string; contentType?: string } {
  if (!body) return {};
  if ('json' in body) return { text: JSON.stringify(body.json), contentType: 'application/json' };
  return { text: body.raw, contentType: body.contentType };
}

/** RFC 3986 encoding: `!'()*` too, so the URL is already in the form the Worker parses (and verifies signatures on). */
function encode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function urlOf(path: string, params: Record<string, string>, query: Record<string, string>): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => encode(params[name] ?? ''));
  const search = Object.entries(query).map(([name, value]) => `${encode(name)}=${encode(value)}`);
  return search.length ? `${filled}?${search.join('&')}` : filled;
}
