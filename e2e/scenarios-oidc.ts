/**
 * The dev sign-in's refusals, over HTTP (the browser scenarios only walk its happy path): another
 * redirect_uri, no PKCE, a wrong verifier, a code used twice, a refresh token used twice, and that
 * the access token it issues is a portal token the Worker accepts. Then the CMS's silent renewal.
 */
import { s256Challenge } from '../scripts/lib/pkce';
import { navigate } from './support';
import { ADMIN_EMAIL, type World } from './world';

const CALLBACK = 'http://127.0.0.1:1/auth/callback';
const VERIFIER = 'e2e-verifier-'.padEnd(64, 'x');

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

export async function devSignInRefusals({ stack }: World): Promise<void> {
  const issuer = stack.issuer;
  const meta = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as { issuer: string; code_challenge_methods_supported: string[] };
  check(meta.issuer === issuer && meta.code_challenge_methods_supported.join() === 'S256', 'discovery: issuer or PKCE methods wrong');
  const request = new URLSearchParams({
    client_id: 'loyalty-cms-dev', redirect_uri: CALLBACK, response_type: 'code', scope: 'openid profile email', state: 'st', nonce: 'nn',
    code_challenge: await s256Challenge(VERIFIER), code_challenge_method: 'S256',
  });
  const authorize = (params: Record<string, string>) => fetch(`${issuer}/authorize?${new URLSearchParams({ ...Object.fromEntries(request), ...params })}`, { redirect: 'manual' });
  check((await authorize({ redirect_uri: 'https://elsewhere.example/cb' })).status === 400, 'a redirect_uri off this machine was not refused');
  check((await authorize({ code_challenge_method: 'plain' })).status === 400, 'a request without S256 PKCE was not refused');
  check((await authorize({ client_id: 'someone-else' })).status === 400, 'an unknown client_id was not refused');

  const codeFor = async (email: string) => {
    const res = await fetch(`${issuer}/authorize`, { method: 'POST', body: new URLSearchParams({ ...Object.fromEntries(request), email }), redirect: 'manual' });
    const location = new URL(res.headers.get('location') ?? 'about:blank');
    check(res.status === 302 && location.searchParams.get('state') === 'st', `POST /authorize answered ${res.status}, not a redirect with the state`);
    return location.searchParams.get('code') ?? '';
  };
  const token = (body: Record<string, string>) => fetch(`${issuer}/token`, { method: 'POST', body: new URLSearchParams({ client_id: 'loyalty-cms-dev', ...body }) });
  const exchange = (code: string, verifier: string) => token({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier });

  const wrong = await exchange(await codeFor('pkce@example.com'), 'another-verifier-'.padEnd(64, 'y'));
  check(wrong.status === 400 && ((await wrong.json()) as { error: string }).error === 'invalid_grant', 'a wrong code_verifier was not refused');
  const code = await codeFor('pkce@example.com');
  const ok = await exchange(code, VERIFIER);
  check(ok.status === 200, `the right verifier was refused (${ok.status})`);
  const tokens = (await ok.json()) as { access_token: string; id_token: string; refresh_token: string };
  const idToken = JSON.parse(Buffer.from(tokens.id_token.split('.')[1] ?? '', 'base64url').toString()) as { iss: string; aud: string; nonce: string };
  check(idToken.iss === issuer && idToken.aud === 'loyalty-cms-dev' && idToken.nonce === 'nn', 'the id token does not name this provider, the client and the nonce');
  check((await exchange(code, VERIFIER)).status === 400, 'a code was accepted twice');
  check((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status === 200, 'the refresh token was refused');
  check((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status === 400, 'a refresh token was accepted twice');
  const me = await fetch(`${stack.baseUrl}/api/v1/user/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  check(me.status === 200, `the Worker refused the dev sign-in's access token (${me.status})`);
}

/** How long the first renewal may take to come: it starts 15 s after the sign-in (e2e/stack.ts). */
const RENEWAL_MS = 60_000;

/**
 * The CMS renews its session before the token expires (a refresh_token grant at the dev sign-in,
 * no page load) and calls the API with the new token, which the Worker accepts.
 */
export async function sessionRenews({ stack, admin }: World): Promise<void> {
  // Renewals of the admin page's current session: a scenario's fresh page load signs in anew, and
  // the CMS then calls with that sign-in's token until its own renewal, whatever ran before.
  const renewed = () => {
    const admins = stack.issued().filter((token) => token.email === ADMIN_EMAIL);
    const signedIn = admins.findLastIndex((token) => token.grant === 'authorization_code');
    return admins.slice(signedIn + 1).map((token) => `Bearer ${token.accessToken}`);
  };
  const deadline = Date.now() + RENEWAL_MS;
  while (renewed().length === 0) {
    check(Date.now() < deadline, `no renewal within ${RENEWAL_MS / 1000} s: the CMS never used its refresh token before expiry`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // A screen the admin has not opened yet, so its data is fetched now, with the current token.
  const call = admin.waitForRequest((request) => request.url().startsWith(`${stack.baseUrl}/api/v1/`) && Boolean(request.headers().authorization));
  await navigate(admin, 'Webhooks');
  const request = await call;
  check(renewed().includes(request.headers().authorization ?? ''), 'after its renewal the CMS still calls the API with the token from its sign-in');
  const status = (await request.response())?.status();
  check(status === 200, `the Worker answered ${status} to the renewed token`);
}
