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
    }),
  })
  .openapi(ERROR_ENVELOPE);

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** `data` of operations whose spec result is `{success: true}`. */
export const successFlagSchema = z.strictObject({ success: z.literal(true) });
