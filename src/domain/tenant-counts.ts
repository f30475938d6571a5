/**
 * Names of the buckets of `tenant_counts` (src/db/sql/list-positions-and-counts.sql writes the same names from SQL): `all`,
 * `status=S`, `type=T`, `type=T&status=S`. A filter that no bucket answers (one customer, one
 * reward, an email...) is counted live on its own index instead.
 */
export type BucketFilters = { type?: string; status?: string };

export function countBucket(filters: BucketFilters): string {
  const parts = [filters.type === undefined ? undefined : `type=${filters.type}`, filters.status === undefined ? undefined : `status=${filters.status}`];
  const named = parts.filter((part) => part !== undefined);
  return named.length ? named.join('&') : 'all';
}
