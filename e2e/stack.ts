/**
 * What the end-to-end suite runs against: the Worker under `wrangler dev` (its [build] builds the
 * CMS and copies the API reference, as for `npm run dev` and deploys), with fresh local D1
 * databases (the directory and its shards) in a temporary directory, and the dev sign-in
 * (scripts/lib/dev-oidc.ts) with a throwaway signing key.
 * Nothing of the developer's is read or written: not `.dev.vars` (an env file replaces it), not
 * `.dev/`, not `.wrangler/state`. No chain: CHAINS is unset, so no anvil either.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { english, generateMnemonic } from 'viem/accounts';
import { freePort, runWrangler, startDevServer, stopAll, type DevServer } from '../bench/lib/processes';
import { migrateAll } from '../scripts/db-migrate';
import { DEV_CMS_CLIENT_ID, devVarLine, generateSigningKey, ROOT, type DevSigningKey } from '../scripts/lib/dev-files';
import { startDevOidc, type DevOidc } from '../scripts/lib/dev-oidc';

/** The dev sign-in's token lifetime here: renewal starts 15 s after each sign-in or renewal. */
const TOKEN_TTL_SECONDS = 75;

export type Stack = {
  baseUrl: string;
  /** The dev sign-in's issuer. */
  issuer: string;
  /** Signs the access tokens the dev sign-in issues: the suite mints its own API-side tokens with it. */
  key: DevSigningKey;
  /** wrangler dev's output, for a failure's explanation. */
  logFile: string;
  /** The access tokens the dev sign-in handed out, in order. */
  issued: DevOidc['issued'];
  stop(): Promise<void>;
};

/** @example const stack = await startStack((line) => console.log(line)); … await stack.stop(); */
export async function startStack(log: (message: string) => void): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), 'loyalty-e2e-'));
  const persistTo = join(dir, 'state');
  const logFile = join(dir, 'wrangler.log');
  let oidc: DevOidc | undefined;
  // Also when Ctrl+C ends the run (bench/lib/processes.ts stops wrangler, then exits at once).
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const stop = async () => {
    await stopAll();
    await oidc?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const key = await generateSigningKey();
    // Short-lived, so the CMS renews its session during the run (oidc-client-ts starts a minute before expiry).
    oidc = await startDevOidc({ key, port: await freePort(), tokenTtlSeconds: TOKEN_TTL_SECONDS });
    const envFile = join(dir, 'e2e.env');
    const vars: Record<string, string> = {
      AUTH_JWKS: JSON.stringify({ keys: [key.publicJwk] }),
      API_KEY_ENCRYPTION_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
      WALLET_MNEMONIC: generateMnemonic(english),
      CMS_OIDC_ISSUER: oidc.issuer,
      CMS_OIDC_CLIENT_ID: DEV_CMS_CLIENT_ID,
    };
    writeFileSync(envFile, `${Object.entries(vars).map(([name, value]) => devVarLine(name, value)).join('\n')}\n`, { mode: 0o600 });
    log(`local D1 in ${persistTo}; dev sign-in at ${oidc.issuer}`);
    // The directory and every shard (scripts/db-migrate.ts), wrangler's output into the log.
    await migrateAll({ target: 'local', persistTo, config: join(ROOT, 'wrangler.toml') }, (args) => runWrangler(args, logFile).then(() => 0));
    const server: DevServer = await startDevServer({
      name: 'e2e',
      config: join(ROOT, 'wrangler.toml'),
      persistTo,
      logFile,
      envFile,
      readyPath: '/api/v1/system/cms-config',
    });
    log(`wrangler dev at ${server.baseUrl} (log: ${logFile})`);
    return { baseUrl: server.baseUrl, issuer: oidc.issuer, key, logFile, issued: oidc.issued, stop };
  } catch (error) {
    const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}${tail ? `\nwrangler's last lines:\n${tail}` : ''}`);
  }
}
