/** The dev sign-in's two pages (scripts/lib/dev-oidc.ts): the email form, and "signed out". */

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The authorization request travels through the form as hidden fields, back to POST /authorize. */
const CARRIED = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'nonce', 'code_challenge', 'code_challenge_method', 'response_mode'];

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f5f7; color: #1b1e24; }
  main { box-sizing: border-box; background: #fff; border: 1px solid #d8dbe0; border-radius: 8px; padding: 1.5rem; width: min(24rem, calc(100vw - 2rem)); }
  h1 { font-size: 1.25rem; margin: 0 0 .25rem; } p { margin: 0 0 1rem; color: #4a5160; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input[type=email] { box-sizing: border-box; width: 100%; padding: .6rem; font: inherit; border: 1px solid #9aa1ad; border-radius: 6px; }
  button { margin-top: 1rem; width: 100%; padding: .6rem; font: inherit; font-weight: 600; color: #fff; background: #2454d6; border: 0; border-radius: 6px; cursor: pointer; }
  :focus-visible { outline: 3px solid #f0b429; outline-offset: 2px; }
  .error { color: #b42318; font-weight: 600; }
</style></head><body><main>${body}</main></body></html>`;
}

/**
 * The form asking for an email, or the reason the request cannot be served (`problem`: nothing to
 * submit). `invalid`: the email sent was not one.
 */
export function authorizePage(params: URLSearchParams, problem?: string, invalid?: string, remembered?: string): string {
  if (problem) return page('Dev sign-in', `<h1>Dev sign-in — local only</h1><p class="error" role="alert">This sign-in request cannot be served: ${escape(problem)}.</p>`);
  const hidden = CARRIED.filter((name) => params.get(name) !== null)
    .map((name) => `<input type="hidden" name="${name}" value="${escape(params.get(name) ?? '')}">`)
    .join('');
  const error = invalid ? `<p class="error" id="email-error" role="alert">${escape(invalid)}</p>` : '';
  return page(
    'Dev sign-in',
    `<h1>Dev sign-in — local only</h1>
<p>Any email signs in: a token signed with this machine's dev key (npm run dev). Never in a deployed environment.</p>
<form method="post" action="/authorize">${hidden}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required autofocus value="${escape(remembered ?? params.get('email') ?? '')}"${invalid ? ' aria-invalid="true" aria-describedby="email-error"' : ''}>
${error}<button type="submit">Sign in</button>
</form>`,
  );
}

export function signedOutPage(): string {
  return page('Signed out', '<h1>Signed out</h1><p>You are signed out of the dev sign-in.</p>');
}
