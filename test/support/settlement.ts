import { createExecutionContext, createMessageBatch, createScheduledController, env, getQueueResult, waitOnExecutionContext } from 'cloudflare:test';
import { and, eq, inArray } from 'drizzle-orm';
import { createDatabase, type Database } from '../../src/db/client';
import { onchainOperations } from '../../src/db/schema';
import type { Bindings, SettlementMessage } from '../../src/env';
import worker from '../../src/index';
import { shardBindings, shardsHolding } from './shards';
import { db } from './world';

/** The Worker's environment with this test file's own funded relayer (one key = one nonce sequence). */
export function relayerEnv(relayerPrivateKey: string, overrides: Partial<Bindings> = {}): Bindings {
  return { ...env, RELAYER_PRIVATE_KEY: relayerPrivateKey, ...overrides };
}

let messageSeq = 0;

/** Delivers settlement messages to the Worker's queue handler, as the Queues runtime would; returns acks and retries. */
export async function deliver(runEnv: Bindings, operationIds: readonly string[]) {
  const shardOf = await shardsHolding('onchain_operations', operationIds);
  const messages = operationIds.map((operationId) => ({ id: `msg-${(messageSeq += 1)}`, timestamp: new Date(), attempts: 1, body: { operationId, shard: shardOf(operationId) } satisfies SettlementMessage }));
  const batch = createMessageBatch<SettlementMessage>("loyalty-settlement", messages);
  const ctx = createExecutionContext();
  await worker.queue(batch, runEnv);
  return getQueueResult(batch, ctx);
}

/** Runs one cron of the Worker (receipts + indexer on '* * * * *'). */
export async function runCron(runEnv: Bindings, cron = '* * * * *') {
  const controller = createScheduledController({ cron, scheduledTime: Date.now() });
  const ctx = createExecutionContext();
  await worker.scheduled(controller, runEnv, ctx);
  await waitOnExecutionContext(ctx);
}

/** Operation ids in the given statuses, of the tenant or of every tenant on every shard (tests are the only writers of their tenants). */
export async function operationIds(statuses: (typeof onchainOperations.$inferSelect)['status'][], tenantId?: string): Promise<string[]> {
  const select = (database: Database) => database.select({ id: onchainOperations.id }).from(onchainOperations).where(and(inArray(onchainOperations.status, statuses), tenantId === undefined ? undefined : eq(onchainOperations.tenantId, tenantId)));
  const databases = tenantId === undefined ? shardBindings().map((shard) => createDatabase(shard.db)) : [db(tenantId)];
  return (await Promise.all(databases.map(select))).flat().map((row) => row.id);
}

/**
 * Drives settlement to the end as production would: delivers every queued operation, runs the
 * receipts cron, and repeats (a delivered reward releases its XP burn) until nothing is queued or
 * submitted for the tenant.
 */
export async function settleAll(runEnv: Bindings, tenantId: string, rounds = 10): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    const queued = await operationIds(['queued'], tenantId);
    if (queued.length > 0) await deliver(runEnv, queued);
    await runCron(runEnv);
    if ((await operationIds(['queued', 'submitted'], tenantId)).length === 0) return;
  }
  const stuck = await db(tenantId).select().from(onchainOperations).where(inArray(onchainOperations.status, ['queued', 'submitted']));
  throw new Error(`settlement of tenant ${tenantId} did not finish in ${rounds} rounds: ${JSON.stringify(stuck.filter((op) => op.tenantId === tenantId))}`);
}
