import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../api/types';
import { account, membership, page, programSettings, tier } from '../../test/fixtures';
import { envelope, FakeNetwork } from '../../test/fake-api';
import { signedInApp } from '../../test/render';

const at = '2026-11-21T12:00:00.000Z';
const reward: Schemas['Reward'] = {
  id: 'rw_1', title: 'Free coffee', description: '', xp_cost: '150', status: 'active', is_active: true, min_tier_id: 'tier_gold', onchain_asset_id: null, metadata: null, created_at: at, updated_at: at, stock: 5,
};
const redemption: Schemas['Redemption'] = {
  id: 'red_1', reward_id: 'rw_1', tenant_id: 'ten_1', user_id: 'cus_1', status: 'completed', xp_spent: '150', created_at: at, updated_at: at,
  reward: { id: 'rw_1', title: 'Free coffee', description: '', is_active: true, status: 'active', xp_cost: '150', onchain_asset: null },
  tenant: { id: 'ten_1', name: 'Acme Coffee', slug: 'acme-coffee' }, user: { id: 'cus_1', username: 'jane', email: 'jane@example.com' },
};

describe('tiers, rewards, redemptions', () => {
  it('a viewer sees tiers and rewards without any write control', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('viewer')]) }).on('listTiers', { data: page([tier()]) }).on('listRewards', { data: page([reward]) }).on('listOnchainAssets', { data: page([]) });
    await signedInApp(network, '/t/ten_1/tiers');
    expect(await screen.findByText('Free shipping')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New tier' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    await userEvent.click(screen.getByRole('link', { name: 'Rewards' }));
    expect(await screen.findByText('Free coffee')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Rewards' }));
    expect(screen.getByText('Gold')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New reward' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('a tier\'s color must be a hex color and its icon an https URL (checked before sending); a stored color of other CSS is not painted', async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('editor')]) })
      .on('listTiers', { data: page([tier({ id: 'tier_old', tier_name: 'Old', color: 'url(http://attacker.example/pixel)' })]) })
      .on('createTier', { status: 201, data: tier() });
    await signedInApp(network, '/t/ten_1/tiers');
    expect(await screen.findByText('Old')).toBeTruthy();
    expect((document.querySelector('.swatch') as HTMLElement).style.background).toBe('transparent');
    await userEvent.click(screen.getByRole('button', { name: 'New tier' }));
    const dialog = screen.getByRole('dialog', { name: 'New tier' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Gold');
    await userEvent.type(within(dialog).getByLabelText('Minimum lifetime XP'), '1000');
    await userEvent.type(within(dialog).getByLabelText('Color'), 'url(http://attacker.example/pixel)');
    await userEvent.type(within(dialog).getByLabelText('Icon URL'), 'http://cdn.example.com/gold.svg');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create tier' }));
    expect(await within(dialog).findByText('A hex color such as #FFD700 (#rgb, #rgba, #rrggbb or #rrggbbaa), or empty.')).toBeTruthy();
    expect(within(dialog).getByText('An https URL such as https://cdn.example.com/gold.svg, or empty.')).toBeTruthy();
    expect(network.sentTo('POST', '/tiers')).toEqual([]);
    await userEvent.clear(within(dialog).getByLabelText('Color'));
    await userEvent.type(within(dialog).getByLabelText('Color'), '#FFD700');
    await userEvent.clear(within(dialog).getByLabelText('Icon URL'));
    await userEvent.type(within(dialog).getByLabelText('Icon URL'), 'https://cdn.example.com/gold.svg');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create tier' }));
    await waitFor(() => expect(network.sentTo('POST', '/tiers')).toHaveLength(1));
    expect(network.sentTo('POST', '/tiers')[0]?.body).toMatchObject({ color: '#FFD700', icon: 'https://cdn.example.com/gold.svg' });
  });

  it('creates a reward with stock and tier gate; the API\'s field errors land next to their fields', async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('editor')]) })
      .on('listRewards', { data: page([]) })
      .on('listTiers', { data: page([tier()]) })
      .on('listOnchainAssets', { data: page([]) })
      .on('createReward', { status: 422, error: envelope('VALIDATION_FAILED', 'Validation failed', [{ path: 'min_tier_id', message: 'No such tier in this tenant' }]) });
    await signedInApp(network, '/t/ten_1/rewards');
    await userEvent.click(await screen.findByRole('button', { name: 'New reward' }));
    const dialog = screen.getByRole('dialog', { name: 'New reward' });
    await userEvent.type(within(dialog).getByLabelText('Title'), 'Free coffee');
    await userEvent.type(within(dialog).getByLabelText('XP cost'), '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create reward' }));
    expect(await within(dialog).findByText('A whole number from 1 to 1,000,000,000.')).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText('XP cost'));
    await userEvent.type(within(dialog).getByLabelText('XP cost'), '150');
    await userEvent.type(within(dialog).getByLabelText('Stock'), '10');
    await waitFor(() => expect(within(within(dialog).getByLabelText('Minimum tier')).getAllByRole('option')).toHaveLength(2));
    await userEvent.selectOptions(within(dialog).getByLabelText('Minimum tier'), 'tier_gold');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create reward' }));
    expect(await within(dialog).findByText('No such tier in this tenant')).toBeTruthy();
    expect(within(dialog).getByLabelText('Minimum tier').getAttribute('aria-invalid')).toBe('true');
    expect(network.sentTo('POST', '/rewards')[0]?.body).toEqual({ title: 'Free coffee', description: '', xp_cost: '150', status: 'draft', min_tier_id: 'tier_gold', onchain_asset_id: null, stock: 10, metadata: null });
  });

  it('a completed redemption can be canceled; the answer is shown', async () => {
    let current = redemption;
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('editor')]) })
      .on('getRedemption', () => ({ data: current }))
      .on('cancelRedemption', () => {
        current = { ...redemption, status: 'canceled' };
        return { data: current };
      });
    await signedInApp(network, '/t/ten_1/redemptions/red_1');
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel redemption' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Cancel redemption' })).getByRole('button', { name: 'Cancel redemption' }));
    expect(await screen.findByText('Redemption canceled; the XP went back to the customer.')).toBeTruthy();
    expect(await screen.findByText('canceled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel redemption' })).toBeNull();
  });
});

