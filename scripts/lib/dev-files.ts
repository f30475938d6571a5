/**
 * Local development material, all git-ignored and never used outside `wrangler dev`:
 * - `.dev/portal-signing-key.json`: the RS256 key pair `npm run token` signs portal tokens with;
 * - `.dev/secrets.json`: the API key encryption key, wallet mnemonic and relayer key, generated once;
 * - `.dev/demo.json`: the demo tenant and its API key (the secret is only shown at creation);
 * - `.dev/anvil-state.json`: the local chain (scripts/lib/local-chain.ts);
 * - `.dev.vars`: what `wrangler dev` reads (AUTH_JWKS, API_KEY_ENCRYPTION_KEY, WALLET_MNEMONIC,
 *   RELAYER_PRIVATE_KEY, CHAINS, CONFIRMATIONS; for `npm run dev`, CMS_OIDC_ISSUER and CMS_OIDC_CLIENT_ID).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { english, generateMnemonic, generatePrivateKey } from 'viem/accounts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEV_DIR = join(ROOT, '.dev');
export const DEV_VARS_PATH = join(ROOT, '.dev.vars');
const KEY_PATH = join(DEV_DIR, 'portal-signing-key.json');
const SECRETS_PATH = join(DEV_DIR, 'secrets.json');
const DEMO_PATH = join(DEV_DIR, 'demo.json');

/**
 * Anvil's (and Hardhat's) public mnemonic, which earlier dev set-ups used for custodial wallets. Its
 * accounts are the ones anvil funds and unlocks, so customer wallets derived from it would be
 * anvil's #0, #1...: it is replaced wherever it is found.
 */
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/** Where `npm run dev` starts anvil unless the developer points CHAINS elsewhere in `.dev.vars`. */
export const LOCAL_CHAIN_ID = 31337;
export const LOCAL_RPC_URL = 'http://127.0.0.1:8545';

/** The CMS's client id at the dev sign-in (scripts/lib/dev-oidc.ts), which listens on the dev port + 10. */
export const DEV_CMS_CLIENT_ID = 'loyalty-cms-dev';
export const devOidcIssuer = (devPort: number) => `http://127.0.0.1:${devPort + 10}`;
/** `npm run dev`'s port unless --port says otherwise (wrangler.toml [dev]). */
const DEFAULT_DEV_PORT = 8787;

export type DevSigningKey = { kid: string; privateJwk: JsonWebKey; publicJwk: JsonWebKey };
type DevSecrets = { apiKeyEncryptionKey: string; walletMnemonic: string; relayerPrivateKey?: string };

export type DemoState = {
  baseUrl: string;
  adminEmail: string;
  tenant?: { id: string; name: string; slug: string };
  apiKey?: { id: string; keyId: string; secret: string };
  /** What the seed created onchain, for the summary. */
  onchain?: { chainId: number; xpToken?: string; badge?: string; settledTransactionId?: string };
  /** Real ids of the demo tenant to try requests with (the summary and README use them). */
  sample?: { customerId: string; transactionId?: string };
  /** The point lifecycle's settings as saved, and the credit the seed made under them (scripts/lib/seed-points.ts). */
  points?: { timezone: string; settings: PointSettings; credit?: PendingCredit };
};

export type PointSettings = { pending_period: string | null; validity: string | null; expiry_rounding: string; expiry_notice: string | null };
export type PendingCredit = { customerId: string; username: string; transactionId: string; amount: string; notes: string; availableAt?: string; lotStatus?: string };

function readJson<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

function writePrivateJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
}

function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
}

/** A fresh RS256 key pair for signing portal tokens (the dev key; `npm run bench` makes its own). */
export async function generateSigningKey(): Promise<DevSigningKey> {
  const pair = await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  );
  const kid = `dev-rs256-${randomHex(4)}`;
  const privateJwk = { ...(await crypto.subtle.exportKey('jwk', pair.privateKey)), kid, alg: 'RS256' };
  const { kty, n, e } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  return { kid, privateJwk, publicJwk: { kty, n, e, kid, alg: 'RS256', use: 'sig' } as JsonWebKey };
}

