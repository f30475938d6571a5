import fc from 'fast-check';
import { validValue, type SchemaContext } from './arbitraries';
import type { Operation } from './document';
import { isPlainObject, typesOf, violations, type JsonSchema, type Resolve } from './json-schema';
import { notOfFormat, withDuplicate } from './mutations';
import { sendable, textViolations } from './params';
import { bodyText, jsonOf, urlOf, validParts, type FuzzRequest, type Parts } from './requests';

/**
 * Keyword probes (docs/decisions/0052-keyword-probes.md): for every keyword the document states on what an
 * operation takes (a number's `minimum`/`maximum`, exclusive or absent; a `format`; an array's
 * `uniqueItems`, or its absence; a header's `pattern`/`minLength`/`maxLength`), values just inside
 * and just outside, each sent once in an otherwise valid request to the world's own tenant. Random
 * runs meet a boundary by chance; probes meet every one on every run. Whether a value is inside is
 * the document checker's verdict (json-schema.ts), never the probe's intent.
 */
export type ProbeLocation = 'body' | 'query' | 'header';

export type Probe = {
  location: ProbeLocation;
  /** A dotted body path or a parameter name. */
  field: string;
  /** The keywords probed, as the document states them (`maximum 100`, `format email`, `no uniqueItems`). */
  keyword: string;
  inside: boolean;
  /** The value as sent (a parameter's text). */
  value: unknown;
  /** How the document checker finds an outside value wrong. */
  breaks: string[];
  /** For a duplicate in an array without `uniqueItems`: the array without it, which the route must treat alike. */
  withoutDuplicate?: unknown[];
  request: FuzzRequest;
};

/** Header values never handed out before in the run (an idempotency key is single-use per tenant). */
export type Fresh = (length: number) => string;
/** `pinned`: path parameters every probe sends as given (the world's own tenant, so nothing stops a probe before validation). */
export type ProbeContext = SchemaContext & { seed: number; fresh: Fresh; pinned: Record<string, string> };

type Site = { location: ProbeLocation; path: string[]; schema: JsonSchema };
type Candidate = { keyword: string; value: unknown; withoutDuplicate?: unknown[] };

/** Per site: the values a probe sends inside and outside (fixed ones first, then generated). */
const MOST_INSIDE = 6;
const MOST_OUTSIDE = 12;
/** Past every integer a JSON number holds exactly: without a documented maximum, still valid. */
const TWO_TO_53 = 2 ** 53;

const FORMAT_EXAMPLES: Record<string, string[]> = {
  email: ['jane@example.com', 'jane.doe+tag@example.co.uk', "o'brien@example.com", 'JANE.DOE@EXAMPLE.COM', 'first_last-1@mail.sub.example.io'],
  date: ['2030-01-31', '2028-02-29'],
  'date-time': ['2030-01-31T10:00:00Z', '2030-01-31T10:00:00.123+02:00'],
  uri: ['https://example.com/hooks/loyalty', 'https://example.com:8443/a?b=c'],
};

function deref(schema: JsonSchema, resolve: Resolve): JsonSchema {
  return schema.$ref ? deref(resolve(schema.$ref), resolve) : schema;
}

/** Every property of the body, nested objects included (through a union only when one branch is an object). */
function bodySites(schema: JsonSchema, resolve: Resolve, path: string[] = []): Site[] {
  const resolved = deref(schema, resolve);
  const here: Site[] = path.length ? [{ location: 'body', path, schema }] : [];
  const objects = (resolved.anyOf ?? resolved.oneOf ?? [resolved]).map((branch) => deref(branch, resolve)).filter((branch) => branch.properties);
  const [object] = objects.length === 1 ? objects : [];
  const nested = Object.entries(object?.properties ?? {}).flatMap(([key, property]) => bodySites(property, resolve, [...path, key]));
  return [...here, ...nested];
}

