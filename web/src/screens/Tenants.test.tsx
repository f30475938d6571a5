import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { account, membership, page } from '../test/fixtures';
import { envelope, FakeNetwork } from '../test/fake-api';
import { signedInApp } from '../test/render';

describe('tenants', () => {
  it('an account without a tenant creates one; the API\'s field error shows next to its field', async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([]) })
      .on('createTenant', { status: 409, error: envelope('CONFLICT', 'The slug acme is taken', [{ path: 'slug', message: 'This slug is taken; pick another' }]) });
    await signedInApp(network, '/');
    await userEvent.type(await screen.findByLabelText('Name'), 'Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Create tenant' }));
    const slug = screen.getByLabelText('Slug');
    await waitFor(() => expect(slug.getAttribute('aria-invalid')).toBe('true'));
    const describedBy = slug.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy.split(' ').at(-1) ?? '')?.textContent).toBe('This slug is taken; pick another');
    expect(screen.getByText('The slug acme is taken')).toBeTruthy();
    expect(network.sentTo('POST', '/tenants')[0]?.body).toEqual({ name: 'Acme', slug: 'acme' });
  });

  it('checks the API\'s slug rule before sending', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([]) });
    await signedInApp(network, '/tenants/new');
    await userEvent.type(await screen.findByLabelText('Name'), 'Acme');
    await userEvent.clear(screen.getByLabelText('Slug'));
    await userEvent.type(screen.getByLabelText('Slug'), 'Bad Slug');
    await userEvent.click(screen.getByRole('button', { name: 'Create tenant' }));
    expect(await screen.findByText('Lowercase letters and digits, words joined by single hyphens.')).toBeTruthy();
    expect(network.sentTo('POST', '/tenants')).toHaveLength(0);
  });

  it('the tenant switcher moves to the same section of the other tenant, with that tenant\'s role', async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('editor', 'ten_1', 'Acme Coffee'), membership('viewer', 'ten_2', 'Bolt Bikes')]) })
      .on('listCustomers', (_request, params) => ({ data: page(params.tenantId === 'ten_1' ? [] : []) }));
    await signedInApp(network, '/t/ten_1/customers');
    const switcher = await screen.findByLabelText('Tenant');
    expect(within(switcher).getAllByRole('option').map((option) => option.textContent)).toEqual(['Acme Coffee (editor)', 'Bolt Bikes (viewer)']);
    await userEvent.selectOptions(switcher, 'ten_2');
    await waitFor(() => expect(network.sentTo('GET', '/tenant/ten_2/customers')).toHaveLength(1));
    expect((screen.getByLabelText('Tenant') as HTMLSelectElement).value).toBe('ten_2');
  });
});
