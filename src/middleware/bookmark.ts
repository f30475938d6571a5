import type { Context } from 'hono';
import { openSession, type Shard } from '../data/shards';
import { BOOKMARK_FORMAT } from '../domain/shards';
import { ApiError } from '../lib/errors';

/** Sent with every answer of a tenant's request, and back by the client with its next requests (docs/INTEGRATION.md). */
export const BOOKMARK_HEADER = 'X-D1-Bookmark';
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The request's session on its tenant's shard (docs/SCALING.md, "Reads from replicas"): from the
 * bookmark the client sent, else the primary for a write and the nearest replica for a read. The
 * answer carries the session's last bookmark, set once the route is done (`answerBookmark`). A
 * malformed bookmark is a 400 naming the header, before anything is read.
 */
export function requestSession(c: Context, shard: Shard) {
  const sent = c.req.header(BOOKMARK_HEADER);
  if (sent !== undefined && !BOOKMARK_FORMAT.test(sent)) {
    throw new ApiError('BAD_REQUEST', `The ${BOOKMARK_HEADER} header is not a bookmark this API sent: send back the last ${BOOKMARK_HEADER} you received, or none`, { path: BOOKMARK_HEADER });
  }
  return openSession(shard, { bookmark: sent, write: WRITES.has(c.req.method.toUpperCase()) });
}

/** Puts the session's bookmark on the answer, whatever it is (an error's too: the request may have written before it failed). */
export function answerBookmark(c: Context, bookmark: string | null): void {
  if (bookmark !== null) c.res.headers.set(BOOKMARK_HEADER, bookmark);
}
