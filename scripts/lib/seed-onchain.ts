/**
 * The onchain half of the demo seed, through the HTTP API only: the tenant's XP token and a badge
 * collection deployed by the platform, a reward delivering a badge, XP earned onchain by a few
 * customers, one badge redeemed, then a wait until those transactions are settled (links filled),
 * the indexer shows balances and the XP token reconciles to 0 with the ledger (the XP earned
 * before it was minted by its opening). Idempotent like the rest of the seed.
 */
import { apiCall, dataOf, type GatewayKey } from './api-client';
import { BADGE_COLLECTION, BADGE_REDEEMER, BADGE_REWARD, CUSTOMERS, ONCHAIN_EARNS, XP_TOKEN } from './demo-data';
import type { DemoState } from './dev-files';
import { onceKey, type Page, type Report } from './seed-report';

const DEPLOY_TIMEOUT_MS = 90_000;
const SETTLE_TIMEOUT_MS = 90_000;
const INDEX_TIMEOUT_MS = 60_000;

type Asset = { id: string; key?: string | null; status?: string; asset_address?: string | null; deploy_tx_hash?: string | null };
type ChainTx = { tx_hash?: string | null; txn_status?: string | null };
type InternalTx = {
  id: string;
  status: string;
  redemption_id: string | null;
  reward?: { title: string } | null;
  blockchain_transaction_links?: { blockchain_transaction?: ChainTx[] | null } | null;
};
type Balance = { balance: string; onchain_asset?: { id?: string; key?: string | null } | null };

export type OnchainSeedInput = {
  token: string;
  tenantId: string;
  gatewayKey: GatewayKey;
  chainId: number;
  /** external_id -> customer id, for the customers the seed created or found. */
  customerIds: ReadonlyMap<string, string>;
  report: Report;
};

