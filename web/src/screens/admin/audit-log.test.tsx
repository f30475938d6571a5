import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../api/types';
import { account, membership, page } from '../../test/fixtures';
import { FakeNetwork } from '../../test/fake-api';
import { signedInApp } from '../../test/render';

const entry: Schemas['AuditEntry'] = {
  id: 'aud_1',
  at: '2026-11-21T12:00:00.000Z',
  actor: { type: 'account', id: 'acc_1', label: 'ada@example.com' },
  action: 'updateReward',
  target: { type: 'reward', id: 'rwd_1' },
  changes: { title: ['Mug', 'Big mug'], metadata: [null, { size: 'XL' }] },
  request_id: 'req_1',
};

describe('audit log', () => {
  it('lists entries, filters them, and shows a change before and after', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('admin')]) }).on('listAuditLog', { data: page([entry]) });
    const user = userEvent.setup();
    await signedInApp(network, '/t/ten_1/audit-log');
    const table = await screen.findByRole('table', { name: 'Audit entries' });
    expect(within(table).getByText('ada@example.com')).toBeTruthy();
    expect(within(table).getByText('title, metadata')).toBeTruthy();
    await user.click(within(table).getByRole('button', { name: 'Before and after' }));
    const changed = screen.getByRole('table', { name: 'Changed fields' });
    const title = within(changed).getByRole('row', { name: /title/ });
    expect(within(title).getByText('Mug')).toBeTruthy();
    expect(within(title).getByText('Big mug')).toBeTruthy();
    expect(within(changed).getByText('{"size":"XL"}')).toBeTruthy();

    const filters = screen.getByRole('form', { name: 'Audit log filters' });
    await user.type(within(filters).getByLabelText('Action'), 'updateReward');
    await user.type(within(filters).getByLabelText('Target id'), 'rwd_1');
    await user.click(within(filters).getByRole('button', { name: 'Apply filters' }));
    await screen.findByRole('table', { name: 'Audit entries' });
    const last = network.sentTo('GET', '/audit-log').at(-1);
    expect(last?.query.get('action')).toBe('updateReward');
    expect(last?.query.get('target_id')).toBe('rwd_1');
  });

  it('is a section only admins see', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('editor')]) }).on('listAttributes', { data: page([]) }).on('listCustomers', { data: page([]) });
    await signedInApp(network, '/t/ten_1/customers');
    const nav = await screen.findByRole('navigation', { name: 'Sections' });
    expect(within(nav).queryByText('Audit log')).toBeNull();
  });
});
