import type { z } from '@hono/zod-openapi';
import { errorEnvelopeSchema } from '../../../src/lib/envelope';
import type { ErrorCode } from '../../../src/lib/errors';
import { MAX_BODY_BYTES } from '../../../src/middleware/body-limit';
import type { JsonResponse } from '../../support/http';
import { requestZod, responseZod, type Operation } from './document';
import { describedAlong, isPlainObject, violations, type Resolve } from './json-schema';
import type { Probe } from './probes';
import { bodyText, byteLength, isRefusedKind, jsonOf, type FuzzRequest } from './requests';

export type Exchange = {
  op: Operation;
  request: FuzzRequest;
  response: JsonResponse;
  /** Tables a refused write changed (empty for reads and accepted writes). */
  changed: string[];
  worldTenantId: string;
  foreignIds: Set<string>;
  /** A gateway write signed exactly like an earlier one that used its signature (same second, method, url, body). */
  signatureReused: boolean;
  resolve: Resolve;
};

/** Codes that say the request itself was unreadable or unauthenticated: never the answer to a valid, signed request. */
const NEVER_FOR_VALID: ErrorCode[] = [
  'MALFORMED_REQUEST',
  'UNAUTHENTICATED',
  'AUTH_INVALID_CREDENTIALS',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REQUIRED',
  'PAYLOAD_TOO_LARGE',
  'SIGNATURE_REPLAYED',
];

/** Statuses a refused kind must get exactly (authentication runs before anything but the body limit). */
const EXACT_STATUS: Partial<Record<FuzzRequest['kind'], number>> = { unauthenticated: 401, 'bad-credentials': 401 };

const issuesOf = (issues: z.core.$ZodIssue[]) => issues.map((issue) => `${issue.path.join('.') || '$'}: ${issue.message}`).join('; ');

function errorCodeOf(body: unknown): ErrorCode | undefined {
  const parsed = errorEnvelopeSchema.safeParse(body);
  return parsed.success ? parsed.data.error.code : undefined;
}

/** The response against the document and the route's zod schemas, whatever the request was. */
function documentProblems({ op, response, resolve }: Exchange): string[] {
  const { status } = response;
  const problems: string[] = [];
  if (status >= 500) problems.push(`answered ${status}`);
  if (!op.responses.has(status)) problems.push(`status ${status} is not documented (documented: ${[...op.responses.keys()].join(', ')})`);
  if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) problems.push(`content-type ${response.headers.get('content-type')} is not JSON`);
  const documented = op.responses.get(status);
  if (documented) {
    const broken = violations(documented, response.body, resolve, 'response');
    if (broken.length) problems.push(`body breaks the documented schema: ${broken.slice(0, 5).join('; ')}`);
  }
  const zod = responseZod(op.route, status) ?? (status >= 400 ? errorEnvelopeSchema : undefined);
  const parsed = zod?.safeParse(response.body);
  if (parsed && !parsed.success) problems.push(`body breaks the route's zod schema for ${status}: ${issuesOf(parsed.error.issues)}`);
  return problems;
}

/** The issues the route's own validator (which runs before the handler) finds in the request. */
function routeSchemaIssues({ op, request }: Exchange): Array<{ where: string; issue: z.core.$ZodIssue }> {
  const schemas = requestZod(op.route);
  const inputs: Array<[string, z.ZodType | undefined, unknown]> = [
    ['path', schemas.params, request.params],
    ['query', schemas.query, request.query],
    ['headers', schemas.headers, request.headers],
    ['body', schemas.body, jsonOf(request.body)],
  ];
  return inputs.flatMap(([where, schema, input]) => (schema?.safeParse(input).error?.issues ?? []).map((issue) => ({ where, issue })));
}

type RouteIssue = ReturnType<typeof routeSchemaIssues>[number];

/** Whether the document states, in prose on the field or around it, the rule a refinement enforces. */
function statedInProse({ op, resolve }: Exchange, { where, issue }: RouteIssue): boolean {
  if (where === 'body') return op.body !== undefined && describedAlong(op.body, issue.path, resolve);
  const [name, ...rest] = issue.path;
  const parameter = op.parameters.find((p) => p.name === String(name));
  return parameter !== undefined && (parameter.description !== undefined || describedAlong(parameter.schema, rest, resolve));
}

