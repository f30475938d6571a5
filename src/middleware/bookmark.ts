import type { Context } from 'hono';
import { openSession, type Shard } from '../data/shards';
import { BOOKMARK_FORMAT } from '../domain/shards';
import { ApiError } from '../lib/errors';

/** Sent with every answer of a tenant's request, and back by the client with its next requests (docs/INTEGRATION.md). */
export const BOOKMARK_HEADER = 'X-D1-Bookmark';
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Where a surface's sessions start (docs/SCALING.md, "Reads from replicas"; decision 0110).
 * - `gateway`: always the primary. The API key's status is confirmed in the request's first round
 *   trip, and only the primary is sure to have seen a revocation made a moment ago: revocation
 *   takes effect on the very next request, at every location (CONTRACT.md, "API keys"). The primary
 *   is at least as new as any bookmark the client sends.
 * - `portal`: the bookmark the client sent, else the primary for a write and the nearest copy (a
 *   read replica) for a read. Its membership check reads the directory, never a replica.
 */
export type SessionStart = 'gateway' | 'portal';

/**
 * The request's session on its tenant's shard. The answer carries the session's last bookmark,
 * set once the route is done (`answerBookmark`). A malformed bookmark is a 400 naming the header,
 * before anything is read, on both surfaces.
 */
export function requestSession(c: Context, shard: Shard, surface: SessionStart) {
  const sent = c.req.header(BOOKMARK_HEADER);
  if (sent !== undefined && !BOOKMARK_FORMAT.test(sent)) {
    throw new ApiError('BAD_REQUEST', `The ${BOOKMARK_HEADER} header is not a bookmark this API sent: send back the last ${BOOKMARK_HEADER} you received, or none`, { path: BOOKMARK_HEADER });
  }
  if (surface === 'gateway' || (sent === undefined && WRITES.has(c.req.method.toUpperCase()))) return openSession(shard, 'first-primary');
  return openSession(shard, sent ?? 'first-unconstrained');
}

/** Puts the session's bookmark on the answer, whatever it is (an error's too: the request may have written before it failed). */
export function answerBookmark(c: Context, bookmark: string | null): void {
  if (bookmark !== null) c.res.headers.set(BOOKMARK_HEADER, bookmark);
}
