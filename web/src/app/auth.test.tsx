import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { account, membership } from '../test/fixtures';
import { envelope, FakeNetwork, ISSUER } from '../test/fake-api';
import { fakeBrowser, renderApp, signedInApp } from '../test/render';

describe('auth gate', () => {
  it('signed out: shows a Sign in button that redirects to the provider with PKCE', async () => {
    const network = new FakeNetwork();
    const { session, redirects } = fakeBrowser(network);
    renderApp(session, '/');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(redirects.urls).toHaveLength(1));
    const authorize = new URL(redirects.urls[0] ?? '');
    expect(authorize.origin + authorize.pathname).toBe(`${ISSUER}/authorize`);
    expect(authorize.searchParams.get('response_type')).toBe('code');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://cms.test/auth/callback');
    expect(network.sent).toHaveLength(0);
  });

  it('/auth/callback completes the sign-in and the API gets the access token', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('admin')]) }).on('getTopRewards', { data: { items: [], tenant_id: 'ten_1', total_redemptions: 0 } });
    const { session, redirects } = fakeBrowser(network);
    await session.signIn('/');
    const state = new URL(redirects.urls[0] ?? '').searchParams.get('state') ?? '';
    renderApp(session, `/auth/callback?code=code-1&state=${state}`);
    expect(await screen.findByText('pm@example.com')).toBeTruthy();
    await waitFor(() => expect(network.sentTo('GET', '/user/me')[0]?.authorization).toBe('Bearer access-token-1'));
  });

  it('a 401 from the API ends the session: sign in again', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { status: 401, error: envelope('UNAUTHENTICATED', 'The token has expired') });
    await signedInApp(network, '/');
    expect(await screen.findByText('Your session has ended. Sign in again to continue.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('sign out forgets the session and goes to the provider logout', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([]) });
    const { redirects } = await signedInApp(network, '/');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(redirects.urls.at(-1)).toContain(`${ISSUER}/logout`));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });
});