/**
 * Why the route's validator refuses inputs the document allows, for a reason the document does
 * not state (undefined when it states them all). A type, bound, pattern, format, enum or unknown
 * key must be in the schema; a refinement (zod `custom`: an expiry in the future, a checksummed
 * address, a rule between fields) may be said in a description instead
 * (docs/decisions/0038-documented-input-rules.md), and is then a business rule like any other 422.
 */
function schemaRefusal(exchange: Exchange, issues: RouteIssue[]): string | undefined {
  const unstated = issues.filter((entry) => entry.issue.code !== 'custom' || !statedInProse(exchange, entry));
  if (unstated.length === 0) return undefined;
  return unstated.map(({ where, issue }) => `${where}: ${issue.path.join('.') || '$'}: ${issue.message}`).join('; ');
}

function namesForeignId({ request, foreignIds }: Exchange): boolean {
  const body = jsonOf(request.body);
  const bodyIds = isPlainObject(body) ? Object.entries(body).filter(([key]) => key.endsWith('_id')).map(([, value]) => value) : [];
  return [...Object.values(request.params), ...bodyIds].some((value) => typeof value === 'string' && foreignIds.has(value));
}

/**
 * Whether the request used up its gateway signature: a write that got past authentication
 * (not 401, not 413, which runs first) with a well-formed idempotency key.
 */
export function usesSignature(op: Operation, response: JsonResponse): boolean {
  if (op.surface !== 'gateway' || op.method === 'GET' || response.status === 401 || response.status === 413) return false;
  return errorCodeOf(response.body) !== 'IDEMPOTENCY_KEY_REQUIRED';
}

/** Every way the exchange disagrees with the document or the rules of the suite (empty: fine). */
export function judge(exchange: Exchange): string[] {
  const { op, request, response, changed } = exchange;
  const { status } = response;
  const problems = documentProblems(exchange);
  const refused = status >= 400;
  if (refused && changed.length) problems.push(`refused write stored something (changed: ${changed.join(', ')})`);
  if (!refused && namesForeignId(exchange)) problems.push(`answered ${status} for an id of another tenant`);
  // The body limit runs before anything else, whatever else is wrong or right with the request.
  const bytes = byteLength(bodyText(request.body).text ?? '');
  if (bytes > MAX_BODY_BYTES) {
    if (status !== 413) problems.push(`a body of ${bytes} bytes answered ${status}, expected 413`);
    return problems;
  }
  const code = errorCodeOf(response.body);
  // A signature of a write is single-use: sent again with another idempotency key it is refused.
  if (exchange.signatureReused && !isRefusedKind(request.kind)) {
    if (code !== 'SIGNATURE_REPLAYED') problems.push(`a write signature used before, with a new idempotency key, answered ${status} ${code ?? ''}, expected 401 SIGNATURE_REPLAYED`);
    return problems;
  }
  if (isRefusedKind(request.kind)) {
    // A 5xx is already a problem above; a refusal must be a 4xx in the envelope, which the documented schemas check.
    if (!refused) problems.push(`accepted a request the document forbids (${request.kind}: ${request.breaks})`);
    const exact = EXACT_STATUS[request.kind];
    if (exact !== undefined && status !== exact) problems.push(`${request.kind} answered ${status}, expected ${exact}`);
    return problems;
  }
  if (code && NEVER_FOR_VALID.includes(code)) problems.push(`a document-valid request (${request.kind}) answered ${code}`);
  const issues = code === 'VALIDATION_FAILED' || request.kind === 'viewer' ? routeSchemaIssues(exchange) : [];
  const refusal = code === 'VALIDATION_FAILED' ? schemaRefusal(exchange, issues) : undefined;
  if (refusal) problems.push(`the document allows what the route's schema refuses (${refusal})`);
  // Validation runs before the handler checks the role: a business-rule 422 may come first.
  const write = op.method !== 'GET';
  const viewerExpected = issues.length ? [403, 422] : [403];
  if (request.kind === 'viewer' && write && request.params.tenantId === exchange.worldTenantId && !viewerExpected.includes(status)) {
    problems.push(`a viewer's write answered ${status}, expected ${viewerExpected.join(' or ')}`);
  }
  return problems;
}

