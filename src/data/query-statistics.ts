/**
 * Lets SQLite refresh the statistics its planner reads (`sqlite_stat1`) where they are missing or
 * stale, bounded in work by SQLite itself (`PRAGMA optimize` analyzes with a row limit). The hot
 * statements do not depend on it: their plans are fixed by their shape (data/scoping.ts, positions
 * and maintained counts), and test/scale checks them without statistics. It keeps every other
 * statement's plan honest as tenants grow.
 */
export async function refreshQueryStatistics(d1: D1Database): Promise<void> {
  await d1.prepare('PRAGMA optimize').run();
}
