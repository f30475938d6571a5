import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CustomerStatus, Role } from '../../api/types';
import { account, customer, membership, page, pointLot, tier, transaction } from '../../test/fixtures';
import { envelope, FakeNetwork } from '../../test/fake-api';
import { signedInApp } from '../../test/render';

function customerApi(role: Role, status: CustomerStatus = 'active') {
  return new FakeNetwork()
    .on('getCurrentUser', { data: account([membership(role)]) })
    .on('getCustomer', { data: customer({ status }) })
    .on('listInternalTransactions', { data: page([]) })
    .on('getCustomerAttributes', { data: [{ definition_id: 'att_1', key: 'favorite_color', type: 'string', value: 'blue' }] })
    .on('listCustomerBalances', { data: page([]) })
    .on('listTiers', { data: page([tier()]) })
    .on('getCustomerEligibility', { data: { eligible: true } })
    .on('listRedemptions', { data: page([]) })
    .on('listEvents', { data: page([]) })
    .on('getCustomerPoints', { data: { xp_balance: '150', pending_xp: '0', lifetime_xp: '1200', expiring: [] } })
    .on('listCustomerPointLots', { data: page([]) });
}

describe('customers', () => {
  it('lists customers paged on the server with the filters in the query', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('viewer')]) }).on('listCustomers', { data: page([customer()], 1, 45) });
    await signedInApp(network, '/t/ten_1/customers');
    expect(await screen.findByRole('link', { name: 'user-42' })).toBeTruthy();
    expect(screen.getByText('Page 1 of 3 · 45 total')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Email'), 'jane@example.com');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'suspended');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(network.sentTo('GET', '/customers').at(-1)?.query.toString()).toBe('page=1&email=jane%40example.com&status=suspended&limit=20'));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(network.sentTo('GET', '/customers').at(-1)?.query.get('page')).toBe('2'));
  });

  it('the email filter follows the API\'s email rule: an address it would refuse shows why and is not sent', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('viewer')]) }).on('listCustomers', { data: page([customer()]) });
    await signedInApp(network, '/t/ten_1/customers');
    await screen.findByRole('link', { name: 'user-42' });
    const sent = network.sentTo('GET', '/customers').length;
    await userEvent.type(screen.getByLabelText('Email'), 'jane..doe@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('An email address.')).toBeTruthy();
    expect(network.sentTo('GET', '/customers')).toHaveLength(sent);
  });

  it.each([
    ['pending', ['Activate']],
    ['active', ['Suspend']],
    ['suspended', ['Reinstate']],
    ['reinstated', ['Suspend']],
  ] as const)('a %s customer is offered only %j', async (status, moves) => {
    await signedInApp(customerApi('editor', status), '/t/ten_1/customers/cus_1');
    const group = await screen.findByRole('group', { name: 'Change status' });
    expect(within(group).getAllByRole('button').map((button) => button.textContent)).toEqual(moves);
  });

  it('a status change is confirmed, sent, and a refusal shows the envelope message', async () => {
    const network = customerApi('editor', 'active').on('updateCustomer', { status: 409, error: envelope('INVALID_STATUS_TRANSITION', 'A customer cannot move from active to suspended right now') });
    await signedInApp(network, '/t/ten_1/customers/cus_1');
    await userEvent.click(await screen.findByRole('button', { name: 'Suspend' }));
    const dialog = screen.getByRole('dialog', { name: 'Suspend customer' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect((await screen.findAllByText('A customer cannot move from active to suspended right now')).length).toBeGreaterThan(0);
    expect(network.sentTo('PATCH', '/customers/cus_1')[0]?.body).toEqual({ status: 'suspended' });
  });

  it('an admin erases a person only after typing their external id; the request goes to /erase', async () => {
    const network = customerApi('admin').on('eraseCustomer', { data: customer({ email: null, username: null, external_id: 'erased_0123456789abcdef0123456789abcdef' }) });
    await signedInApp(network, '/t/ten_1/customers/cus_1');
    await userEvent.click(await screen.findByRole('button', { name: 'Erase this person' }));
    const dialog = screen.getByRole('dialog', { name: 'Erase this person' });
    const erase = within(dialog).getByRole('button', { name: 'Erase' }) as HTMLButtonElement;
    expect(erase.disabled).toBe(true);
    await userEvent.type(within(dialog).getByLabelText('Type the external id to confirm'), 'user-4');
    expect(erase.disabled).toBe(true);
    await userEvent.type(within(dialog).getByLabelText('Type the external id to confirm'), '2');
    expect(erase.disabled).toBe(false);
    await userEvent.click(erase);
    await waitFor(() => expect(network.sentTo('POST', '/customers/cus_1/erase')).toHaveLength(1));
  });

  it('an editor sees neither the erasure nor the data download (admins only)', async () => {
    await signedInApp(customerApi('editor'), '/t/ten_1/customers/cus_1');
    await screen.findByRole('group', { name: 'Change status' });
    expect(screen.queryByRole('group', { name: 'Personal data' })).toBeNull();
  });

  it('a viewer sees the customer but no write controls', async () => {
    await signedInApp(customerApi('viewer'), '/t/ten_1/customers/cus_1');
    expect(await screen.findByText('user-42')).toBeTruthy();
    await screen.findByLabelText('favorite_color (string)');
    expect(screen.queryByRole('group', { name: 'Change status' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'XP adjustment' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save attributes' })).toBeNull();
    expect((screen.getByDisplayValue('blue') as HTMLInputElement).disabled).toBe(true);
  });

  it('an XP adjustment checks the amount, then shows the API\'s field errors next to the fields', async () => {
    const network = customerApi('editor').on('adjustCustomerXp', {
      status: 409,
      error: envelope('INSUFFICIENT_XP', 'The balance would go below zero', [{ path: 'amount', message: 'At most 150 can be taken away' }]),
    });
    await signedInApp(network, '/t/ten_1/customers/cus_1');
    const form = await screen.findByRole('form', { name: 'XP adjustment' });
    await userEvent.type(within(form).getByLabelText('Amount'), '1.5');
    await userEvent.click(within(form).getByRole('button', { name: 'Adjust XP' }));
    expect(await within(form).findByText(/A whole number/)).toBeTruthy();
    expect(within(form).getByText('Required.')).toBeTruthy();
    expect(network.sentTo('POST', '/xp-adjustments')).toHaveLength(0);
    await userEvent.clear(within(form).getByLabelText('Amount'));
    await userEvent.type(within(form).getByLabelText('Amount'), '-500');
    await userEvent.type(within(form).getByLabelText('Notes'), 'Refund of order 7');
    await userEvent.click(within(form).getByRole('button', { name: 'Adjust XP' }));
    expect(await within(form).findByText('At most 150 can be taken away')).toBeTruthy();
    expect(within(form).getByText('The balance would go below zero')).toBeTruthy();
    expect(network.sentTo('POST', '/xp-adjustments')[0]?.body).toEqual({ amount: '-500', notes: 'Refund of order 7' });
  });

  it('shows the customer\'s events with the XP each rule gave', async () => {
    const event = {
      id: 'evt_1', type: 'order.paid', user_id: 'cus_1', occurred_at: '2026-11-21T12:00:00.000Z', properties: { total: 45.5 }, reference: 'order-7', xp_awarded: '150', created_at: '2026-11-21T12:00:01.000Z',
      effects: [
        { rule_id: 'er_1', rule_name: 'Orders over $20', amount: '100', capped: false, internal_transaction_id: 'itx_1' },
        { rule_id: 'er_2', rule_name: 'Gold bonus', amount: '50', capped: true, internal_transaction_id: 'itx_2' },
      ],
    };
    const network = customerApi('viewer').on('listEvents', { data: page([event]) });
    await signedInApp(network, '/t/ten_1/customers/cus_1');
    const row = (await screen.findByText('order-7')).closest('tr') as HTMLElement;
    expect(within(row).getByText('order.paid')).toBeTruthy();
    expect(within(row).getByText('150')).toBeTruthy();
    expect(within(row).getByText('Orders over $20: 100 XP')).toBeTruthy();
    expect(within(row).getByText('Gold bonus: 50 XP (capped)')).toBeTruthy();
    expect(network.sentTo('GET', '/events')[0]?.query.get('user_id')).toBe('cus_1');
  });

  describe('points', () => {
    it('the XP card shows spendable, pending and lifetime XP and what expires when', async () => {
      const expiring = [{ expires_at: '2026-11-30T23:59:59.999Z', amount: '60' }, { expires_at: '2026-12-31T23:59:59.999Z', amount: '1500' }];
      const network = customerApi('viewer').on('getCustomerPoints', { data: { xp_balance: '150', pending_xp: '40', lifetime_xp: '1200', expiring } });
      await signedInApp(network, '/t/ten_1/customers/cus_1');
      const pending = (await screen.findByText('Pending XP')).nextElementSibling as HTMLElement;
      expect(pending.textContent).toMatch(/^40 /);
      expect((screen.getByText('Spendable XP').nextElementSibling as HTMLElement).textContent).toBe('150');
      const list = screen.getByRole('list', { name: 'Expiring' });
      expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['60 XP on 30 Nov 2026, 23:59 UTC', '1,500 XP on 31 Dec 2026, 23:59 UTC']);
    });

    it('on tiers earned in a period the XP card shows the review the tier is kept until', async () => {
      const network = customerApi('viewer').on('getCustomer', { data: customer({ tier_valid_until: '2027-12-01T00:00:00.000Z' }) });
      await signedInApp(network, '/t/ten_1/customers/cus_1');
      const kept = (await screen.findByText('Tier kept until')).nextElementSibling as HTMLElement;
      expect(kept.textContent).toMatch(/^1 Dec 2027, 00:00 UTC/);
      expect((screen.getByText('Tier').nextElementSibling as HTMLElement).textContent).toBe('Gold');
    });

    it('a customer on lifetime XP shows its tier without a review date', async () => {
      await signedInApp(customerApi('viewer'), '/t/ten_1/customers/cus_1');
      expect((await screen.findByText('Tier')).nextElementSibling?.textContent).toBe('Gold');
      expect(screen.queryByText('Tier kept until')).toBeNull();
    });

    it('the point lots table shows each lot and filters by status (the request carries status=)', async () => {
      const lot = pointLot({ amount: '100', remaining: '35', status: 'active', available_at: '2026-11-21T12:00:00.000Z', expires_at: null });
      const network = customerApi('viewer').on('listCustomerPointLots', { data: page([lot]) });
      await signedInApp(network, '/t/ten_1/customers/cus_1');
      const table = await screen.findByRole('table', { name: 'Point lots' });
      const row = (await within(table).findByText('35')).closest('tr') as HTMLElement;
      expect([...row.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual(['100', '35', 'active', '21 Nov 2026, 12:00 UTC', 'Never', 'itx_1']);
      expect(network.sentTo('GET', '/customers/cus_1/point-lots')[0]?.query.has('status')).toBe(false);
      await userEvent.selectOptions(screen.getByLabelText('Lot status'), 'expired');
      await waitFor(() => expect(network.sentTo('GET', '/customers/cus_1/point-lots').at(-1)?.query.toString()).toBe('page=1&limit=20&status=expired'));
    });

    it('the ledger words expiry and reversal, links a reversal to its credit, and dates a pending credit by its lot', async () => {
      const ledger = [
        transaction({ id: 'itx_9', type: 'xp_expire', amount: '-30' }),
        transaction({ id: 'itx_8', type: 'xp_reversal', amount: '-20', metadata: { reversed_transaction_id: 'itx_2' } }),
        transaction({ id: 'itx_2', type: 'xp_earn', amount: '50', status: 'pending' }),
        transaction({ id: 'itx_3', type: 'xp_bonus', amount: '5', status: 'pending' }),
      ];
      const network = customerApi('viewer')
        .on('listInternalTransactions', { data: page(ledger) })
        .on('listCustomerPointLots', { data: page([pointLot({ internal_transaction_id: 'itx_2', status: 'pending', available_at: '2026-12-05T12:00:00.000Z' })]) })
        .on('getInternalTransaction', (_, params) => ({ data: ledger.find((entry) => entry.id === params.internal_transaction_id) ?? transaction() }));
      await signedInApp(network, '/t/ten_1/customers/cus_1');
      const table = await screen.findByRole('table', { name: 'Ledger' });
      const rowOf = (id: string) => within(table).getByRole('button', { name: `Details of transaction ${id}` }).closest('tr') as HTMLElement;
      expect(within(rowOf('itx_9')).getByTitle('xp_expire').textContent).toBe('Expired');
      expect(within(rowOf('itx_8')).getByTitle('xp_reversal').textContent).toBe('Reversed (return) of itx_2');
      expect(await within(rowOf('itx_2')).findByText('Pending until 5 Dec 2026, 12:00 UTC')).toBeTruthy();
      expect(within(rowOf('itx_3')).getByText('pending')).toBeTruthy();
      expect(network.sentTo('GET', '/point-lots').some((sent) => sent.query.get('status') === 'pending')).toBe(true);

      await userEvent.click(within(rowOf('itx_8')).getByRole('button', { name: 'Reversed credit itx_2' }));
      const dialog = await screen.findByRole('dialog', { name: 'Transaction' });
      expect(await within(dialog).findByText('Pending until 5 Dec 2026, 12:00 UTC')).toBeTruthy();
      expect(within(dialog).getByText('Earned')).toBeTruthy();
    });

    it('a reversal\'s details open the credit it reversed', async () => {
      const ledger = [transaction({ id: 'itx_8', type: 'xp_reversal', amount: '-20', metadata: { reversed_transaction_id: 'itx_2' } }), transaction({ id: 'itx_2', type: 'xp_bonus', amount: '50' })];
      const network = customerApi('viewer')
        .on('listInternalTransactions', { data: page(ledger.slice(0, 1)) })
        .on('getInternalTransaction', (_, params) => ({ data: ledger.find((entry) => entry.id === params.internal_transaction_id) ?? transaction() }));
      await signedInApp(network, '/t/ten_1/customers/cus_1');
      await userEvent.click(await screen.findByRole('button', { name: 'Details of transaction itx_8' }));
      const dialog = await screen.findByRole('dialog', { name: 'Transaction' });
      expect(await within(dialog).findByText('Reversed (return)')).toBeTruthy();
      await userEvent.click(within(dialog).getByRole('button', { name: 'Open the reversed credit itx_2' }));
      expect(await within(dialog).findByText('Bonus')).toBeTruthy();
      expect(within(dialog).getByText('itx_2')).toBeTruthy();
    });
  });
});
