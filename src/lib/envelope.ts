import { z } from '@hono/zod-openapi';
import { errorStatus, type ErrorCode } from './errors';

/** `{success: true, data}`: the envelope of every successful response. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.strictObject({
    success: z.literal(true),
    data,
    message: z.string().optional(),
  });
}

/** The component name of the error envelope in the OpenAPI document. */
export const ERROR_ENVELOPE = 'ErrorEnvelope';

export const fieldErrorSchema = z.strictObject({ path: z.string(), message: z.string() });

export const errorEnvelopeSchema = z
  .strictObject({
    success: z.literal(false),
    data: z.null(),
    errors: z.array(fieldErrorSchema).min(1),
    message: z.string(),
    error: z.strictObject({
      code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      request_id: z.string().openapi({
        description:
          'The id of the request that got this answer, also its `X-Request-Id` response header and in our log lines: quote it when you report the error. ' +
          "An idempotent replay (`Idempotent-Replayed: true`) answers the first request's body byte for byte: its `request_id` names the first request, its `X-Request-Id` header the replay.",
        example: 'req_2bfy7kq4d5yjzq6w3x2m4n5p6r',
      }),
    }),
  })
  .openapi(ERROR_ENVELOPE);

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** `data` of operations whose spec result is `{success: true}`. */
export const successFlagSchema = z.strictObject({ success: z.literal(true) });
