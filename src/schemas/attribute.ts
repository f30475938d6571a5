import { z } from '@hono/zod-openapi';
import { attributeTypes } from '../db/schema';
import { dateTime } from './common';

export const attributeDefinitionSchema = z
  .strictObject({
    id: z.string(),
    key: z.string().openapi({ example: 'favorite_color' }),
    type: z.enum(attributeTypes),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .openapi('AttributeDefinition');

export type AttributeDefinitionView = z.infer<typeof attributeDefinitionSchema>;

export const createAttributeBodySchema = z
  .strictObject({
    key: z.string().min(1).max(200).openapi({
      example: 'favorite_color',
      description: 'Lowercase snake case, 1-64 characters; another case or spaces are normalized (with a warning)',
    }),
    type: z.enum(attributeTypes),
  })
  .openapi('CreateAttributeBody');

export type CreateAttributeInput = z.infer<typeof createAttributeBodySchema>;

/** Spec: attribute definition creation result. */
export const attributeCreatedSchema = z
  .strictObject({
    id: z.string(),
    warning: z.string().optional().openapi({ description: 'Present when the definition was accepted with a caveat' }),
  })
  .openapi('AttributeCreated');

export type AttributeCreatedView = z.infer<typeof attributeCreatedSchema>;

/** Spec: customer attribute value entry; `value` is rendered as a string (see docs/decisions/0017-attributes.md). */
export const attributeValueEntrySchema = z
  .strictObject({
    definition_id: z.string(),
    key: z.string(),
    type: z.enum(attributeTypes),
    value: z.string().nullable().openapi({ example: 'blue' }),
  })
  .openapi('AttributeValueEntry');

export type AttributeValueEntryView = z.infer<typeof attributeValueEntrySchema>;

/** The JSON shape only; the attribute's type is checked by the service, with a message per type. */
const attributeValue = z
  .union([z.string(), z.number(), z.boolean(), z.array(z.unknown()), z.null()], {
    error: 'Expected a string, number, boolean, array of strings or null',
  })
  .openapi({ description: 'Checked against the attribute type; null clears the value' });

/** Sets several values at once (portal and gateway). */
export const setAttributeValuesBodySchema = z
  .strictObject({
    values: z
      .record(z.string(), attributeValue)
      .refine((values) => Object.keys(values).length >= 1, 'Give at least one value')
      .refine((values) => Object.keys(values).length <= 100, 'Give at most 100 values')
      .openapi({ minProperties: 1, maxProperties: 100, example: { favorite_color: 'blue', vip_since: '2024-05-01', shoe_size: 42 } }),
  })
  .openapi('SetAttributeValuesBody');

export type SetAttributeValuesInput = z.infer<typeof setAttributeValuesBodySchema>;
