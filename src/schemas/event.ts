import { z } from '@hono/zod-openapi';
import {
  MAX_EVENT_AGE_DAYS,
  MAX_EVENT_LEAD_MINUTES,
  MAX_EVENT_PROPERTIES,
  MAX_PROPERTY_LIST_ITEM_LENGTH,
  MAX_PROPERTY_LIST_ITEMS,
  MAX_PROPERTY_STRING_LENGTH,
  MAX_REFERENCE_LENGTH,
  PROPERTY_KEY_PATTERN,
  skipReasons,
} from '../domain/earning-limits';
import { pageQuery } from '../lib/paging';
import { dateTime, optionalText, resourceId, xpString } from './common';
import { eventType } from './earning-rule';

const propertyValue = z.union([
  z.string().max(MAX_PROPERTY_STRING_LENGTH),
  z.number(),
  z.boolean(),
  z.array(z.string().max(MAX_PROPERTY_LIST_ITEM_LENGTH)).max(MAX_PROPERTY_LIST_ITEMS),
]);

/** The record's key rule and size in the document (zod-to-openapi renders neither for a record). */
const documentedKeys = { propertyNames: { type: 'string', pattern: PROPERTY_KEY_PATTERN.source, maxLength: 64 }, maxProperties: MAX_EVENT_PROPERTIES };

export const eventProperties = z
  .record(z.string().regex(PROPERTY_KEY_PATTERN, 'Property keys are 1-64 characters: a letter or "_", then letters, digits, "_", "." or "-"'), propertyValue)
  .refine((properties) => Object.keys(properties).length <= MAX_EVENT_PROPERTIES, `At most ${MAX_EVENT_PROPERTIES} properties`)
  .openapi('EventProperties', {
    ...documentedKeys,
    description: `A flat object of at most ${MAX_EVENT_PROPERTIES} properties; keys 1-64 characters (a letter or "_", then letters, digits, "_", "." or "-"); each value a string (at most ${MAX_PROPERTY_STRING_LENGTH} characters), a number, a boolean, or an array of at most ${MAX_PROPERTY_LIST_ITEMS} strings (each at most ${MAX_PROPERTY_LIST_ITEM_LENGTH}).`,
    example: { total: 45.5, currency: 'USD', skus: ['sku_1', 'sku_2'] },
  });

export type EventProperties = z.infer<typeof eventProperties>;

const occurredAt = dateTime.datetime({ offset: true }).openapi({
  description: `When it happened (default now): at most ${MAX_EVENT_AGE_DAYS} days in the past and ${MAX_EVENT_LEAD_MINUTES} minutes in the future. Limits count in the period that contains it.`,
});

export const recordEventBodySchema = z
  .strictObject({
    user_id: resourceId.openapi({ description: 'The customer id (`cus_...`)' }),
    type: eventType,
    occurred_at: occurredAt.optional(),
    properties: eventProperties.default({}),
    reference: optionalText(MAX_REFERENCE_LENGTH, 'one').min(1).optional().openapi({ description: 'Your own id for what happened (an order id), shown with the event' }),
  })
  .openapi('RecordEventBody');

export type RecordEventInput = z.infer<typeof recordEventBodySchema>;

export const dryRunQuery = z.object({
  dry_run: z.enum(['true', 'false']).default('false').openapi({ description: '`true`: evaluate the rules and answer 200 with the effects, writing nothing' }),
});

export const eventEffectSchema = z
  .strictObject({
    rule_id: z.string(),
    rule_name: z.string(),
    amount: xpString,
    capped: z.boolean().openapi({ description: 'A limit or budget cut the amount (to what still fit, possibly 0: then no transaction)' }),
    internal_transaction_id: z.string().nullable(),
  })
  .openapi('EventEffect');

export const eventSchema = z
  .strictObject({
    id: z.string(),
    type: z.string(),
    user_id: z.string(),
    occurred_at: dateTime,
    properties: eventProperties,
    reference: z.string().nullable(),
    xp_awarded: xpString,
    effects: z.array(eventEffectSchema),
    created_at: dateTime,
  })
  .openapi('Event');

export type EventView = z.infer<typeof eventSchema>;

/** A dry run: what the event would do now; no id, no transactions. */
export const eventDryRunSchema = eventSchema.omit({ id: true, created_at: true }).openapi('EventDryRun');
export type EventDryRunView = z.infer<typeof eventDryRunSchema>;

export const eventListQuery = pageQuery.extend({
  user_id: resourceId.optional(),
  type: eventType.optional(),
});

export type EventListQuery = z.infer<typeof eventListQuery>;

export const simulateBodySchema = z
  .strictObject({
    user_id: resourceId,
    type: eventType,
    properties: eventProperties.default({}),
    occurred_at: occurredAt.optional(),
  })
  .openapi('SimulateEventBody');

export type SimulateInput = z.infer<typeof simulateBodySchema>;

export const ruleOutcomeSchema = z
  .strictObject({
    rule_id: z.string(),
    rule_name: z.string(),
    priority: z.number().int(),
    applied: z.boolean(),
    amount: xpString.openapi({ description: 'XP it gives (after multiplier and caps); "0" when it does not apply' }),
    capped: z.boolean(),
    reason: z
      .string()
      .nullable()
      .openapi({ description: `Why it did not apply (null when it did): ${skipReasons.map((r) => (r === 'stopped_by' ? '`stopped_by:<rule_id>`' : `\`${r}\``)).join(', ')}` }),
  })
  .openapi('RuleOutcome');

export const simulationSchema = z
  .strictObject({
    user_id: z.string(),
    type: z.string(),
    occurred_at: dateTime,
    xp_awarded: xpString,
    rules: z.array(ruleOutcomeSchema).openapi({ description: 'Every rule of the event type, highest priority first' }),
  })
  .openapi('EventSimulation');

export type SimulationView = z.infer<typeof simulationSchema>;
