import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Schemas } from '../../api/types';
import { account, membership, page } from '../../test/fixtures';
import { FakeNetwork } from '../../test/fake-api';
import { signedInApp } from '../../test/render';

const at = '2026-11-21T12:00:00.000Z';
function exportJob(overrides: Partial<Schemas['ExportJob']> = {}): Schemas['ExportJob'] {
  return {
    id: 'exp_1', kind: 'customers', status: 'completed', rows: 1234, cohort_id: null, from: null, to: null, download_url: 'https://loyalty.test/api/v1/files/exports/exp_1?expires=1&signature=old',
    expires_at: at, failure_reason: null, created_by: 'acc_1', created_at: at, completed_at: at, file_expires_at: '2026-11-28T12:00:00.000Z', ...overrides,
  };
}
const cohort: Schemas['Cohort'] = {
  id: 'coh_1', name: 'Blue lovers', description: '', created_by: 'acc_1', created_at: at, updated_at: at, member_count: 12, dead_keys: [],
  rules: { operator: 'and', version: 1, predicates: [{ type: 'status', key: '', op: 'eq', value: 'active' }] },
};

afterEach(() => vi.restoreAllMocks());

describe('exports', () => {
  it('lists jobs with status and rows; Download asks for a fresh link and opens it', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('listExports', { data: page([exportJob(), exportJob({ id: 'exp_2', kind: 'internal_transactions', status: 'failed', rows: 0, download_url: null, failure_reason: 'The cohort was deleted before the export ran' })]) })
      .on('getExport', { data: exportJob({ download_url: 'https://loyalty.test/api/v1/files/exports/exp_1?expires=2&signature=fresh' }) });
    const user = userEvent.setup();
    await signedInApp(network, '/t/ten_1/exports');
    const table = await screen.findByRole('table', { name: 'Exports' });
    expect(within(table).getByText('1,234')).toBeTruthy();
    expect(within(table).getByText('failed: The cohort was deleted before the export ran')).toBeTruthy();
    expect(within(table).getAllByRole('button', { name: 'Download CSV' })).toHaveLength(1);
    await user.click(within(table).getByRole('button', { name: 'Download CSV' }));
    await vi.waitFor(() => expect(open).toHaveBeenCalledWith('https://loyalty.test/api/v1/files/exports/exp_1?expires=2&signature=fresh', '_self'));
    expect(network.sentTo('GET', '/exports/exp_1')).toHaveLength(1);
  });

  it("requests a cohort's members (a cohort required) and a period of customers in ISO instants", async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('listExports', { data: page([]) })
      .on('listCohorts', { data: page([cohort]) })
      .on('createExport', { status: 202, data: exportJob({ status: 'queued', rows: 0, download_url: null, expires_at: null, completed_at: null, file_expires_at: null }) });
    const user = userEvent.setup();
    await signedInApp(network, '/t/ten_1/exports');
    await user.click(await screen.findByRole('button', { name: 'New export' }));
    let form = screen.getByRole('dialog', { name: 'New export' });
    await user.selectOptions(within(form).getByLabelText('What'), 'cohort_members');
    await user.click(within(form).getByRole('button', { name: 'Request export' }));
    expect(await within(form).findByText('Pick a cohort.')).toBeTruthy();
    await user.selectOptions(within(form).getByLabelText('Cohort'), await within(form).findByRole('option', { name: 'Blue lovers' }));
    await user.click(within(form).getByRole('button', { name: 'Request export' }));
    expect(await screen.findByText(/Export requested/)).toBeTruthy();
    expect(network.sentTo('POST', '/exports')[0]?.body).toEqual({ kind: 'cohort_members', cohort_id: 'coh_1' });

    await user.click(screen.getByRole('button', { name: 'New export' }));
    form = screen.getByRole('dialog', { name: 'New export' });
    await user.type(within(form).getByLabelText('From'), '2026-11-02T10:00');
    await user.type(within(form).getByLabelText('To'), '2026-11-01T10:00');
    await user.click(within(form).getByRole('button', { name: 'Request export' }));
    expect(await within(form).findByText('Not after "To".')).toBeTruthy();
    await user.clear(within(form).getByLabelText('To'));
    await user.click(within(form).getByRole('button', { name: 'Request export' }));
    await vi.waitFor(() => expect(network.sentTo('POST', '/exports')).toHaveLength(2));
    expect(network.sentTo('POST', '/exports')[1]?.body).toEqual({ kind: 'customers', from: new Date('2026-11-02T10:00').toISOString() });
  });

  it('is no section of an editor (the API refuses exports to it)', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('editor')]) }).on('listCustomers', { data: page([]) });
    await signedInApp(network, '/t/ten_1/customers');
    const nav = await screen.findByRole('navigation', { name: 'Sections' });
    expect(within(nav).queryByRole('link', { name: 'Exports' })).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Customers' })).toBeTruthy();
  });
});
