import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id, tenantId, timestamps } from './columns';

/**
 * The opening of a customer's XP onto the tenant's XP token (docs/decisions/0032-xp-token-added-to-live-program.md):
 * what the ledger held for the customer that the token did not mirror when the
 * token became active (`xp`, whole XP, negative when the chain holds more), and the operation that
 * mints (or burns) it. One per customer per activation of the token (`epoch`), so a chunk run twice
 * or raced by a customer's own debit never opens anyone twice.
 */
export const xpTokenOpenings = sqliteTable(
  'xp_token_openings',
  {
    id: id(),
    tenantId: tenantId(),
    onchainAssetId: text('onchain_asset_id').notNull(),
    userId: text('user_id').notNull(),
    epoch: integer('epoch').notNull(),
    xp: integer('xp').notNull(),
    /** Null when there is nothing to move (0 XP) or no wallet to move it to. */
    operationId: text('operation_id'),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    uniqueIndex('xp_token_openings_once').on(t.onchainAssetId, t.userId, t.epoch),
    index('xp_token_openings_tenant_user').on(t.tenantId, t.userId),
  ],
);

export type XpTokenOpening = typeof xpTokenOpenings.$inferSelect;
