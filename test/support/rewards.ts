import { eq } from 'drizzle-orm';
import { onchainAssets, rewards, tierRules, type Reward } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { addXp } from './customers';
import { createCustomer } from './ledger';
import { db, gatewayCall, type TestApiKey } from './world';

/** A customer (active unless told) given `xp` as one earn entry through src/data/ledger.ts, so balance and ledger agree. */
export async function customerWithXp(tenantId: string, xp: number, options: Parameters<typeof createCustomer>[1] = {}): Promise<string> {
  const userId = await createCustomer(tenantId, { ...options, xp: undefined });
  if (xp > 0) await addXp(tenantId, userId, xp);
  return userId;
}

/** A reward inserted through the data layer (active, 100 XP, unlimited stock unless overridden). */
export async function insertReward(tenantId: string, values: Partial<typeof rewards.$inferInsert> = {}): Promise<Reward> {
  const [row] = await db(tenantId)
    .insert(rewards)
    .values({ id: newId('rwd'), tenantId, title: `Reward ${newId('t').slice(-6)}`, xpCost: 100, status: 'active', ...values })
    .returning();
  if (!row) throw new Error('reward insert returned nothing');
  return row;
}

/** A tier rule inserted through the data layer (rewards' tier gates, cohorts' tier predicates, redemption guards). */
export async function insertTier(tenantId: string, tierName: string, minXpThreshold: number): Promise<string> {
  const id = newId('tier');
  await db(tenantId).insert(tierRules).values({ id, tenantId, tierName, minXpThreshold });
  return id;
}

/** A valid-looking address that is unique per call (for rows inserted directly, never sent to a chain). */
export function randomAddress(): `0x${string}` {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return `0x${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** An erc721 asset row of the tenant, on its own contract address unless one is given (a contract belongs to one tenant). */
export async function insertAsset(tenantId: string, assetAddress: string = randomAddress()): Promise<string> {
  const id = newId('ast');
  await db(tenantId).insert(onchainAssets).values({
    id,
    tenantId,
    key: `nft-${id.slice(-6)}`,
    type: 'erc721',
    chainId: 31337,
    assetAddress,
    decimals: 0,
    name: 'Badge',
    symbol: 'BDG',
  });
  return id;
}

export async function rewardStock(tenantId: string, rewardId: string): Promise<number | null | undefined> {
  const [row] = await db(tenantId).select({ stock: rewards.stock }).from(rewards).where(eq(rewards.id, rewardId));
  return row?.stock;
}

/** `POST /gateway/redemptions` with a fresh idempotency key. */
export function redeem(key: TestApiKey, userId: string, rewardId: string) {
  return gatewayCall(key, 'POST', '/api/v1/gateway/redemptions', { body: { user_id: userId, reward_id: rewardId } });
}
