import { configOf } from '../config';
import type { Bindings, WebhookMessage } from '../env';
import { onMessageShard, runContext } from '../services/context';
import { attemptDelivery } from '../services/webhook-deliveries';
import { webhookSettings } from '../services/webhook-endpoints';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';

/**
 * The webhook queue's consumer: each message names one delivery; the service attempts it at most
 * once per due time however often the message arrives. Retries follow the delivery's own schedule
 * in D1 (the minute cron hands due ones back to the queue), not the queue's redelivery.
 */
export async function consumeWebhookBatch(batch: MessageBatch<WebhookMessage>, env: Bindings): Promise<void> {
  const config = configOf(env);
  if (!config.ok) {
    // Named once by configOf; the messages wait for a fixed configuration.
    batch.retryAll({ delaySeconds: 60 });
    return;
  }
  const run = runContext(env);
  const settings = webhookSettings(config.config);
  await Promise.all(
    batch.messages.map(async (message) => {
      const deliveryId = typeof message.body?.deliveryId === 'string' ? message.body.deliveryId : undefined;
      if (!deliveryId) {
        log('warn', 'webhook message without a delivery id dropped', { message_id: message.id });
        message.ack();
        return;
      }
      try {
        await attemptDelivery(onMessageShard(run, message.body.shard), deliveryId, settings);
        message.ack();
      } catch (error) {
        log('error', 'webhook delivery attempt failed; retried', { delivery_id: deliveryId, reason: reasonOf(error) });
        message.retry({ delaySeconds: 30 });
      }
    }),
  );
}