describe('program settings: points and tiers', () => {
  const stored = programSettings();
  function settingsApi(reply?: (body: Schemas['ProgramSettingsBody']) => { status: number; error: Schemas['ErrorEnvelope'] } | undefined) {
    return new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('getProgramSettings', { data: stored })
      .on('replaceProgramSettings', (_request, _params, body) => {
        const sent = body as Schemas['ProgramSettingsBody'];
        return reply?.(sent) ?? { data: { ...stored, ...sent, points: { ...stored.points, ...sent.points }, tiers: { ...stored.tiers, ...sent.tiers }, updated_at: '2026-11-22T08:00:00.000Z' } };
      });
  }
  const group = (name: string) => screen.getByRole('group', { name });

  it('a duration is a number and a unit (or off); the PUT carries its ISO 8601 string, the time zone as GET gave it', async () => {
    const network = settingsApi();
    await signedInApp(network, '/t/ten_1/program-settings');
    const validity = await screen.findByRole('group', { name: 'Validity' });
    expect(within(validity).getByText('P1Y')).toBeTruthy();
    await userEvent.clear(within(validity).getByRole('textbox', { name: 'Amount' }));
    await userEvent.type(within(validity).getByRole('textbox', { name: 'Amount' }), '18');
    await userEvent.selectOptions(within(validity).getByRole('combobox', { name: 'Unit' }), 'months');
    expect(within(validity).getByText('P18M')).toBeTruthy();
    await userEvent.selectOptions(within(group('Expiry notice')).getByRole('combobox', { name: 'Unit' }), 'hours');
    await userEvent.type(within(group('Expiry notice')).getByRole('textbox', { name: 'Amount' }), '36');
    await userEvent.selectOptions(within(group('Pending period')).getByRole('combobox', { name: 'Unit' }), 'off');
    expect(within(group('Pending period')).getByText('null')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save points and tiers' }));
    expect(await screen.findByText('Points and tiers saved. They apply to credits made from now on.')).toBeTruthy();
    expect(network.sentTo('PUT', '/program-settings').at(-1)?.body).toEqual({
      timezone: 'UTC',
      points: { pending_period: null, validity: 'P18M', expiry_rounding: 'end_of_month', expiry_notice: 'PT36H' },
      tiers: stored.tiers,
    });
  });

  it('a duration outside PT10S to P10Y is refused before sending; the API\'s 422 at points.validity shows at that field', async () => {
    const network = settingsApi((body) =>
      body.points?.validity === 'P2W' ? { status: 422, error: envelope('VALIDATION_FAILED', 'Invalid request', [{ path: 'points.validity', message: 'Validity must be longer than the pending period' }]) } : undefined);
    await signedInApp(network, '/t/ten_1/program-settings');
    const validity = await screen.findByRole('group', { name: 'Validity' });
    await userEvent.clear(within(validity).getByRole('textbox', { name: 'Amount' }));
    await userEvent.type(within(validity).getByRole('textbox', { name: 'Amount' }), '11');
    await userEvent.click(screen.getByRole('button', { name: 'Save points and tiers' }));
    expect(await within(validity).findByText('From 10 seconds to 10 years.')).toBeTruthy();
    expect(network.sentTo('PUT', '/program-settings')).toEqual([]);
    await userEvent.clear(within(validity).getByRole('textbox', { name: 'Amount' }));
    await userEvent.type(within(validity).getByRole('textbox', { name: 'Amount' }), '2');
    await userEvent.selectOptions(within(validity).getByRole('combobox', { name: 'Unit' }), 'weeks');
    await userEvent.click(screen.getByRole('button', { name: 'Save points and tiers' }));
    const error = await within(validity).findByText('Validity must be longer than the pending period');
    const amount = within(validity).getByRole('textbox', { name: 'Amount' });
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(amount.getAttribute('aria-describedby')).toContain(error.id);
    expect(within(group('Pending period')).queryByRole('alert')).toBeNull();
  });

  it('tiers on XP earned in a period show the period field, which is then required', async () => {
    const network = settingsApi();
    await signedInApp(network, '/t/ten_1/program-settings');
    await userEvent.selectOptions(await screen.findByLabelText('Tier basis'), 'earned_in_period');
    const period = group('Tier period');
    await userEvent.click(screen.getByRole('button', { name: 'Save points and tiers' }));
    expect(await within(period).findByText('Required with tiers on XP earned in a period.')).toBeTruthy();
    await userEvent.selectOptions(within(period).getByRole('combobox', { name: 'Unit' }), 'months');
    await userEvent.type(within(period).getByRole('textbox', { name: 'Amount' }), '12');
    await userEvent.selectOptions(screen.getByLabelText('Downgrade'), 'one_step');
    await userEvent.click(screen.getByRole('button', { name: 'Save points and tiers' }));
    await waitFor(() => expect(network.sentTo('PUT', '/program-settings')).toHaveLength(1));
    expect(network.sentTo('PUT', '/program-settings')[0]?.body).toMatchObject({ tiers: { basis: 'earned_in_period', period: 'P12M', downgrade: 'one_step', review: 'yearly' } });
  });

  it('a viewer reads the points and tiers in words and ISO 8601, without a form', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('viewer')]) }).on('getProgramSettings', { data: stored });
    await signedInApp(network, '/t/ten_1/program-settings');
    expect(await screen.findByText('14 days (P14D)')).toBeTruthy();
    expect(screen.getByText('1 year (P1Y)')).toBeTruthy();
    expect(screen.getByText('End of the month')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Points and tiers' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save points and tiers' })).toBeNull();
  });
});
