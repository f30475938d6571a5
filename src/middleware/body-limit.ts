import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../lib/errors';

export const MAX_BODY_BYTES = 64 * 1024;

/** 413 for bodies over 64 KiB, whether or not Content-Length is sent. */
export const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new ApiError('PAYLOAD_TOO_LARGE', `The body exceeds ${MAX_BODY_BYTES} bytes`);
  },
});
