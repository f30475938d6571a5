import { and, eq, sql } from 'drizzle-orm';
import { customers, eventEffects, internalTransactions, onchainOperations, pointLots } from '../db/schema';
import { selectedRow } from './insert-select';
import { xpMirror, xpMirrorOperationRow } from './xp-mirror';
import { creditLotRow, creditStatus, type LotTimes } from './point-lots';
import { reusableList, type Slots } from './reusable-statements';

/**
 * The ledger side of an event (CONTRACT.md, Events and earning rules): one `xp_earn` per effect that
 * gave XP, read from the `event_effects` rows the same batch just wrote (data/earning-evaluation.ts),
 * so the amounts are those the limits allowed at that instant. As data/ledger.ts does for a single
 * entry: with the tenant's XP token each entry is `initialized` with its mint and moves the balance
 * once it settles; otherwise it is `completed` and moves it now. Metadata `{event_id, rule_id}`.
 * Each entry has its lot (data/point-lots.ts), all with the event's times; through a pending
 * period they are `pending` and the activation job moves and mirrors them.
 */
type EffectValues = { tenantId: string; userId: string; eventId: string; now: string } & LotTimes;

export const effectLedgerStatements = reusableList((db, $: Slots<EffectValues>) => {
  const { tenantId, userId, eventId, now, pending } = $;
  const mirror = xpMirror(tenantId, userId);
  const settles = sql`exists (${mirror})`;
  const e = eventEffects;
  const applied = and(eq(e.tenantId, tenantId), eq(e.eventId, eventId), sql`${e.amount} > 0`);
  const total = sql`(select coalesce(sum(${e.amount}), 0) from ${e} where ${applied})`;
  const credit = sql`(case when ${pending} = 1 or ${settles} then 0 else ${total} end)`;
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
              onchainAssetId: sql`(case when ${pending} = 0 then (select asset_id from (${mirror})) end)`,
              redemptionId: null,
              type: 'xp_earn',
              amount: e.amount,
              metadata: sql`json_object('event_id', ${eventId}, 'rule_id', ${e.ruleId})`,
              notes: e.ruleName,
              status: creditStatus(pending, settles),
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
        .where(and(applied, sql`${pending} = 0`))
        .orderBy(e.position),
    ),
    db.insert(pointLots).select(
      db
        .select(
          creditLotRow({
            lotId: sql`'lot_' || lower(hex(randomblob(16)))`,
            pending,
            availableAt: $.availableAt,
            expiresAt: $.expiresAt,
            noticeAt: $.noticeAt,
            tenantId,
            userId,
            now,
            transactionId: e.internalTransactionId,
          }),
        )
        .from(sql`${e} join ${internalTransactions} t on t.id = ${e.internalTransactionId}`)
        .where(applied)
        .orderBy(e.position),
    ),
  ] as const;
});
