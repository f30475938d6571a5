/**
 * A partner's backend script against the installed package (`npm install loyalty-sdk-<version>.tgz`),
 * type-checked with `tsc --strict` and run by `npm run test:sdk-package` (scripts/sdk-consumer.ts);
 * partner.mjs is the same in plain JavaScript. It creates a customer, earns XP with an idempotency
 * key (and sends the earn again: replayed, not earned twice), reads the transaction, then verifies
 * the webhook the API sent about it. No Node-only API: it type-checks without @types/node.
 */
import { createGatewayClient, LoyaltyApiError, verifyWebhook, type WebhookEvent } from '@loyalty/sdk';
// Written by the harness beside this script: the API's address, the key, the webhook inbox and secret.
import { settings } from './settings.js';

const gateway = createGatewayClient({ baseUrl: settings.api, keyId: settings.keyId, secret: settings.keySecret });
const run = settings.run;

const created = await gateway.gatewayUpsertCustomer({ body: { external_id: `partner-${run}`, email: `${run}@partner.example` } });
if (created.error) throw new LoyaltyApiError(created.response, created.error);
const customer = created.data.data;

const earn = () =>
  gateway.gatewayEarnXp({
    body: { user_id: customer.id, type: 'xp_earn', amount: '150', metadata: { order_id: `order-${run}` } },
    params: { header: { 'x-idempotency-key': `order-${run}-earn` } },
  });
const earned = await earn();
if (earned.error) throw new LoyaltyApiError(earned.response, earned.error);
const again = await earn();
if (again.error) throw new LoyaltyApiError(again.response, again.error);
if (again.data.data.id !== earned.data.data.id || again.response.headers.get('Idempotent-Replayed') !== 'true') {
  throw new Error('the earn sent again with its idempotency key was not replayed');
}

const read = await gateway.gatewayGetInternalTransaction({ params: { path: { internal_transaction_id: earned.data.data.id } } });
if (read.error) throw new LoyaltyApiError(read.response, read.error);
const transaction = read.data.data;
if (transaction.amount !== '150' || transaction.user_id !== customer.id) throw new Error(`read back ${JSON.stringify(transaction)}`);

/** The webhooks the receiver got, as they arrived: the raw body and the headers. */
type Received = { body: string; headers: Record<string, string> };
async function webhookAbout(transactionId: string): Promise<WebhookEvent> {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    const received = (await (await fetch(settings.webhookInbox)).json()) as Received[];
    for (const request of received) {
      const event = verifyWebhook(request.body, request.headers, settings.webhookSecret);
      if (event.type === 'xp.transaction.completed' && event.data.data?.id === transactionId) return event;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`no webhook about ${transactionId} within a minute`);
}
const event = await webhookAbout(transaction.id);
console.log(JSON.stringify({ customer: customer.id, transaction: transaction.id, status: transaction.status, webhook: event.id }));