const LOCATION_OF_ISSUES: Record<Probe['location'], string> = { body: 'body', query: 'query', header: 'headers' };

function atField(path: string, probe: Probe): boolean {
  if (probe.location === 'header') return path.toLowerCase() === probe.field.toLowerCase();
  return path === probe.field || path.startsWith(`${probe.field}.`);
}

/** The route's own validator's issues at the probed field, for the request as sent or with `value` there instead. */
function issuesAtField(exchange: Exchange, probe: Probe, value = probe.value): RouteIssue[] {
  const body = jsonOf(exchange.request.body);
  const replaced = probe.location === 'body' && value !== probe.value ? { json: withPath(body, probe.field.split('.'), value) } : exchange.request.body;
  const request = { ...exchange.request, ...(replaced && { body: replaced }) };
  return routeSchemaIssues({ ...exchange, request }).filter(({ where, issue }) => where === LOCATION_OF_ISSUES[probe.location] && atField(issue.path.join('.'), probe));
}

function withPath(json: unknown, path: string[], value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined || !isPlainObject(json)) return value;
  return { ...json, [head]: withPath(json[head], rest, value) };
}

/** The statuses the document gives for a refused header: those whose description names it, else 422. */
function headerStatuses(op: Exchange['op'], header: string): number[] {
  const naming = [...op.descriptions].filter(([status, text]) => status >= 400 && text.toLowerCase().includes(header.toLowerCase()));
  return naming.length ? naming.map(([status]) => status) : [422];
}

/**
 * The keyword probe's own verdict (probes.ts), beside `judge`'s. Outside the document: refused with
 * the status the document gives (422, or a header's own), with an error at the field. Inside: not
 * refused at the field for its shape: no 400 there, no issue there from the route's validator
 * (a refinement stated in prose is a business rule, docs/decisions/0038-documented-input-rules.md), and
 * no refusal that goes away without the duplicate where the document has no `uniqueItems`. A 422 at
 * the field the validator did not raise is a business rule (a chain that is not configured).
 */
export function probeProblems(exchange: Exchange, probe: Probe): string[] {
  // A write signed exactly like an earlier one got its 401 SIGNATURE_REPLAYED (judge checks it): nothing was validated.
  if (exchange.signatureReused) return [];
  const { response, op } = exchange;
  const errors = errorEnvelopeSchema.safeParse(response.body).data?.errors ?? [];
  const named = errors.some((entry) => atField(entry.path, probe));
  const what = `keyword probe at ${probe.location} ${probe.field} (${probe.keyword}) with ${JSON.stringify(probe.value)}`;
  if (!probe.inside) {
    const expected = probe.location === 'header' ? headerStatuses(op, probe.field) : [422];
    if (expected.includes(response.status) && named) return [];
    return [`${what}: the document forbids it (${probe.breaks.join('; ')}) but it answered ${response.status}${named ? '' : ` with no error at ${probe.field}`}, expected ${expected.join(' or ')} at ${probe.field}`];
  }
  const problems: string[] = [];
  if (response.status === 400 && named) problems.push(`${what}: the document allows it but it answered 400 at ${probe.field}`);
  const refused = issuesAtField(exchange, probe).filter((entry) => entry.issue.code !== 'custom' || !statedInProse(exchange, entry));
  if (refused.length) problems.push(`${what}: the document allows it but the route's schema refuses it (${refused.map(({ issue }) => issue.message).join('; ')})`);
  if (probe.withoutDuplicate) {
    const single = new Set(issuesAtField(exchange, probe, probe.withoutDuplicate).map(({ issue }) => issue.message));
    const forDuplicate = issuesAtField(exchange, probe).filter(({ issue }) => !single.has(issue.message));
    if (forDuplicate.length) problems.push(`${what}: the document has no uniqueItems at ${probe.field} but the route refuses the duplicate (${forDuplicate.map(({ issue }) => issue.message).join('; ')})`);
  }
  return problems;
}