/** The dev signing key, or undefined before the first `npm run dev`. */
export function readSigningKey(): DevSigningKey | undefined {
  return readJson<DevSigningKey>(KEY_PATH);
}

/** Parses `.dev.vars` (dotenv syntax: KEY=value, KEY="value", KEY='value', # comments). */
export function parseDevVars(text: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match?.[1]) continue;
    let value = match[2] ?? '';
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.endsWith(quote) && value.length >= 2) value = value.slice(1, -1);
    vars.set(match[1], value);
  }
  return vars;
}

const DEV_VARS_HEADER = '# Local development only (generated by `npm run dev`; git-ignored). Never use these values anywhere else.';

/** One dotenv line, single-quoted: JSON values such as AUTH_JWKS keep their double quotes. */
export function devVarLine(key: string, value: string): string {
  return `${key}='${value}'`;
}

/**
 * Writes `updates` into `.dev.vars` text line by line: a key already present has its line replaced
 * in place, a new key is appended. Comments, order and the developer's other lines stay as they are.
 */
function applyDevVars(text: string, updates: Map<string, string>): string {
  const lines = text === '' ? [DEV_VARS_HEADER] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const pending = new Map(updates);
  const edited = lines.map((line) => {
    const key = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
    const value = key === undefined ? undefined : pending.get(key);
    if (key === undefined || value === undefined) return line;
    pending.delete(key);
    return devVarLine(key, value);
  });
  for (const [key, value] of pending) edited.push(devVarLine(key, value));
  return `${edited.join('\n')}\n`;
}

export type DevSetup = { key: DevSigningKey; vars: ReadonlyMap<string, string>; created: string[]; notes: string[] };

function isAnvilMnemonic(value: string | undefined): boolean {
  return value?.trim().split(/\s+/).join(' ') === ANVIL_MNEMONIC;
}

/** The dev secrets, created on first use; earlier files gain what they lack (a relayer key, a mnemonic that is not anvil's). */
function ensureSecrets(existingVars: Map<string, string>, created: string[], notes: string[]): Required<DevSecrets> {
  const saved = readJson<DevSecrets>(SECRETS_PATH);
  const fromVars = (name: string) => existingVars.get(name) || undefined;
  const mnemonic = [saved?.walletMnemonic, fromVars('WALLET_MNEMONIC')].find((m) => m && !isAnvilMnemonic(m));
  const secrets: Required<DevSecrets> = {
    // Keep a key already in .dev.vars: API keys stored in the local D1 are encrypted with it.
    apiKeyEncryptionKey: saved?.apiKeyEncryptionKey || fromVars('API_KEY_ENCRYPTION_KEY') || Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
    walletMnemonic: mnemonic ?? generateMnemonic(english),
    // The relayer owns the contracts deployed on the local chain, so it lives as long as that chain.
    relayerPrivateKey: saved?.relayerPrivateKey || fromVars('RELAYER_PRIVATE_KEY') || generatePrivateKey(),
  };
  if (!saved) created.push('.dev/secrets.json');
  else if (JSON.stringify(saved) !== JSON.stringify(secrets)) notes.push('.dev/secrets.json: added what this version needs');
  if (!mnemonic && (isAnvilMnemonic(saved?.walletMnemonic) || isAnvilMnemonic(fromVars('WALLET_MNEMONIC')))) {
    notes.push("WALLET_MNEMONIC was anvil's public test mnemonic: replaced with a fresh one (customers created before keep their old wallet addresses)");
  }
  if (!saved || JSON.stringify(saved) !== JSON.stringify(secrets)) writePrivateJson(SECRETS_PATH, secrets);
  return secrets;
}

