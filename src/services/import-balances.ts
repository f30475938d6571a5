import type { ImportJob } from '../db/schema';
import { customersByExternalIdsQuery } from '../data/customers';
import { rulesVersionGuard } from '../data/earning-evaluation';
import type { RowError } from '../data/imports';
import { mirrorOperationsQuery } from '../data/ledger';
import { ledgerEntriesStatements, type LedgerEntry } from '../data/ledger-entries';
import type { TenantRules } from '../data/rule-cache';
import { parseDatetime } from '../domain/attributes';
import { newId } from '../lib/ids';
import { isoNow } from '../lib/time';
import { earnXpBodySchema } from '../schemas/xp';
import type { ServiceContext } from './context';
import { cellsOf, issueMessage, type ChunkPlan, type ImportRow } from './import-rows';
import { creditTimes } from './program-version';
import { enqueueOperations } from './settlement';

const { amount: amountSchema, notes: notesSchema } = earnXpBodySchema.shape;

/**
 * The statements of a balances chunk: each row is an `xp_bonus` credit of the customer with that
 * `external_id`, written by the ledger's own statements (data/ledger-entries.ts, as `POST
 * /gateway/xp` writes a credit; four for the whole chunk): the balance, lifetime XP and tier move with it, its point lot follows the
 * tenant's pending period, and with an XP token it is minted (settlement). The lot expires at the
 * row's `expires_at` when it has one, else as the tenant's settings say. `metadata.import_id`
 * names the job. Any status may receive an opening balance: it is what the member already had.
 * `rules`: the tenant's settings as cached, confirmed by the guard leading the batch.
 */
export async function planBalanceRows(ctx: ServiceContext, job: ImportJob, rows: readonly ImportRow[], rules: TenantRules): Promise<ChunkPlan> {
  const { db, tenantId } = ctx;
  const at = ctx.now();
  const now = isoNow(at);
  const cells = cellsOf(job, rows);
  const externalIds = cells.flatMap((row) => (row.ok ? [row.cells.get('external_id') ?? ''] : []));
  const customers = new Map((await customersByExternalIdsQuery(db, tenantId, externalIds)).map((customer) => [customer.externalId, customer.id]));
  const errors: RowError[] = [];
  const entries: LedgerEntry[] = [];
  for (const row of cells) {
    if (!row.ok) {
      errors.push(row.error);
      continue;
    }
    const fail = (message: string) => errors.push({ row: row.row, message });
    const externalId = row.cells.get('external_id');
    const amount = amountSchema.safeParse(row.cells.get('amount') ?? '');
    const notes = notesSchema.safeParse(row.cells.get('notes'));
    const expiry = expiryOf(row.cells.get('expires_at'), at);
    if (!externalId) fail('external_id: Required');
    else if (!amount.success) fail(`amount: ${issueMessage(amount.error.issues)}`);
    else if (!notes.success) fail(`notes: ${issueMessage(notes.error.issues)}`);
    else if (typeof expiry === 'string') fail(expiry);
    else {
      const userId = customers.get(externalId);
      if (!userId) {
        fail(`external_id: no customer "${externalId}"`);
        continue;
      }
      const lot = { lotId: newId('lot'), ...creditTimes(rules, at, expiry) };
      if (lot.expiresAt !== null && lot.expiresAt <= lot.availableAt) {
        fail(`expires_at: the points would expire before they become available (${lot.availableAt})`);
        continue;
      }
      entries.push({ id: newId('itx'), tenantId, userId, type: 'xp_bonus', amount: Number(amount.data), notes: notes.data, metadata: { import_id: job.id }, mirrorOperationId: newId('op'), lot });
    }
  }
  const ok = entries.length;
  if (ok === 0) return { statements: [], errors, ok };
  return {
    statements: [...ledgerEntriesStatements(db, tenantId, entries, now)],
    errors,
    ok,
    guard: rulesVersionGuard(db, { tenantId, version: rules.version }),
    readBack: mirrorOperationsQuery(db, tenantId, entries.map((entry) => entry.mirrorOperationId)),
    // With an XP token the credits wait for their mints; a mint not handed over here is re-enqueued by the receipts job.
    after: async (mirrored) => {
      const ids = (mirrored as { id: string }[]).map((operation) => operation.id);
      if (ids.length > 0) await enqueueOperations(ctx, ids);
    },
  };
}

/** A row's `expires_at`: none, the instant, or why it is refused (not an ISO 8601 date-time, or not in the future). */
function expiryOf(raw: string | undefined, now: Date): Date | undefined | string {
  if (raw === undefined) return undefined;
  const parsed = parseDatetime(raw);
  if (!parsed.ok) return `expires_at: ${parsed.message}`;
  const expiry = new Date(parsed.value);
  if (expiry <= now) return 'expires_at: must be in the future';
  return expiry;
}
