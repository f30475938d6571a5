import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, eventEffects, programEvents } from '../db/schema';
import type { EventProperties } from '../domain/earning-rules';
import { reusable, type Slots } from './reusable-statements';
import { completionWhen, type CompletionValues } from './response-with-write';

export type NewEvent = {
  id: string;
  tenantId: string;
  userId: string;
  type: string;
  occurredAt: string;
  properties: EventProperties;
  reference: string | null;
  createdAt: string;
};

/** The event row, after its effects in the same batch: `xp_awarded` is their sum. Built once. */
export const eventInsert = reusable((db, $: Slots<NewEvent>) => {
  const e = eventEffects;
  return db.insert(programEvents).values({
    id: $.id,
    tenantId: $.tenantId,
    userId: $.userId,
    type: $.type,
    occurredAt: $.occurredAt,
    properties: $.properties,
    reference: $.reference,
    createdAt: $.createdAt,
    xpAwarded: sql`(select coalesce(sum(${e.amount}), 0) from ${e} where ${e.tenantId} = ${$.tenantId} and ${e.eventId} = ${$.id})`,
  });
});

/** A customer's status, for a batch that only reads (a dry run): none when not the tenant's. */
export function customerStatusRead(db: Database, tenantId: string, userId: string) {
  return db
    .select({ status: customers.status })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, userId)));
}

/**
 * The response of `POST /gateway/events`, stored with the event (data/response-with-write.ts): its
 * XP and effects are known only once the batch computed them. The service renders the response
 * with `"xp_awarded":"0","effects":[]`, which `created_at` (ASCII) and the envelope's end follow; SQL
 * cuts that known tail off and writes it again with the sum and the effects of the `event_effects`
 * rows, in the order and form views/event.ts renders them.
 */
export const eventResponseStored = completionWhen(
  () => sql`1`,
  ($: Slots<CompletionValues & { eventId: string; tenantId: string; createdAt: string }>) => {
    const e = eventEffects;
    const applied = sql`${e.tenantId} = ${$.tenantId} and ${e.eventId} = ${$.eventId}`;
    const effect = sql`json_object('rule_id', ${e.ruleId}, 'rule_name', ${e.ruleName}, 'amount', cast(${e.amount} as text),
      'capped', json(case when ${e.capped} then 'true' else 'false' end), 'internal_transaction_id', ${e.internalTransactionId})`;
    const end = sql`',"created_at":"' || ${$.createdAt} || '"}}'`;
    const rendered = sql`'"xp_awarded":"0","effects":[]' || ${end}`;
    return sql`substr(${$.responseBody}, 1, length(${$.responseBody}) - length(${rendered}))
      || '"xp_awarded":"' || (select coalesce(sum(${e.amount}), 0) from ${e} where ${applied}) || '","effects":'
      || (select json_group_array(json(x)) from (select ${effect} as x from ${e} where ${applied} order by ${e.position})) || ${end}`;
  },
);
