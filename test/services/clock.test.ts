import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customers, internalTransactions, tierRules } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { signIn } from '../../src/services/accounts';
import { runContext } from '../../src/services/context';
import { adjustXp } from '../../src/services/ledger';
import { createTier, updateTier } from '../../src/services/tiers';
import { createCustomer } from '../support/ledger';
import { createTenant, db, directory, services } from '../support/world';

/** A time no test would reach by accident: whatever a service stamps with it came from its context's clock. */
const SET = new Date('2031-05-04T03:02:01.123Z');
const at = (time: Date) => () => time;

describe('services read the time from their context (src/services/context.ts)', () => {
  it('a ledger entry and its balance move are stamped with the clock the test set', async () => {
    const tenant = await createTenant();
    const userId = await createCustomer(tenant.id);
    const view = await adjustXp(services(tenant.id, { now: at(SET) }), { userId, amount: 5, notes: 'clock' });
    expect(view.created_at).toBe(SET.toISOString());
    const [entry] = await db(tenant.id).select().from(internalTransactions).where(and(eq(internalTransactions.tenantId, tenant.id), eq(internalTransactions.id, view.id)));
    expect(entry).toMatchObject({ createdAt: SET.toISOString(), updatedAt: SET.toISOString() });
    const [customer] = await db(tenant.id).select({ updatedAt: customers.updatedAt }).from(customers).where(eq(customers.id, userId));
    expect(customer?.updatedAt).toBe(SET.toISOString());
  });

  it('a write and a later change of the same row each take the clock of their own context', async () => {
    const tenant = await createTenant();
    const later = new Date(SET.getTime() + 60_000);
    const tier = await createTier(services(tenant.id, { now: at(SET) }), { tier_name: 'Gold', min_xp_threshold: 100, benefits_description: '', color: '#FFD700', icon: 'star' });
    expect(tier.created_at).toBe(SET.toISOString());
    await updateTier(services(tenant.id, { now: at(later) }), tier.id, { tier_name: 'Gold', min_xp_threshold: 200, benefits_description: '', color: '#FFD700', icon: 'star' });
    const [row] = await db(tenant.id).select().from(tierRules).where(eq(tierRules.id, tier.id));
    expect(row).toMatchObject({ createdAt: SET.toISOString(), updatedAt: later.toISOString(), minXpThreshold: 200 });
  });

  it('a sign-in (account-level: a RunContext, no tenant) creates and refreshes the account with the clock of its context', async () => {
    const sub = newId('sub');
    const later = new Date(SET.getTime() + 60_000);
    const claims = { sub, email: `${sub}@example.com`, email_verified: false };
    const created = await signIn(runContext(env, { directory: directory(), now: at(SET) }), claims);
    expect(created).toMatchObject({ createdAt: SET.toISOString(), updatedAt: SET.toISOString() });
    const refreshed = await signIn(runContext(env, { directory: directory(), now: at(later) }), { ...claims, email_verified: true });
    expect(refreshed).toMatchObject({ emailVerified: true, createdAt: SET.toISOString(), updatedAt: later.toISOString() });
  });
});
