// partner.ts in plain JavaScript (Node 20, ES modules, no TypeScript): the same calls and checks,
// run by `npm run test:sdk-package` (scripts/sdk-consumer.ts) against the installed package.
import { createGatewayClient, LoyaltyApiError, verifyWebhook } from '@loyalty/sdk';
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

async function webhookAbout(transactionId) {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    const received = await (await fetch(settings.webhookInbox)).json();
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
