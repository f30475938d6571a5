import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Schemas } from '../../api/types';
import { account, apiKey, membership, page } from '../../test/fixtures';
import { envelope, FakeNetwork } from '../../test/fake-api';
import { signedInApp } from '../../test/render';

describe('API keys', () => {
  it('creating a key shows its secret once, with a copy button; afterwards only prefix and suffix remain', async () => {
    const keys: Schemas['ApiKey'][] = [];
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('listApiKeys', () => ({ data: page(keys) }))
      .on('createApiKey', (_request, _params, body) => {
        const created = apiKey({ name: (body as { name: string }).name });
        keys.push(created);
        return { status: 201, data: { ...created, secret: 'sk_ab12SECRETwx9z' } };
      });
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await signedInApp(network, '/t/ten_1/api-keys');
    await user.click(await screen.findByRole('button', { name: 'New API key' }));
    await user.type(screen.getByLabelText('Name'), 'Production backend');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'API key created' });
    expect(within(dialog).getByLabelText('secret').textContent).toBe('sk_ab12SECRETwx9z');
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('sk_ab12SECRETwx9z');
    expect(await within(dialog).findByText('Copied to the clipboard.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'I have stored it' }));
    expect(await screen.findByText('sk_ab12…wx9z')).toBeTruthy();
    expect(screen.queryByText('sk_ab12SECRETwx9z')).toBeNull();
    expect(network.sentTo('POST', '/api-keys')[0]?.body).toEqual({ name: 'Production backend' });
  });

  it('revoking asks first; the API\'s refusal shows its envelope message', async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('listApiKeys', { data: page([apiKey()]) })
      .on('revokeApiKey', { status: 403, error: envelope('FORBIDDEN', 'Your role (editor) may not manage api keys in this tenant') });
    await signedInApp(network, '/t/ten_1/api-keys');
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Revoke API key' })).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Your role (editor) may not manage api keys in this tenant')).toBeTruthy();
  });

  it('a refusal shows the request id to quote when reporting it: in the toast of an action and the note of a failed list', async () => {
    const refusal = envelope('FORBIDDEN', 'Your role (editor) may not manage api keys in this tenant');
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('listApiKeys', { data: page([apiKey()]) })
      .on('revokeApiKey', { status: 403, error: refusal });
    await signedInApp(network, '/t/ten_1/api-keys');
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Revoke API key' })).getByRole('button', { name: 'Revoke' }));
    const toast = (await screen.findByText('Your role (editor) may not manage api keys in this tenant')).closest('[role="alert"]');
    expect(toast?.textContent).toContain(`Request id: ${refusal.error.request_id}`);

    const broken = envelope('INTERNAL', 'Internal error (request id req_list)');
    network.on('listApiKeys', { status: 500, error: broken });
    await signedInApp(network, '/t/ten_1/api-keys');
    const note = (await screen.findByText('Internal error (request id req_list)', {}, { timeout: 3000 })).closest('[role="alert"]');
    expect(note?.textContent).toContain(`Request id: ${broken.error.request_id}`);
  });

  it('a viewer sees the keys but no create or revoke', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('viewer')]) }).on('listApiKeys', { data: page([apiKey()]) });
    await signedInApp(network, '/t/ten_1/api-keys');
    expect(await screen.findByText('Production backend')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New API key' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Revoke' })).toBeNull();
  });
});

describe('members', () => {
  it('removing the last super admin shows the API\'s guard message', async () => {
    const owner: Schemas['Member'] = { id: 'mem_2', user_id: 'acc_2', email: 'owner@example.com', username: 'owner', role: 'super_admin', status: 'active', created_at: '2026-11-21T12:00:00.000Z' };
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('super_admin')]) })
      .on('listMembers', { data: page([owner]) })
      .on('removeMember', { status: 400, error: envelope('BAD_REQUEST', 'A tenant keeps at least one super_admin: this is the last one') });
    await signedInApp(network, '/t/ten_1/members');
    expect(await screen.findByText(/A tenant always keeps at least one super admin/)).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Remove member' })).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('A tenant keeps at least one super_admin: this is the last one')).toBeTruthy();
    await waitFor(() => expect(network.sentTo('DELETE', '/members/acc_2')).toHaveLength(1));
  });

  it('an invitation is checked with the API\'s email rule, not the browser\'s looser one, before it is sent', async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('listMembers', { data: page([]) })
      .on('inviteMember', (_request, _params, body) => {
        const invited: Schemas['Member'] = { id: 'mem_9', user_id: null, email: (body as { email: string }).email, username: null, role: 'viewer', status: 'invited', created_at: '2026-11-21T12:00:00.000Z' };
        return { status: 201, data: invited };
      });
    const user = userEvent.setup();
    await signedInApp(network, '/t/ten_1/members');
    await user.click(await screen.findByRole('button', { name: 'Invite member' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite a member' });
    // Both pass a browser's type="email" check; the API refuses them (a leading dot, a domain label ending in "-").
    for (const refused of ['.jane@example.com', 'jane@example-.com']) {
      await user.clear(within(dialog).getByLabelText('Email'));
      await user.type(within(dialog).getByLabelText('Email'), refused);
      await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
      expect(await within(dialog).findByText('An email address.')).toBeTruthy();
    }
    expect(network.sentTo('POST', '/members')).toHaveLength(0);
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), "O'Brien+cms@mail.example.co.uk");
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(network.sentTo('POST', '/members')[0]?.body).toEqual({ email: "O'Brien+cms@mail.example.co.uk", role: 'viewer' }));
  });

  it('an admin cannot grant super admin (the option is not offered)', async () => {
    const editor: Schemas['Member'] = { id: 'mem_3', user_id: 'acc_3', email: 'ed@example.com', username: null, role: 'editor', status: 'active', created_at: '2026-11-21T12:00:00.000Z' };
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('admin')]) }).on('listMembers', { data: page([editor]) });
    await signedInApp(network, '/t/ten_1/members');
    const select = await screen.findByLabelText('Role of ed@example.com');
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['admin', 'editor', 'viewer']);
  });
});
