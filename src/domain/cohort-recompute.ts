/**
 * How much of a cohort re-evaluation one transaction may do (src/db/sql/cohort-recomputes.sql): what bounds the time
 * a rule save or tier-ladder change holds the database, whatever the tenant's size.
 */
export const RECOMPUTE_CHUNK = {
  /** Predicate evaluations: a chunk re-evaluates at most this many divided by the cohort's predicate count customers, */
  evaluations: 10_000,
  /** and never more than this many. */
  customers: 2_000,
  /** Customer positions a chunk looks at for candidates (a tier band skips the others at one row each). */
  positions: 20_000,
} as const;

/** Chunks one write request applies before it answers; what is left, the minute cron applies. */
export const REQUEST_RECOMPUTE_CHUNKS = 40;
/** Chunks one run of the minute cron applies, oldest job first (well under a Worker's 1,000 D1 queries). */
export const CRON_RECOMPUTE_CHUNKS = 400;
