import type { EventEffect, ProgramEvent } from '../db/schema';
import type { EventProperties } from '../domain/earning-rules';
import type { EventView } from '../schemas/event';

type EffectRow = Pick<EventEffect, 'ruleId' | 'ruleName' | 'amount' | 'capped' | 'internalTransactionId'>;

export function toEffectView(effect: EffectRow): EventView['effects'][number] {
  return {
    rule_id: effect.ruleId,
    rule_name: effect.ruleName,
    amount: String(effect.amount),
    capped: effect.capped,
    internal_transaction_id: effect.internalTransactionId,
  };
}

/** An event with its effects, in evaluation order. */
export function toEventView(event: ProgramEvent, effects: readonly EffectRow[]): EventView {
  return {
    id: event.id,
    type: event.type,
    user_id: event.userId,
    occurred_at: event.occurredAt,
    properties: event.properties as EventProperties,
    reference: event.reference,
    xp_awarded: String(event.xpAwarded),
    effects: effects.map(toEffectView),
    created_at: event.createdAt,
  };
}
