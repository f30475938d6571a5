import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { expect, it } from 'vitest';
import worker from '../../src/index';
import { insertReward } from '../support/rewards';
import { createTenant, shardD1 } from '../support/world';
import { seedTenantData } from './seed';

it('the hourly cron gives the planner statistics of the tables that grew', async () => {
  const tenant = await createTenant();
  const reward = await insertReward(tenant.id, { xpCost: 1, status: 'active' });
  await seedTenantData(tenant.id, 500, reward.id);
  const statistics = () => shardD1(tenant.id).prepare("SELECT count(*) AS n FROM sqlite_stat1 WHERE tbl = 'customers'").first<{ n: number }>();
  const before = await statistics().catch(() => ({ n: 0 }));
  expect(before?.n ?? 0).toBe(0);

  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: '0 * * * *', scheduledTime: Date.now() }), env, ctx);
  await waitOnExecutionContext(ctx);
  expect((await statistics())?.n).toBeGreaterThan(0);
});