/**
 * Makes sure the dev signing key, the dev secrets and `.dev.vars` exist and agree. Values a
 * developer put in `.dev.vars` are kept (except AUTH_JWKS, which always names the dev key, and
 * anvil's public mnemonic, which custodial wallets must not use); missing vars are appended.
 * @example const { key, vars } = await ensureDevSetup();
 */
export async function ensureDevSetup(options: { cmsSignIn?: boolean } = {}): Promise<DevSetup> {
  const created: string[] = [];
  const notes: string[] = [];
  let key = readSigningKey();
  if (!key) {
    key = await generateSigningKey();
    writePrivateJson(KEY_PATH, key);
    created.push(`.dev/portal-signing-key.json (kid ${key.kid})`);
  }

  const text = existsSync(DEV_VARS_PATH) ? readFileSync(DEV_VARS_PATH, 'utf8') : '';
  const existingVars = parseDevVars(text);
  const secrets = ensureSecrets(existingVars, created, notes);

  const updates = new Map<string, string>();
  const setIfMissing = (name: string, value: string) => {
    if (!existingVars.get(name)) updates.set(name, value);
  };
  updates.set('AUTH_JWKS', JSON.stringify({ keys: [key.publicJwk] }));
  setIfMissing('API_KEY_ENCRYPTION_KEY', secrets.apiKeyEncryptionKey);
  if (!existingVars.get('WALLET_MNEMONIC') || isAnvilMnemonic(existingVars.get('WALLET_MNEMONIC'))) updates.set('WALLET_MNEMONIC', secrets.walletMnemonic);
  setIfMissing('RELAYER_PRIVATE_KEY', secrets.relayerPrivateKey);
  setIfMissing('CHAINS', JSON.stringify({ [LOCAL_CHAIN_ID]: LOCAL_RPC_URL }));
  setIfMissing('CONFIRMATIONS', '1');
  // The CMS sign-in, for `npm run dev` only (its dev sign-in), and only when neither is set: a
  // developer's own provider, or one var alone (then reported), is left as it is. The default
  // port's; another --port is passed to wrangler dev as an override (scripts/lib/dev-sign-in.ts).
  if (options.cmsSignIn && !existingVars.get('CMS_OIDC_ISSUER') && !existingVars.get('CMS_OIDC_CLIENT_ID')) {
    updates.set('CMS_OIDC_ISSUER', devOidcIssuer(DEFAULT_DEV_PORT));
    updates.set('CMS_OIDC_CLIENT_ID', DEV_CMS_CLIENT_ID);
  }

  const next = applyDevVars(text, updates);
  if (next !== text) {
    if (text === '') created.push('.dev.vars');
    else {
      const added = [...updates.keys()].filter((name) => !existingVars.get(name));
      if (added.length > 0) notes.push(`.dev.vars: added ${added.join(', ')}`);
    }
    writeFileSync(DEV_VARS_PATH, next, { mode: 0o600 });
  }
  return { key, vars: parseDevVars(next), created, notes };
}

/** The vars `wrangler dev` reads (empty before the first `npm run dev`). */
export function readDevVars(): Map<string, string> {
  return existsSync(DEV_VARS_PATH) ? parseDevVars(readFileSync(DEV_VARS_PATH, 'utf8')) : new Map();
}

export function readDemoState(): DemoState | undefined {
  return readJson<DemoState>(DEMO_PATH);
}

export function writeDemoState(state: DemoState): void {
  writePrivateJson(DEMO_PATH, state);
}

/**
 * Points the scripts' API client at the server `npm run dev` last ran (its `--port`, kept in
 * .dev/demo.json), unless LOYALTY_URL says otherwise.
 */
export function useDemoServer(): void {
  const demo = readDemoState();
  if (!process.env.LOYALTY_URL && demo?.baseUrl) process.env.LOYALTY_URL = demo.baseUrl;
}
