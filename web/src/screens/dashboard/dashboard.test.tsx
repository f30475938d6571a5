import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { account, customer, membership, page, transaction } from '../../test/fixtures';
import { FakeNetwork } from '../../test/fake-api';
import { signedInApp } from '../../test/render';
import { bucketXp } from './data';

describe('dashboard', () => {
  it('buckets completed XP per UTC day: issued (earn, bonus, positive adjustments) and redeemed', () => {
    const days = bucketXp(
      [
        transaction({ amount: '100' }),
        transaction({ type: 'xp_bonus', amount: '50' }),
        transaction({ type: 'xp_admin_adjust', amount: '-20' }),
        transaction({ type: 'xp_redeem', amount: '-70' }),
        transaction({ amount: '999', status: 'failed' }),
        transaction({ amount: '5', created_at: '2026-11-21T23:59:59.000Z' }),
      ],
      new Date('2026-11-21T12:00:00.000Z'),
      3,
    );
    expect(days).toEqual([
      { day: '2026-11-19', issued: 0, redeemed: 0 },
      { day: '2026-11-20', issued: 150, redeemed: 70 },
      { day: '2026-11-21', issued: 5, redeemed: 0 },
    ]);
  });

  it('shows customers by status and tier, top rewards and countries, each with a text alternative', async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('viewer')]) })
      .on('listCustomers', (request) => {
        const status = new URL(request.url).searchParams.get('status');
        return { data: status ? page([], 1, status === 'active' ? 7 : 1) : page([customer(), customer({ id: 'cus_2', tier: null })]) };
      })
      .on('listInternalTransactions', { data: page([]) })
      .on('listRedemptions', { data: page([]) })
      .on('getTopRewards', { data: { tenant_id: 'ten_1', total_redemptions: 3, items: [{ redemption_count: 3, share_of_tenant_redemptions_percent: 100, reward: { id: 'rw_1', title: 'Free coffee', xp_cost: '150', status: 'active', is_active: true, onchain_asset_id: null, tenant_id: 'ten_1' } }] } })
      .on('getTopCountries', { data: { tenant_id: 'ten_1', total_active_tenant_customers: 8, items: [{ active_fans_count: 8, share_of_tenant_customers_percent: 100, country: { id: 'NL', code: 'NL', name: 'Netherlands', icon_url: 'https://flagcdn.com/nl.svg', status: 'active' } }] } });
    await signedInApp(network, '/t/ten_1');
    expect(await screen.findByText('active: 7')).toBeTruthy();
    expect(await screen.findByText('Gold: 1')).toBeTruthy();
    expect(screen.getByText('No tier: 1')).toBeTruthy();
    expect(await screen.findByText('Free coffee: 3 redemptions (100%)')).toBeTruthy();
    expect(await screen.findByText('Netherlands: 8 active customers (100%)')).toBeTruthy();
  });
});
