import { and, eq, sql } from 'drizzle-orm';
import { customers, eventEffects, internalTransactions, onchainOperations } from '../db/schema';
import { selectedRow } from './insert-select';
import { xpMirror, xpMirrorOperationRow } from './ledger';
import { reusableList, type Slots } from './reusable-statements';

/**
 * The ledger side of an event (CONTRACT.md, Events and earning rules): one `xp_earn` per effect that
 * gave XP, read from the `event_effects` rows the same batch just wrote (data/earning-evaluation.ts),
 * so the amounts are those the limits allowed at that instant. As data/ledger.ts does for a single
 * entry: with the tenant's XP token each entry is `initialized` with its mint and moves the balance
 * once it settles; otherwise it is `completed` and moves it now. Metadata `{event_id, rule_id}`.
 */
export const effectLedgerStatements = reusableList((db, $: Slots<{ tenantId: string; userId: string; eventId: string; now: string }>) => {
  const { tenantId, userId, eventId, now } = $;
  const mirror = xpMirror(tenantId, userId);
  const settles = sql`exists (${mirror})`;
  const e = eventEffects;
  const applied = and(eq(e.tenantId, tenantId), eq(e.eventId, eventId), sql`${e.amount} > 0`);
  const total = sql`(select coalesce(sum(${e.amount}), 0) from ${e} where ${applied})`;
  const credit = sql`(case when ${settles} then 0 else ${total} end)`;
  return [
    db
      .update(customers)
      .set({ xpBalance: sql`${customers.xpBalance} + ${credit}`, lifetimeXp: sql`${customers.lifetimeXp} + ${credit}`, updatedAt: sql`${now}` })
      .where(and(eq(customers.id, userId), eq(customers.tenantId, tenantId), sql`${total} > 0`)),
    db
      .insert(internalTransactions)
      .select(
        db
          .select(
            selectedRow(internalTransactions, {
              id: e.internalTransactionId,
              tenantId,
              userId,
              onchainAssetId: sql`(select asset_id from (${mirror}))`,
              redemptionId: null,
              type: 'xp_earn',
              amount: e.amount,
              metadata: sql`json_object('event_id', ${eventId}, 'rule_id', ${e.ruleId})`,
              notes: e.ruleName,
              status: sql`(case when ${settles} then 'initialized' else 'completed' end)`,
              seq: null,
              createdAt: now,
              updatedAt: now,
            }),
          )
          .from(e)
          .where(applied)
          .orderBy(e.position),
      )
      .returning({ id: internalTransactions.id, status: internalTransactions.status }),
    db.insert(onchainOperations).select(
      db
        .select(
          xpMirrorOperationRow({
            id: e.mirrorOperationId,
            tenantId,
            kind: 'mint',
            status: 'queued',
            internalTransactionId: e.internalTransactionId,
            redemptionId: null,
            dependsOnOperationId: null,
            amountDigits: e.amount,
            now,
          }),
        )
        .from(sql`${e}, (${mirror}) m`)
        .where(applied)
        .orderBy(e.position),
    ),
  ] as const;
});
