import type { z } from '@hono/zod-openapi';
import { errorEnvelopeSchema } from '../../../src/lib/envelope';
import type { ErrorCode } from '../../../src/lib/errors';
import { MAX_BODY_BYTES } from '../../../src/middleware/body-limit';
import type { JsonResponse } from '../../support/http';
import { requestZod, responseZod, type Operation } from './document';
import { isPlainObject, violations, type Resolve } from './json-schema';
import { bodyText, byteLength, isRefusedKind, jsonOf, type FuzzRequest } from './requests';

export type Exchange = {
  op: Operation;
  request: FuzzRequest;
  response: JsonResponse;
  /** Tables a refused write changed (empty for reads and accepted writes). */
  changed: string[];
  worldTenantId: string;
  foreignIds: Set<string>;
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

/**
 * Why the route's validator refuses, for a reason JSON Schema can state, inputs the document
 * allows (undefined when it does not). A `custom` issue (a zod refinement: an expiry in the
 * future, a checksummed address, a field that depends on another) is a business rule like any
 * other 422 and is left to the descriptions (docs/DECISIONS.md "The OpenAPI document"); a type,
 * bound, pattern, format, enum or unknown key is something the document must say.
 */
function schemaRefusal(issues: ReturnType<typeof routeSchemaIssues>): string | undefined {
  const structural = issues.filter(({ issue }) => issue.code !== 'custom');
  if (structural.length === 0) return undefined;
  return structural.map(({ where, issue }) => `${where}: ${issue.path.join('.') || '$'}: ${issue.message}`).join('; ');
}

function namesForeignId({ request, foreignIds }: Exchange): boolean {
  const body = jsonOf(request.body);
  const bodyIds = isPlainObject(body) ? Object.entries(body).filter(([key]) => key.endsWith('_id')).map(([, value]) => value) : [];
  return [...Object.values(request.params), ...bodyIds].some((value) => typeof value === 'string' && foreignIds.has(value));
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
  if (isRefusedKind(request.kind)) {
    // A 5xx is already a problem above; a refusal must be a 4xx in the envelope, which the documented schemas check.
    if (!refused) problems.push(`accepted a request the document forbids (${request.kind}: ${request.breaks})`);
    const exact = EXACT_STATUS[request.kind];
    if (exact !== undefined && status !== exact) problems.push(`${request.kind} answered ${status}, expected ${exact}`);
    return problems;
  }
  const code = errorCodeOf(response.body);
  if (code && NEVER_FOR_VALID.includes(code)) problems.push(`a document-valid request (${request.kind}) answered ${code}`);
  const issues = code === 'VALIDATION_FAILED' || request.kind === 'viewer' ? routeSchemaIssues(exchange) : [];
  const refusal = code === 'VALIDATION_FAILED' ? schemaRefusal(issues) : undefined;
  if (refusal) problems.push(`the document allows what the route's schema refuses (${refusal})`);
  // Validation runs before the handler checks the role: a business-rule 422 may come first.
  const write = op.method !== 'GET';
  const viewerExpected = issues.length ? [403, 422] : [403];
  if (request.kind === 'viewer' && write && request.params.tenantId === exchange.worldTenantId && !viewerExpected.includes(status)) {
    problems.push(`a viewer's write answered ${status}, expected ${viewerExpected.join(' or ')}`);
  }
  return problems;
}
