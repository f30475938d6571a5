/**
 * The signed-in session: oidc-client-ts (authorization code + PKCE) with the user kept in memory
 * only (a reload signs in again; no token ever reaches web storage). The API bearer token is the
 * OIDC access token. A 401 from the API ends the session: the person signs in again.
 */
import { InMemoryWebStorage, UserManager, WebStorageStateStore, type INavigator, type User } from 'oidc-client-ts';
import type { OidcConfig } from './config';

export type AuthState =
  | { status: 'signed-out'; reason?: 'expired' | 'signed-out'; error?: string }
  | { status: 'signed-in'; email: string; accessToken: string };

export function createUserManager(oidc: OidcConfig, origin: string, navigator?: INavigator): UserManager {
  return new UserManager(
    {
      authority: oidc.issuer,
      client_id: oidc.client_id,
      scope: oidc.scope,
      redirect_uri: `${origin}/auth/callback`,
      post_logout_redirect_uri: `${origin}/`,
      silent_redirect_uri: `${origin}/auth/silent`,
      response_type: 'code',
      automaticSilentRenew: true,
      userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
      // The PKCE verifier and state must survive the redirect to the provider and back (this tab only).
      stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
    },
    navigator,
  );
}

function stateOf(user: User | null): AuthState {
  if (!user || user.expired) return { status: 'signed-out' };
  const email = typeof user.profile.email === 'string' ? user.profile.email : user.profile.sub;
  return { status: 'signed-in', email, accessToken: user.access_token };
}

export class Session {
  private state: AuthState = { status: 'signed-out' };
  private readonly listeners = new Set<() => void>();

  constructor(private readonly manager: UserManager) {
    manager.events.addUserLoaded((user) => this.set(stateOf(user)));
    manager.events.addAccessTokenExpired(() => this.expire());
    manager.events.addSilentRenewError(() => this.expire());
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): AuthState => this.state;

  readonly token = (): string => (this.state.status === 'signed-in' ? this.state.accessToken : '');

  private set(state: AuthState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  /** Redirects to the provider; `returnTo` is where the callback lands afterwards. */
  async signIn(returnTo: string): Promise<void> {
    await this.manager.signinRedirect({ url_state: returnTo });
  }

  /** Completes the redirect at /auth/callback; answers the path to go back to. */
  async completeSignIn(url: string): Promise<string> {
    const user = await this.manager.signinRedirectCallback(url);
    this.set(stateOf(user));
    return user.url_state && user.url_state.startsWith('/') ? user.url_state : '/';
  }

  async completeSilent(url: string): Promise<void> {
    await this.manager.signinSilentCallback(url);
  }

  /** The API refused the token: forget it; the gate asks to sign in again. */
  expire(): void {
    if (this.state.status === 'signed-out') return;
    void this.manager.removeUser();
    this.set({ status: 'signed-out', reason: 'expired' });
  }

  async signOut(): Promise<void> {
    const user = await this.manager.getUser();
    await this.manager.removeUser();
    this.set({ status: 'signed-out', reason: 'signed-out' });
    try {
      await this.manager.signoutRedirect(user?.id_token ? { id_token_hint: user.id_token } : {});
    } catch {
      // A provider without an end-session endpoint (or out of reach): the CMS has forgotten the
      // tokens already, which is the sign-out that matters here; the provider's session stays.
    }
  }
}
