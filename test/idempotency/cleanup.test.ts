import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { idempotencyRecords } from '../../src/db/schema';
import worker from '../../src/index';
import { purgeExpiredIdempotencyRecords } from '../../src/jobs/idempotency-cleanup';
import { newId } from '../../src/lib/ids';
import { createDatabase, type Database } from '../../src/db/client';
import { everyShard } from '../support/world';

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

function record(tenantId: string, key: string, expiresAt: string, finished = true) {
  return {
    tenantId,
    key,
    method: 'POST',
    path: '/api/v1/gateway/xp',
    requestHash: 'hash',
    responseStatus: finished ? 201 : null,
    responseBody: finished ? '{}' : null,
    createdAt: iso(-1000),
    expiresAt,
  };
}

async function keysOf(db: Database, tenantId: string) {
  const rows = await db.select({ key: idempotencyRecords.key }).from(idempotencyRecords).where(eq(idempotencyRecords.tenantId, tenantId));
  return rows.map((row) => row.key).sort();
}

describe('idempotency cleanup (Cron Trigger)', () => {
  it('the hourly cron deletes expired records and abandoned claims, and keeps live ones, on every shard', async () => {
    const shards = everyShard().map((shard) => ({ db: createDatabase(shard.d1), tenantId: newId('ten') }));
    for (const { db, tenantId } of shards) {
      await db.insert(idempotencyRecords).values([
        record(tenantId, 'expired', iso(-60_000)),
        record(tenantId, 'abandoned-claim', iso(-1), false),
        record(tenantId, 'live', iso(3600_000)),
        record(tenantId, 'in-flight', iso(60_000), false),
      ]);
    }

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: '0 * * * *', scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);

    for (const { db, tenantId } of shards) expect(await keysOf(db, tenantId)).toEqual(['in-flight', 'live']);
  });

  it('works through a large backlog in bounded batches', async () => {
    const tenantId = newId('ten');
    const db = createDatabase(everyShard()[0]!.d1);
    const rows = Array.from({ length: 620 }, (_, i) => record(tenantId, `old-${i}`, iso(-60_000)));
    // D1 binds at most 100 parameters per statement: 10 rows of 9 columns each.
    const inserts = [];
    for (let i = 0; i < rows.length; i += 10) inserts.push(db.insert(idempotencyRecords).values(rows.slice(i, i + 10)));
    await db.batch(inserts as [(typeof inserts)[number], ...typeof inserts]);
    await db.insert(idempotencyRecords).values(record(tenantId, 'keep', iso(3600_000)));

    expect(await purgeExpiredIdempotencyRecords(db)).toBeGreaterThanOrEqual(620);
    expect(await keysOf(db, tenantId)).toEqual(['keep']);
  });
});
