/**
 * The first steps: the Worker serves the CMS next to the API, a program manager signs in with the
 * dev flow and creates a tenant.
 */
import { screenshot } from './browser';
import { APPEAR_MS, present } from './support';
import { ADMIN_EMAIL, dataOf, portalAs, type World } from './world';

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

/** One origin: `/` and any path outside /api/ answer the CMS's index.html; /api/ stays the API's. */
export async function servedByTheWorker({ stack }: World): Promise<void> {
  const root = await fetch(`${stack.baseUrl}/`);
  const rootText = await root.text();
  check(root.status === 200 && /text\/html/.test(root.headers.get('content-type') ?? '') && rootText.includes('<div id="root">'), `GET / answered ${root.status}, not the CMS's index.html`);
  const deep = await fetch(`${stack.baseUrl}/t/ten_x/customers/cus_x`);
  check(deep.status === 200 && (await deep.text()) === rootText, `GET /t/ten_x/customers/cus_x answered ${deep.status}, not index.html (single-page-application fallback)`);
  const api = await fetch(`${stack.baseUrl}/api/v1/no-such-route`);
  const body = (await api.json()) as { error?: { code?: string } };
  check(api.status === 404 && body.error?.code === 'NOT_FOUND', `GET /api/v1/no-such-route answered ${api.status}, not the API's JSON 404`);
  const config = (await (await fetch(`${stack.baseUrl}/api/v1/system/cms-config`)).json()) as { data?: { oidc?: { issuer?: string } | null } };
  check(config.data?.oidc?.issuer === stack.issuer, 'GET /api/v1/system/cms-config does not name the dev sign-in');
}

export async function signIn(world: World): Promise<void> {
  const page = world.admin;
  await page.goto(`${world.stack.baseUrl}/`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor({ timeout: APPEAR_MS });
  await screenshot(page, 'signed-out');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Email').waitFor({ timeout: APPEAR_MS });
  if (!page.url().startsWith(world.stack.issuer)) throw new Error(`"Sign in" led to ${page.url()}, not the dev sign-in`);
  await screenshot(page, 'dev-sign-in');
  // By keyboard: the email field has the focus, Enter submits.
  await page.keyboard.type(ADMIN_EMAIL);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: APPEAR_MS });
  await page.getByText(ADMIN_EMAIL).first().waitFor({ timeout: APPEAR_MS });
  // Tokens live in memory only: nothing JWT-like in web storage.
  const stored = await page.evaluate(() => JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)]));
  if (stored.includes('eyJ')) throw new Error('a token was written to localStorage or sessionStorage');
}

/**
 * The first tenant, through the form. Its slug is taken first (by another account, through the
 * API), a refusal only the API knows of: its message must show next to the field.
 */
export async function createTenant(world: World): Promise<void> {
  const page = world.admin;
  dataOf('take the slug', await portalAs(world.stack, 'someone-else@example.com').createTenant({ body: { name: 'Taken', slug: 'e2e-coffee' } }));
  const name = await present(page.getByLabel('Name'), 'tenant name field (an account without a tenant creates one)');
  await name.fill('E2E Coffee');
  await page.getByRole('button', { name: 'Create tenant' }).click();
  const slug = page.getByLabel('Slug');
  await page.getByText('The slug e2e-coffee is already taken').first().waitFor({ timeout: APPEAR_MS });
  const describedBy = (await slug.getAttribute('aria-describedby')) ?? '';
  const described = describedBy ? await page.locator(describedBy.split(/\s+/).map((id) => `[id="${id}"]`).join(', ')).allInnerTexts() : [];
  if (!described.some((text) => text.includes('The slug e2e-coffee is already taken'))) throw new Error("the API's message is not tied to the Slug field (aria-describedby)");
  await screenshot(page, 'first-tenant-slug-taken');
  await slug.fill('e2e-coffee-2');
  await page.getByRole('button', { name: 'Create tenant' }).click();
  await page.waitForURL(/\/t\/[^/]+/, { timeout: APPEAR_MS });
  world.tenantId = /\/t\/([^/?#]+)/.exec(page.url())?.[1];
  await page.getByRole('combobox', { name: 'Tenant' }).waitFor({ timeout: APPEAR_MS });
  // The dashboard is a lazily loaded chunk whose cards then query: shoot its content, not its loading states.
  await present(page.getByRole('heading', { name: 'Customers by status' }), 'dashboard chart "Customers by status"');
  await page.locator('main').getByRole('status').last().waitFor({ state: 'detached', timeout: APPEAR_MS });
  await screenshot(page, 'dashboard');
}
