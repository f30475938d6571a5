import { count, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { cohortRecomputes, cohortRefreshes } from '../db/schema';
import { RECOMPUTE_CHUNK } from '../domain/cohort-recompute';
import { selectedRow } from './insert-select';

const ofTenant = (tenantId: string | undefined) => (tenantId === undefined ? sql`1` : sql`r.tenant_id = ${tenantId}`);

/**
 * The next chunk of the oldest pending re-evaluation (of `tenantId`, or of any tenant), as one
 * statement: it inserts the chunk's `cohort_refreshes` row, whose trigger (src/db/sql/cohort-recomputes.sql) does
 * the work and moves the job on. The chunk ends at the `size`-th candidate (in the job's lifetime
 * XP band) from the cursor, `size` following the cohort's predicate count, or after
 * `RECOMPUTE_CHUNK.positions` positions. Nothing pending: inserts nothing.
 */
export function recomputeChunkQuery(db: Database, tenantId?: string) {
  const { evaluations, customers, positions } = RECOMPUTE_CHUNK;
  const job = db.$with('job', {}).as(sql`
    select r.tenant_id, r.cohort_id, r.candidates, r.from_lifetime_xp, r.below_lifetime_xp, r.next_seq,
      min(${customers}, max(1, ${evaluations} / max(1, (
        select count(*) from cohort_predicates p where p.tenant_id = r.tenant_id and p.cohort_id = r.cohort_id)))) as size
    from cohort_recomputes r where ${ofTenant(tenantId)} order by r.requested_at, r.rowid limit 1`);
  const chunkEnd = sql`coalesce((
      select c.seq from customers c, job b
      where c.tenant_id = b.tenant_id and c.seq >= b.next_seq and c.seq < b.next_seq + ${positions}
        and (b.from_lifetime_xp is null or c.lifetime_xp >= b.from_lifetime_xp)
        and (b.below_lifetime_xp is null or c.lifetime_xp < b.below_lifetime_xp)
      order by c.seq limit 1 offset (select size - 1 from job)), j.next_seq + ${positions} - 1)`;
  const chunk = selectedRow(cohortRefreshes, {
    tenantId: sql`j.tenant_id`,
    cohortId: sql`j.cohort_id`,
    candidates: sql`j.candidates`,
    fromLifetimeXp: sql`j.from_lifetime_xp`,
    belowLifetimeXp: sql`j.below_lifetime_xp`,
    fromSeq: sql`j.next_seq`,
    toSeq: chunkEnd,
  });
  return db.insert(cohortRefreshes).select(db.with(job).select(chunk).from(sql`job j`));
}

/** How many re-evaluations are still pending (of `tenantId`, or of any tenant). */
export function pendingRecomputesQuery(db: Database, tenantId?: string) {
  const query = db.select({ value: count() }).from(cohortRecomputes);
  return tenantId === undefined ? query : query.where(eq(cohortRecomputes.tenantId, tenantId));
}
