import type { Bindings, SettlementMessage } from '../env';
import { onMessageShard, runContext } from '../services/context';
import { settleOperation } from '../services/settlement';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';

/**
 * The settlement queue's consumer: each message names one operation; the service makes it happen
 * exactly once however often the message arrives. Messages of a batch settle concurrently (nonces
 * are allocated atomically in D1, so they never collide).
 */
export async function consumeSettlementBatch(batch: MessageBatch<SettlementMessage>, env: Bindings): Promise<void> {
  const run = runContext(env);
  await Promise.all(
    batch.messages.map(async (message) => {
      const operationId = typeof message.body?.operationId === 'string' ? message.body.operationId : undefined;
      if (!operationId) {
        log('warn', 'settlement message without an operation id dropped', { message_id: message.id });
        message.ack();
        return;
      }
      try {
        const outcome = await settleOperation(onMessageShard(run, message.body.shard), operationId);
        if (outcome.done) message.ack();
        else message.retry({ delaySeconds: outcome.retryAfterSeconds });
      } catch (error) {
        log('error', 'settlement message failed; retried', { operation_id: operationId, reason: reasonOf(error) });
        message.retry();
      }
    }),
  );
}
