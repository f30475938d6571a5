import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Schemas } from '../../api/types';
import { account, membership, page } from '../../test/fixtures';
import { envelope, FakeNetwork } from '../../test/fake-api';
import { signedInApp } from '../../test/render';

const at = '2026-11-27T03:00:00.000Z';
const job: Schemas['ImportJob'] = {
  id: 'imp_1', kind: 'customers', status: 'completed', file_sha256: 'a'.repeat(64), rows_total: 3, rows_ok: 2, rows_failed: 1,
  errors: [{ row: 3, message: 'email: Must be an email address' }], errors_url: '/api/v1/tenant/ten_1/imports/imp_1/errors', created_by: 'acc_1', created_at: at, completed_at: at,
};

afterEach(() => vi.unstubAllGlobals());

describe('imports', () => {
  it('uploads a file with its progress, then shows the job, its first errors and downloads the error file', async () => {
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:errors', revokeObjectURL: () => undefined }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('listImports', { data: page([]) })
      .on('createImport', { status: 202, data: job })
      .on('getImportErrors', { file: 'row,message\n3,bad\n', type: 'text/csv' });
    const user = userEvent.setup();
    await signedInApp(network, '/t/ten_1/imports');
    await user.selectOptions(await screen.findByLabelText('Kind'), 'balances');
    expect(screen.getByText(/external_id, amount \(required\)/)).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Kind'), 'customers');
    await user.upload(screen.getByLabelText('CSV file'), new File(['external_id,email\nu-1,a@example.com\n'], 'members.csv', { type: 'text/csv' }));
    network.on('listImports', { data: page([job]) });
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import imp_1' });
    expect(within(dialog).getByText('2 applied, 1 failed of 3')).toBeTruthy();
    expect(within(dialog).getByText('email: Must be an email address')).toBeTruthy();
    const [sent] = network.sentTo('POST', '/tenant/ten_1/imports');
    expect(sent?.query.get('kind')).toBe('customers');
    expect(sent?.body).toBe('external_id,email\nu-1,a@example.com\n');
    expect(sent?.authorization).toMatch(/^Bearer /);
    await user.click(within(dialog).getByRole('button', { name: 'Download all errors (CSV)' }));
    await vi.waitFor(() => expect(saved).toEqual(['imp_1-errors.csv']));
    expect(network.sentTo('GET', '/imports/imp_1/errors')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('cell', { name: '3 / 3' })).toBeTruthy();
  });

  it('shows why an upload was refused, with its request id', async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('listImports', { data: page([]) })
      .on('createImport', { status: 422, error: envelope('VALIDATION_FAILED', 'The header row is not valid: Column "external_id" is required', [{ path: 'header.external_id', message: 'Column "external_id" is required' }]) });
    const user = userEvent.setup();
    await signedInApp(network, '/t/ten_1/imports');
    await user.upload(await screen.findByLabelText('CSV file'), new File(['email\na@example.com\n'], 'bad.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('The header row is not valid: Column "external_id" is required')).toBeTruthy();
    expect(screen.getByText(/req_fake/)).toBeTruthy();
  });

  it('is offered to admins only', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('editor')]) }).on('listCustomers', { data: page([]) });
    await signedInApp(network, '/t/ten_1/customers');
    expect(await screen.findByRole('link', { name: 'Customers' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Imports' })).toBeNull();
  });
});