/** Polls `probe` every second until it returns a value, or gives up with undefined. */
async function waitFor<T>(timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** The asset with this key: created (deploy path) if missing, then waited for until active. */
async function ensureDeployedAsset(input: OnchainSeedInput, body: Record<string, unknown>, label: string): Promise<Asset | undefined> {
  const { token, tenantId, report, chainId } = input;
  const base = `/tenant/${tenantId}/onchain-assets`;
  const created = await apiCall('POST', base, { token, body: { ...body, chain_id: chainId } });
  let asset = dataOf<Asset>(created);
  if (asset) report.ok(`${label} deployment queued`, `asset ${asset.id}`);
  else if (created.status === 409) {
    // Already there (key taken): a re-run; carry on with the existing asset.
    const listed = await apiCall('GET', `${base}?key=${String(body.key)}&limit=1`, { token });
    asset = dataOf<Page<Asset>>(listed)?.items[0];
    if (!asset) {
      report.fail(`find ${label} (key ${String(body.key)})`, listed);
      return undefined;
    }
  } else {
    report.fail(`create ${label}`, created);
    return undefined;
  }

  let last = asset;
  const active = await waitFor(DEPLOY_TIMEOUT_MS, async () => {
    const current = dataOf<Asset>(await apiCall('GET', `${base}/${asset.id}`, { token }));
    if (current) last = current;
    return current?.status === 'active' || current?.status === 'failed' || current?.status === 'inactive' ? current : undefined;
  });
  if (active?.status === 'active') {
    report.ok(`${label} active`, `${active.asset_address ?? '?'} on chain ${chainId}`);
    return active;
  }
  const why = active
    ? `status ${active.status}${active.deploy_tx_hash ? ` (deploy tx ${active.deploy_tx_hash})` : ''}; see the Worker log`
    : `still ${last.status ?? '?'} after ${DEPLOY_TIMEOUT_MS / 1000} s: is the queue consumer running?`;
  report.problem(`the ${label} did not deploy`, why);
  return undefined;
}

async function ensureBadgeReward(input: OnchainSeedInput, badgeId: string): Promise<string | undefined> {
  const { token, tenantId, report } = input;
  const listed = dataOf<Page<{ id: string; title: string }>>(await apiCall('GET', `/tenant/${tenantId}/rewards?limit=100`, { token }));
  const existing = listed?.items.find((reward) => reward.title === BADGE_REWARD.title);
  if (existing) {
    report.ok(`reward "${BADGE_REWARD.title}" already exists`);
    return existing.id;
  }
  const res = await apiCall('POST', `/tenant/${tenantId}/rewards`, { token, body: { ...BADGE_REWARD, status: 'active', onchain_asset_id: badgeId } });
  const reward = dataOf<{ id: string }>(res);
  if (!reward) {
    report.fail(`create reward "${BADGE_REWARD.title}"`, res);
    return undefined;
  }
  report.ok(`reward "${BADGE_REWARD.title}" created`, `${BADGE_REWARD.xp_cost} XP, delivers one ${BADGE_COLLECTION.symbol}`);
  return reward.id;
}

/** XP earned after the XP token exists, so it is minted; skipped once the customer's lifetime XP shows it. */
async function earnOnchain(input: OnchainSeedInput): Promise<string[]> {
  const { gatewayKey, customerIds, report } = input;
  const ids: string[] = [];
  for (const { external_id, entry } of ONCHAIN_EARNS) {
    const userId = customerIds.get(external_id);
    if (!userId) continue;
    const offchain = CUSTOMERS.find((c) => c.external_id === external_id)?.xp.reduce((sum, e) => sum + Number(e.amount), 0) ?? 0;
    const customer = dataOf<{ lifetime_xp: string; username?: string }>(await apiCall('GET', `/gateway/customers/${userId}`, { gatewayKey }));
    if (customer && Number(customer.lifetime_xp) >= offchain + Number(entry.amount)) {
      report.ok(`${external_id} already earned XP onchain`);
      continue;
    }
    const body = { user_id: userId, ...entry };
    const res = await apiCall('POST', '/gateway/xp', { gatewayKey, body, idempotencyKey: onceKey(`xp-onchain:${external_id}`, body) });
    const tx = dataOf<InternalTx>(res);
    if (!tx) report.fail(`${entry.type} ${entry.amount} XP (onchain) for ${external_id}`, res);
    else {
      ids.push(tx.id);
      report.ok(`${external_id} earned ${entry.amount} XP onchain`, `${tx.id}, ${tx.status}`);
    }
  }
  return ids;
}

/** The redeemer's badge redemption transaction: found if it exists, else made. */
async function redeemBadge(input: OnchainSeedInput, rewardId: string): Promise<string | undefined> {
  const { gatewayKey, customerIds, report } = input;
  const userId = customerIds.get(BADGE_REDEEMER);
  if (!userId) return undefined;
  const findTx = async (redemptionId?: string) => {
    const page = dataOf<Page<InternalTx>>(await apiCall('GET', `/gateway/internal-transactions?user_id=${userId}&type=xp_redeem&limit=100`, { gatewayKey }));
    return page?.items.find((tx) => (redemptionId ? tx.redemption_id === redemptionId : tx.reward?.title === BADGE_REWARD.title));
  };
  const existing = await findTx();
  if (existing) {
    report.ok(`${BADGE_REDEEMER} already redeemed "${BADGE_REWARD.title}"`, existing.id);
    return existing.id;
  }
  const body = { user_id: userId, reward_id: rewardId };
  const res = await apiCall('POST', '/gateway/redemptions', { gatewayKey, body, idempotencyKey: onceKey(`redeem-badge:${BADGE_REDEEMER}`, body) });
  const redemption = dataOf<{ id: string; status: string }>(res);
  if (!redemption) {
    report.fail(`${BADGE_REDEEMER} redeems "${BADGE_REWARD.title}"`, res);
    return undefined;
  }
  const tx = await findTx(redemption.id);
  report.ok(`${BADGE_REDEEMER} redeemed "${BADGE_REWARD.title}"`, `redemption ${redemption.id}, ${redemption.status}`);
  return tx?.id;
}

const linksOf = (tx: InternalTx) => tx.blockchain_transaction_links?.blockchain_transaction ?? [];

/** Waits until each transaction is completed with its blockchain transactions linked; false if one is not. */
async function waitSettled(input: OnchainSeedInput, ids: string[]): Promise<boolean> {
  const { gatewayKey, report } = input;
  let allSettled = true;
  for (const id of ids) {
    const done = await waitFor(SETTLE_TIMEOUT_MS, async () => {
      const tx = dataOf<InternalTx>(await apiCall('GET', `/gateway/internal-transactions/${id}`, { gatewayKey }));
      return tx && (tx.status === 'failed' || (tx.status === 'completed' && linksOf(tx).length > 0)) ? tx : undefined;
    });
    if (done?.status === 'completed') {
      report.ok(`${id} settled`, linksOf(done).map((l) => `${l.tx_hash ?? '?'} ${l.txn_status ?? ''}`.trim()).join(', '));
      continue;
    }
    allSettled = false;
    report.problem(
      `${id} not settled`,
      done ? 'status failed (see its blockchain_transaction_links and the Worker log)' : `not completed after ${SETTLE_TIMEOUT_MS / 1000} s: is the queue consumer running, and the every-minute cron (receipts)?`,
    );
  }
  return allSettled;
}

async function waitBalances(input: OnchainSeedInput, assetIds: string[]): Promise<void> {
  const { gatewayKey, customerIds, report } = input;
  const userId = customerIds.get(BADGE_REDEEMER);
  if (!userId) return;
  const balances = await waitFor(INDEX_TIMEOUT_MS, async () => {
    const page = dataOf<Page<Balance>>(await apiCall('GET', `/gateway/customers/${userId}/balances?limit=100`, { gatewayKey }));
    const items = page?.items ?? [];
    return assetIds.every((id) => items.some((b) => b.onchain_asset?.id === id)) ? items : undefined;
  });
  if (balances) report.ok(`${BADGE_REDEEMER}'s onchain balances indexed`, balances.map((b) => `${b.onchain_asset?.key ?? '?'} ${b.balance}`).join(', '));
  else report.problem(`${BADGE_REDEEMER}'s onchain balances`, `not indexed after ${INDEX_TIMEOUT_MS / 1000} s: is the every-minute cron running (npm run dev runs it every 3 s)?`);
}

type Reconciliation = { ledger_total: string; onchain_total: string; difference: string; total_supply: string | null; supply_difference: string | null };

/**
 * Waits until the XP token agrees with the ledger, supply included: the XP customers earned before
 * the token existed has been minted by its opening, and the indexer has seen it.
 */
async function waitReconciled(input: OnchainSeedInput, assetId: string): Promise<void> {
  const { token, tenantId, report } = input;
  const path = `/tenant/${tenantId}/onchain-assets/${assetId}/reconciliation`;
  let last: Reconciliation | undefined;
  const agreed = await waitFor(INDEX_TIMEOUT_MS, async () => {
    last = dataOf<Reconciliation>(await apiCall('GET', path, { token }));
    return last && last.difference === '0' && last.supply_difference === '0' ? last : undefined;
  });
  if (agreed) report.ok('XP token reconciled', `ledger ${agreed.ledger_total} = supply ${agreed.total_supply ?? '?'} (XP earned before the token minted by its opening)`);
  else report.problem('XP token reconciliation', `not 0 after ${INDEX_TIMEOUT_MS / 1000} s (last: difference ${last?.difference ?? '?'}, supply difference ${last?.supply_difference ?? '?'}): is the every-minute cron running?`);
}

/**
 * @example state.onchain = await seedOnchain({ token, tenantId, gatewayKey, chainId: 31337, customerIds, report });
 */
export async function seedOnchain(input: OnchainSeedInput): Promise<DemoState['onchain']> {
  const { report, chainId } = input;
  const xp = await ensureDeployedAsset(input, { ...XP_TOKEN }, 'XP token');
  if (!xp) return { chainId };
  const badge = await ensureDeployedAsset(input, { ...BADGE_COLLECTION }, 'badge collection');
  const onchain: NonNullable<DemoState['onchain']> = { chainId, xpToken: xp.asset_address ?? undefined, badge: badge?.asset_address ?? undefined };
  const rewardId = badge ? await ensureBadgeReward(input, badge.id) : undefined;

  const earned = await earnOnchain(input);
  const redeemTx = rewardId ? await redeemBadge(input, rewardId) : undefined;
  const toWait = [...earned, ...(redeemTx ? [redeemTx] : [])];
  if (toWait.length === 0) report.skip('onchain XP and badge redemption', 'nothing to settle');
  const settled = await waitSettled(input, toWait);
  const shown = redeemTx ?? earned[0];
  if (shown && settled) onchain.settledTransactionId = shown;
  if (settled && badge) await waitBalances(input, [xp.id, badge.id]);
  if (settled) await waitReconciled(input, xp.id);
  return onchain;
}
