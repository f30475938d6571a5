import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { ApiError } from '../lib/errors';
import { MAX_JSON_DEPTH, TOO_DEEP, tooDeepField } from '../lib/json-bounds';

export const MAX_BODY_BYTES = 64 * 1024;

const limit64KiB = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new ApiError('PAYLOAD_TOO_LARGE', `The body exceeds ${MAX_BODY_BYTES} bytes`);
  },
});

export type LimitBodyOptions = {
  /** POST paths that take a file and enforce their own, larger limit while they stream it (the app names them). Default none. */
  uploads?: readonly RegExp[];
};

/**
 * 413 for bodies over 64 KiB, whether or not Content-Length is sent; a POST to an `uploads` path
 * passes untouched (the body is read, into memory, only by this limit otherwise).
 *
 * @example api.use('*', limitBody({ uploads: [/^\/api\/v1\/tenant\/[^/]+\/imports$/] }))
 */
export function limitBody({ uploads = [] }: LimitBodyOptions = {}) {
  return createMiddleware(async function limitBody(c, next) {
    if (c.req.method === 'POST' && uploads.some((path) => path.test(c.req.path))) return next();
    return limit64KiB(c, next);
  });
}

/**
 * Deepest nesting inside one top-level field of a JSON body that reaches anything past this guard.
 * Twice what free-form JSON may nest: the schemas enforce that limit, with the same message; this
 * only keeps bodies thousands of levels deep away from code that walks the body before validation
 * (the gateway's signature and idempotency fingerprint re-serialize it).
 */
export const MAX_BODY_NESTING = 2 * MAX_JSON_DEPTH;

/** The media types the routes read as JSON (as @hono/zod-openapi decides). */
const JSON_MEDIA_TYPE = /^application\/([a-z-.]+\+)?json/i;

/**
 * 422 VALIDATION_FAILED at the top-level field of a JSON body nested deeper than MAX_BODY_NESTING,
 * before authentication, like the size limit. The body text is read once here (Hono keeps it for
 * every later reader) and scanned, not parsed; a body that is not JSON goes on untouched.
 */
export const limitJsonNesting = createMiddleware(async function limitJsonNesting(c, next) {
  if (!c.req.raw.body || !JSON_MEDIA_TYPE.test(c.req.header('content-type') ?? '')) return next();
  const field = tooDeepField(await c.req.text(), MAX_BODY_NESTING);
  if (field !== undefined) throw new ApiError('VALIDATION_FAILED', 'The request is not valid', { errors: [{ path: field, message: TOO_DEEP }] });
  return next();
});