function numberCandidates(schema: JsonSchema): Candidate[] {
  const types = typesOf(schema) ?? [];
  if (schema.enum || schema.const !== undefined || !types.some((type) => type === 'integer' || type === 'number')) return [];
  const integer = !types.includes('number');
  const bound = (keyword: string, at: number, past: number): Candidate[] => [{ keyword, value: at }, { keyword, value: past }];
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  const lower = [
    ...(minimum === undefined ? [] : bound(`minimum ${minimum}`, minimum, minimum - 1)),
    ...(exclusiveMinimum === undefined ? [] : bound(`exclusiveMinimum ${exclusiveMinimum}`, exclusiveMinimum + 1, exclusiveMinimum)),
  ];
  const upper = [
    ...(maximum === undefined ? [] : bound(`maximum ${maximum}`, maximum, maximum + 1)),
    ...(exclusiveMaximum === undefined ? [] : bound(`exclusiveMaximum ${exclusiveMaximum}`, exclusiveMaximum - 1, exclusiveMaximum)),
  ];
  const huge = integer ? TWO_TO_53 : Number.MAX_VALUE;
  return [
    ...(lower.length ? lower : [{ keyword: 'no minimum', value: -huge }]),
    ...(upper.length ? upper : [{ keyword: 'no maximum', value: huge }]),
  ];
}

function formatCandidates(schema: JsonSchema, ctx: ProbeContext): Candidate[] {
  const resolved = deref(schema, ctx.resolve);
  const shaped = [resolved, ...(resolved.anyOf ?? resolved.oneOf ?? []).map((branch) => deref(branch, ctx.resolve))].filter((s) => s.format !== undefined);
  if (shaped.length === 0) return [];
  const keyword = `format ${[...new Set(shaped.map((s) => s.format))].join('|')}`;
  const examples = shaped.flatMap((s) => FORMAT_EXAMPLES[s.format ?? ''] ?? []);
  // What a pattern beside the format allows: where it is wider than the format, some of these break the format.
  const fromPatterns = shaped.flatMap((s) => (s.pattern ? fc.sample(fc.stringMatching(new RegExp(s.pattern)), { seed: ctx.seed, numRuns: 6 }) : []));
  const broken = shaped.flatMap((s) => notOfFormat[s.format ?? ''] ?? []);
  const generated = fc.sample(validValue(schema, ctx), { seed: ctx.seed, numRuns: 3 });
  return [...examples, ...fromPatterns, ...broken, ...generated].map((value) => ({ keyword, value }));
}

function arrayCandidates(schema: JsonSchema, ctx: ProbeContext): Candidate[] {
  const resolved = deref(schema, ctx.resolve);
  if (!typesOf(resolved)?.includes('array')) return [];
  const nonEmpty = validValue(resolved, ctx).filter((value): value is unknown[] => Array.isArray(value) && value.length > 0);
  const [items] = fc.sample(nonEmpty, { seed: ctx.seed, numRuns: 1 });
  if (!items) return [];
  if (resolved.uniqueItems) return [{ keyword: 'uniqueItems', value: withDuplicate(items, resolved.maxItems) }];
  return [{ keyword: 'no uniqueItems', value: [items[0], items[0]], withoutDuplicate: [items[0]] }];
}

/** Lengths at and past the bounds, and characters at and past the edges of printable ASCII (values inside are fresh). */
function headerCandidates(schema: JsonSchema, ctx: ProbeContext): Candidate[] {
  const resolved = deref(schema, ctx.resolve);
  const stated = (['pattern', 'minLength', 'maxLength'] as const).filter((keyword) => resolved[keyword] !== undefined);
  if (stated.length === 0) return [];
  const keyword = stated.map((name) => `${name} ${resolved[name]}`).join(', ');
  const { fresh } = ctx;
  const min = resolved.minLength ?? 1;
  const lengths = [fresh(min), 'k'.repeat(Math.max(min - 1, 0)), ...(resolved.maxLength === undefined ? [] : [fresh(resolved.maxLength), fresh(resolved.maxLength + 1)])];
  const characters = [`${fresh(8)} ~"`, `${fresh(8)}\tx`, `${fresh(8)}\u007f`, `${fresh(8)}\u0001`, `café-${fresh(8)}`];
  return [...lengths, ...characters].map((value) => ({ keyword, value }));
}

function candidatesAt(site: Site, ctx: ProbeContext): Candidate[] {
  const resolved = deref(site.schema, ctx.resolve);
  if (site.location === 'header') return headerCandidates(site.schema, ctx);
  const numbers = numberCandidates(resolved);
  const found = [...numbers, ...formatCandidates(site.schema, ctx), ...(site.location === 'body' ? arrayCandidates(site.schema, ctx) : [])];
  // Parameters are texts: numbers as the client writes them.
  return site.location === 'query' ? found.map((candidate) => ({ ...candidate, value: String(candidate.value) })) : found;
}

