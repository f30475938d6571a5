import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Role, Schemas } from '../../api/types';
import { account, earningRule, membership, page, programSettings } from '../../test/fixtures';
import { envelope, FakeNetwork } from '../../test/fake-api';
import { signedInApp } from '../../test/render';

function rulesApi(role: Role, rules: Schemas['EarningRule'][] = [earningRule()]) {
  return new FakeNetwork()
    .on('getCurrentUser', { data: account([membership(role)]) })
    .on('listEarningRules', { data: page(rules) })
    .on('getProgramSettings', { data: programSettings({ timezone: 'Europe/Paris' }) });
}

const outcomes: Schemas['RuleOutcome'][] = [
  { rule_id: 'er_1', rule_name: 'Orders over $20', priority: 10, applied: true, amount: '25', capped: false, reason: null },
  { rule_id: 'er_2', rule_name: 'Weekend bonus', priority: 5, applied: false, amount: '0', capped: false, reason: 'stopped_by:er_1' },
  { rule_id: 'er_3', rule_name: 'First order', priority: 1, applied: false, amount: '0', capped: true, reason: 'capped' },
];

describe('earning rules list', () => {
  it('shows each rule with its status, event type, priority, effect and counters, and the limits\' time zone', async () => {
    await signedInApp(rulesApi('viewer'), '/t/ten_1/earning-rules');
    const row = (await screen.findByRole('link', { name: 'Orders over $20' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('order.paid')).toBeTruthy();
    expect(within(row).getByText('active')).toBeTruthy();
    expect(within(row).getByText('2 XP per total')).toBeTruthy();
    expect(within(row).getByText('1,234')).toBeTruthy();
    expect(within(row).getByText('56,789')).toBeTruthy();
    expect(await screen.findByText(/count in the program's time zone, Europe\/Paris/)).toBeTruthy();
  });

  it('filters by status and event type (sent once the type is one the API takes)', async () => {
    const network = rulesApi('editor');
    await signedInApp(network, '/t/ten_1/earning-rules');
    await screen.findByRole('link', { name: 'Orders over $20' });
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'paused');
    await waitFor(() => expect(network.sentTo('GET', '/earning-rules').at(-1)?.query.get('status')).toBe('paused'));
    await userEvent.type(screen.getAllByLabelText('Event type')[0] as HTMLElement, 'Order');
    expect(screen.getByText('Not an event type (e.g. order.paid).')).toBeTruthy();
    expect(network.sentTo('GET', '/earning-rules').some((sent) => sent.query.has('event_type'))).toBe(false);
    await userEvent.clear(screen.getAllByLabelText('Event type')[0] as HTMLElement);
    await userEvent.type(screen.getAllByLabelText('Event type')[0] as HTMLElement, 'order.paid');
    await waitFor(() => expect(network.sentTo('GET', '/earning-rules').at(-1)?.query.get('event_type')).toBe('order.paid'));
    expect(network.sentTo('GET', '/earning-rules').at(-1)?.query.get('status')).toBe('paused');
  });

  it('an editor pauses, archives and activates a rule (PATCH status), and deletes it after confirming', async () => {
    const network = rulesApi('editor', [earningRule(), earningRule({ id: 'er_2', name: 'Old promo', status: 'archived' })])
      .on('updateEarningRule', (_request, params, body) => ({ data: earningRule({ id: params.id ?? '', ...(body as { status: 'paused' }) }) }))
      .on('deleteEarningRule', { data: { success: true } });
    await signedInApp(network, '/t/ten_1/earning-rules');
    const active = (await screen.findByRole('link', { name: 'Orders over $20' })).closest('tr') as HTMLElement;
    const archived = screen.getByRole('link', { name: 'Old promo' }).closest('tr') as HTMLElement;
    expect(within(archived).queryByRole('button', { name: 'Archive' })).toBeNull();
    await userEvent.click(within(active).getByRole('button', { name: 'Pause' }));
    expect(await screen.findByText('Rule Orders over $20 paused.')).toBeTruthy();
    expect(network.sentTo('PATCH', '/earning-rules/er_1')[0]?.body).toEqual({ status: 'paused' });
    await userEvent.click(within(archived).getByRole('button', { name: 'Activate' }));
    await waitFor(() => expect(network.sentTo('PATCH', '/earning-rules/er_2')[0]?.body).toEqual({ status: 'active' }));
    await userEvent.click(within(active).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete earning rule' });
    expect(within(dialog).getByText(/archive it instead/)).toBeTruthy();
    expect(network.sentTo('DELETE', '/earning-rules/er_1')).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Rule deleted.')).toBeTruthy();
    expect(network.sentTo('DELETE', '/earning-rules/er_1')).toHaveLength(1);
  });

  it('a viewer gets no write control and no test panel', async () => {
    await signedInApp(rulesApi('viewer'), '/t/ten_1/earning-rules');
    await screen.findByRole('link', { name: 'Orders over $20' });
    for (const name of ['New rule', 'Pause', 'Archive', 'Delete', 'Test event']) expect(screen.queryByRole('button', { name })).toBeNull();
  });
});

describe('test an event', () => {
  it('sends the event to simulate and explains each rule: applied with its XP, or why not', async () => {
    const network = rulesApi('editor').on('simulateEarningRules', { data: { user_id: 'cus_1', type: 'order.paid', occurred_at: '2026-11-21T12:00:00.000Z', xp_awarded: '25', rules: outcomes } });
    await signedInApp(network, '/t/ten_1/earning-rules');
    const form = await screen.findByRole('form', { name: 'Test an event' });
    await userEvent.type(within(form).getByLabelText('Customer id'), 'cus_1');
    await userEvent.type(within(form).getByLabelText('Event type'), 'order.paid');
    const properties = within(form).getByLabelText('Properties (JSON)');
    await userEvent.clear(properties);
    await userEvent.click(properties);
    await userEvent.paste('{"total": 12.5');
    await userEvent.click(within(form).getByRole('button', { name: 'Test event' }));
    expect(within(form).getByText('Not valid JSON.')).toBeTruthy();
    expect(network.sentTo('POST', '/earning-rules/simulate')).toEqual([]);
    await userEvent.clear(properties);
    await userEvent.paste('{"total": 12.5, "skus": ["a"]}');
    await userEvent.click(within(form).getByRole('button', { name: 'Test event' }));
    const results = await screen.findByRole('table', { name: 'Rules for this event' });
    expect(network.sentTo('POST', '/earning-rules/simulate')[0]?.body).toEqual({ user_id: 'cus_1', type: 'order.paid', properties: { total: 12.5, skus: ['a'] } });
    expect(screen.getByText(/would be awarded now/).textContent).toContain('25 XP');
    const row = (name: string) => within(results).getByText(name).closest('tr') as HTMLElement;
    expect(within(row('Orders over $20')).getByText('applied')).toBeTruthy();
    expect(within(row('Weekend bonus')).getByText('Stopped by Orders over $20 (not stackable, higher priority).')).toBeTruthy();
    expect(within(row('First order')).getByText('A limit or the budget is used up.')).toBeTruthy();
    expect(within(row('First order')).getByText('yes')).toBeTruthy();
  });

  it('shows the API\'s refusal: an unknown customer on top, a bad property at the properties', async () => {
    let answer = 0;
    const network = rulesApi('editor').on('simulateEarningRules', () => {
      answer += 1;
      return answer === 1
        ? { status: 404, error: envelope('NOT_FOUND', 'Customer cus_404 not found') }
        : { status: 422, error: envelope('VALIDATION_FAILED', 'Invalid request', [{ path: 'properties.total', message: 'Must be a finite number' }]) };
    });
    await signedInApp(network, '/t/ten_1/earning-rules');
    const form = await screen.findByRole('form', { name: 'Test an event' });
    await userEvent.type(within(form).getByLabelText('Customer id'), 'cus_404');
    await userEvent.type(within(form).getByLabelText('Event type'), 'order.paid');
    await userEvent.click(within(form).getByRole('button', { name: 'Test event' }));
    expect(await within(form).findByText('Customer cus_404 not found')).toBeTruthy();
    await userEvent.click(within(form).getByRole('button', { name: 'Test event' }));
    const error = await within(form).findByText('Must be a finite number');
    expect(within(form).getByLabelText('Properties (JSON)').getAttribute('aria-describedby')).toContain(error.id);
  });
});

describe('program settings', () => {
  it('an admin changes the time zone; the PUT sends every other field back as GET gave it, and a 422 shows at the field', async () => {
    const stored = programSettings();
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('getProgramSettings', { data: stored })
      .on('replaceProgramSettings', (_request, _params, body) => {
        const zone = (body as { timezone: string }).timezone;
        if (zone === 'Mars/Olympus') return { status: 422, error: envelope('VALIDATION_FAILED', 'Invalid request', [{ path: 'timezone', message: 'Must be an IANA time zone, e.g. "Europe/Paris"' }]) };
        return { data: { ...stored, timezone: zone, updated_at: '2026-11-22T08:00:00.000Z' } };
      });
    await signedInApp(network, '/t/ten_1/program-settings');
    const field = await screen.findByRole('combobox', { name: 'Time zone' });
    await userEvent.clear(field);
    await userEvent.type(field, 'Mars/Olympus');
    await userEvent.click(screen.getByRole('button', { name: 'Save time zone' }));
    expect(await screen.findByText('Must be an IANA time zone, e.g. "Europe/Paris"')).toBeTruthy();
    await userEvent.clear(field);
    await userEvent.type(field, 'Europe/Paris');
    await userEvent.click(screen.getByRole('button', { name: 'Save time zone' }));
    expect(await screen.findByText('Time zone set to Europe/Paris.')).toBeTruthy();
    expect(network.sentTo('PUT', '/program-settings').at(-1)?.body).toEqual({ timezone: 'Europe/Paris', points: stored.points, tiers: stored.tiers });
  });

  it('a viewer reads the settings without a form', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('viewer')]) }).on('getProgramSettings', { data: programSettings({ timezone: 'Asia/Tokyo' }) });
    await signedInApp(network, '/t/ten_1/program-settings');
    expect(await screen.findByText('Asia/Tokyo')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save time zone' })).toBeNull();
  });
});
