/**
 * The CMS sign-in of `npm run dev`: which provider `.dev.vars` names and, when it is the dev sign-in
 * (client loyalty-cms-dev on a loopback URL), that provider started on the dev port + 10. Another
 * provider a developer configured is used as it is.
 */
import { DEV_CMS_CLIENT_ID, devOidcIssuer, type DevSigningKey } from './dev-files';
import { startDevOidc, type DevOidc } from './dev-oidc';

export type DevSignIn = {
  /** One line for the summary. */
  line: string;
  /** For `wrangler dev`: the issuer this run's dev sign-in really has, when .dev.vars names the default port's. */
  wranglerArgs: string[];
  provider?: DevOidc;
};

const isDevProvider = (issuer: string | undefined, clientId: string | undefined) =>
  clientId === DEV_CMS_CLIENT_ID && issuer !== undefined && /^http:\/\/(127\.0\.0\.1|localhost):\d+\/?$/.test(issuer);

/** Starts the dev sign-in when `.dev.vars` asks for it (the dev key exists: ensureDevSetup made it). */
export async function startDevSignIn(vars: ReadonlyMap<string, string>, devPort: number, key: DevSigningKey): Promise<DevSignIn> {
  const issuer = vars.get('CMS_OIDC_ISSUER') || undefined;
  const clientId = vars.get('CMS_OIDC_CLIENT_ID') || undefined;
  if (!isDevProvider(issuer, clientId)) {
    return {
      line: issuer ? `sign in at ${issuer} (client ${clientId ?? '?'}, from .dev.vars)` : 'sign-in not configured (CMS_OIDC_ISSUER and CMS_OIDC_CLIENT_ID are blank in .dev.vars)',
      wranglerArgs: [],
    };
  }
  const expected = devOidcIssuer(devPort);
  const provider = await startDevOidc({ key, port: devPort + 10 });
  return {
    line: `sign in with any email (dev sign-in at ${provider.issuer}, local only)`,
    // .dev.vars holds one port's issuer; `--port` moves the dev sign-in with the server.
    wranglerArgs: issuer === expected ? [] : ['--var', `CMS_OIDC_ISSUER:${expected}`],
    provider,
  };
}