/** How the document finds the value wrong at the site (empty: inside); undefined when no client can send it there. */
function breaksAt(site: Site, value: unknown, op: Operation, resolve: Resolve): string[] | undefined {
  if (site.location === 'body') return violations(site.schema, value, resolve);
  const parameter = op.parameters.find((p) => p.in === site.location && p.name === site.path[0]);
  if (!parameter || typeof value !== 'string' || !sendable(parameter, value)) return undefined;
  return textViolations(parameter.schema, value, resolve);
}

function sitesOf(op: Operation, resolve: Resolve): Site[] {
  const parameters = op.parameters.filter((p) => p.in === 'query' || p.in === 'header');
  return [
    ...parameters.map((p): Site => ({ location: p.in === 'query' ? 'query' : 'header', path: [p.name], schema: p.schema })),
    ...(op.body ? bodySites(op.body, resolve) : []),
  ];
}

function withValue(base: Parts, site: Site, value: unknown): Parts | undefined {
  const [name = ''] = site.path;
  if (site.location === 'query') return { ...base, query: { ...base.query, [name]: String(value) } };
  if (site.location === 'header') return { ...base, headers: { ...base.headers, [name]: String(value) } };
  const json: unknown = structuredClone(jsonOf(base.body));
  let parent = json;
  for (const key of site.path.slice(0, -1)) parent = isPlainObject(parent) ? parent[key] : undefined;
  if (!isPlainObject(parent)) return undefined;
  parent[site.path[site.path.length - 1] ?? ''] = value;
  return { ...base, body: { json } };
}

/** Other headers get unused values where valid (an idempotency key is single-use: reused with another body it is refused). */
function freshHeaders(parts: Parts, op: Operation, site: Site, ctx: ProbeContext): Parts {
  const headers = { ...parts.headers };
  for (const parameter of op.parameters.filter((p) => p.in === 'header' && !(site.location === 'header' && p.name === site.path[0]))) {
    const text = ctx.fresh(32);
    if (textViolations(parameter.schema, text, ctx.resolve).length === 0) headers[parameter.name] = text;
  }
  return { ...parts, headers };
}

/**
 * The probes of one operation. Each goes on a base request sampled from the document, its pinned
 * path parameters set; bases are chosen so no two probes send the same url and body (a gateway
 * write's signature is single-use within its second).
 */
export function keywordProbes(op: Operation, ctx: ProbeContext): Probe[] {
  const pinned = Object.fromEntries(op.parameters.filter((p) => p.in === 'path' && p.name in ctx.pinned).map((p) => [p.name, ctx.pinned[p.name] ?? '']));
  const bases = fc.sample(validParts(op, ctx), { seed: ctx.seed, numRuns: 20 }).map((base) => ({ ...base, params: { ...base.params, ...pinned } }));
  const keyOf = (parts: Parts) => `${urlOf(op.path, parts.params, parts.query)}\n${bodyText(parts.body).text ?? ''}`;
  const sent = new Set<string>();
  const probes: Probe[] = [];
  for (const site of sitesOf(op, ctx.resolve)) {
    const field = site.path.join('.');
    const seen = new Set<string>();
    const counts = { inside: 0, outside: 0 };
    for (const candidate of candidatesAt(site, ctx)) {
      const shown = JSON.stringify(candidate.value);
      const breaks = breaksAt(site, candidate.value, op, ctx.resolve);
      if (breaks === undefined || seen.has(shown)) continue;
      const inside = breaks.length === 0;
      if (counts[inside ? 'inside' : 'outside'] >= (inside ? MOST_INSIDE : MOST_OUTSIDE)) continue;
      const options = bases.flatMap((base) => withValue(base, site, candidate.value) ?? []);
      const chosen = options.find((option) => !sent.has(keyOf(option))) ?? options[0];
      if (!chosen) continue;
      const parts = freshHeaders(chosen, op, site, ctx);
      seen.add(shown);
      sent.add(keyOf(parts));
      counts[inside ? 'inside' : 'outside'] += 1;
      const kind = inside ? 'valid' : (`invalid-${site.location}` as const);
      const request: FuzzRequest = { kind, ...(inside ? {} : { breaks: `keyword probe at ${site.location} ${field}` }), ...parts };
      const { keyword, value, withoutDuplicate } = candidate;
      probes.push({ location: site.location, field, keyword, inside, value, breaks, ...(withoutDuplicate && { withoutDuplicate }), request });
    }
  }
  return probes;
}
