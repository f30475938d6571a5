import { signRequest } from '../../../src/auth/signature';
import { BASE, callWorker, type JsonResponse } from '../../support/http';
import type { TestApiKey, TestMember } from '../../support/world';
import type { Operation } from './document';
import { bodyText, GARBLED_SIGNATURE, NOT_A_TOKEN, STALE_TIMESTAMP, urlOf, type FuzzRequest } from './requests';

export type Credentials = { owner: TestMember; viewer: TestMember; key: TestApiKey };

/** Ten minutes back: outside any signature tolerance window. */
const STALE_SECONDS = 600;

/** Changes one character well inside the signature (the last base64url character may carry only padding bits). */
function garble(text: string): string {
  const at = text.length - 10;
  return `${text.slice(0, at)}${text[at] === 'a' ? 'b' : 'a'}${text.slice(at + 1)}`;
}

async function gatewayHeaders(op: Operation, request: FuzzRequest, url: string, body: string | undefined, key: TestApiKey): Promise<Record<string, string>> {
  const timestamp = Math.floor(Date.now() / 1000) - (request.breaks === STALE_TIMESTAMP ? STALE_SECONDS : 0);
  const signed = await signRequest({ keyId: key.keyId, secret: key.secret, method: op.method, url, body, timestamp });
  if (request.breaks === GARBLED_SIGNATURE) signed['X-Tenant-Signature'] = garble(signed['X-Tenant-Signature'] ?? '');
  return signed;
}

function bearer(request: FuzzRequest, credentials: Credentials): Record<string, string> {
  const member = request.kind === 'viewer' ? credentials.viewer : credentials.owner;
  if (request.kind !== 'bad-credentials') return { authorization: `Bearer ${member.token}` };
  return { authorization: request.breaks === NOT_A_TOKEN ? 'Bearer not-a-jwt' : `Bearer ${garble(member.token)}` };
}

/**
 * Sends the request through the Worker, authenticated as its surface needs (or not, for the auth
 * kinds); `signature` is the gateway signature sent, if any.
 */
export async function send(op: Operation, request: FuzzRequest, credentials: Credentials): Promise<{ response: JsonResponse; signature?: string }> {
  const url = urlOf(op.path, request.params, request.query);
  const { text, contentType } = bodyText(request.body);
  const headers: Record<string, string> = { ...request.headers };
  if (contentType) headers['content-type'] = contentType;
  const signed = request.kind !== 'unauthenticated' && op.surface === 'gateway' ? await gatewayHeaders(op, request, url, text, credentials.key) : {};
  const bearerHeader = request.kind !== 'unauthenticated' && (op.surface === 'portal' || op.surface === 'account') ? bearer(request, credentials) : {};
  const response = await callWorker(new Request(`${BASE}${url}`, { method: op.method, headers: { ...headers, ...signed, ...bearerHeader }, body: text }));
  return { response, signature: signed['X-Tenant-Signature'] };
}
