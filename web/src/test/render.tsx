import { createMemoryHistory } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { INavigator } from 'oidc-client-ts';
import { vi } from 'vitest';
import { App } from '../app/App';
import { createUserManager, Session } from '../auth/session';
import { FakeNetwork, ISSUER, ORIGIN } from './fake-api';

/** Where the app last sent the browser (the provider's authorize or logout page). */
export type Redirects = { urls: string[] };

export function fakeBrowser(network: FakeNetwork): { session: Session; redirects: Redirects } {
  vi.stubGlobal('fetch', network.fetch);
  vi.stubGlobal('XMLHttpRequest', network.XMLHttpRequest);
  const redirects: Redirects = { urls: [] };
  const navigator: INavigator = {
    prepare: async () => ({
      navigate: async ({ url }) => {
        redirects.urls.push(url);
        return { url };
      },
      close: () => undefined,
    }),
    callback: async () => undefined,
  };
  const manager = createUserManager({ issuer: ISSUER, client_id: 'cms', scope: 'openid profile email' }, ORIGIN, navigator);
  return { session: new Session(manager), redirects };
}

/** Goes through the real code flow (redirect, then callback with the state the redirect carried). */
export async function signIn(session: Session, redirects: Redirects): Promise<void> {
  await session.signIn('/');
  const authorize = new URL(redirects.urls.at(-1) ?? '');
  await session.completeSignIn(`${ORIGIN}/auth/callback?code=code-1&state=${authorize.searchParams.get('state') ?? ''}`);
}

export function renderApp(session: Session, path: string) {
  window.history.replaceState(null, '', path);
  return render(<App session={session} history={createMemoryHistory({ initialEntries: [path] })} />);
}

export async function signedInApp(network: FakeNetwork, path: string) {
  const browser = fakeBrowser(network);
  await signIn(browser.session, browser.redirects);
  return { ...browser, view: renderApp(browser.session, path) };
}
