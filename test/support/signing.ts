import { env } from 'cloudflare:test';
import { canonicalSignedUrl, signRequest, type SignedRequestInput } from '../../src/auth/signature';
import { unixSeconds } from '../../src/lib/time';
import { neverLogged } from './log-capture';

/** A signature must never reach a log line (test/support/log-capture.ts checks every line for it). */
function remembered(headers: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'x-tenant-signature') neverLogged(value);
  return headers;
}

/** Offsets stay well inside the window, so a request still passes when the test runs slowly. */
const MAX_OFFSET = Math.floor(Number(env.SIGNATURE_TOLERANCE_SECONDS) / 2);
const signed = new Set<string>();

/**
 * Signs a request with a signing string no earlier call of this isolate produced. A signature of a
 * write is single-use, and tests send identical writes within one second (two equal earns in a
 * row, 20 equal redemptions at once) that a real client would sign at different times: each repeat
 * gets the next timestamp of now, now - 1, now + 1, now - 2, ... A timestamp the test passes is
 * kept as is (tests of replays sign once and send the result several times).
 */
export async function signFresh(input: SignedRequestInput): Promise<Record<string, string>> {
  if (input.timestamp !== undefined) return remembered(await signRequest(input));
  const now = unixSeconds();
  const request = `${input.keyId} ${input.method.toUpperCase()} ${canonicalSignedUrl(input.url)} ${input.body ?? ''}`;
  for (let step = 0; step <= 2 * MAX_OFFSET; step += 1) {
    const timestamp = now + (step % 2 === 0 ? -step / 2 : (step + 1) / 2);
    const id = `${timestamp} ${request}`;
    if (signed.has(id)) continue;
    signed.add(id);
    return remembered(await signRequest({ ...input, timestamp }));
  }
  throw new Error(`more than ${2 * MAX_OFFSET + 1} identical signed requests in the tolerance window`);
}
