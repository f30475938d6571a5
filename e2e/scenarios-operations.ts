/**
 * Issue 24's CMS scenarios. The admin opens the audit log, narrows it to tier creations, and reads
 * the tier "create a tier" made: who made it and its fields. Then the admin imports two members
 * from a CSV file (one row wrong), reads the row error and downloads the error file, and exports
 * the customers, whose file holds the imported member: the upload, the queue's consumer, R2 and
 * the signed link all real under `wrangler dev`.
 */
import type { Download, Page } from 'playwright-core';
import { screenshot } from './browser';
import { APPEAR_MS, navigate } from './support';
import { ADMIN_EMAIL, requireTenant, type World } from './world';

/** Long enough for the local queue to run the job (the screens poll every few seconds). */
const JOB_MS = 60_000;
const IMPORTED = 'e2e-import-1';
const MEMBERS_CSV = `external_id,email,username\n${IMPORTED},imported@example.com,imported\ne2e-import-2,not-an-email,second\n`;

async function auditLogShowsTheTier(world: World): Promise<void> {
  requireTenant(world);
  const page = world.admin;
  if (!world.tierName) throw new Error('no tier was created before the audit log scenario');
  await navigate(page, 'Audit log');
  const filters = page.getByRole('form', { name: 'Audit log filters' });
  await filters.getByLabel('Action').fill('createTier');
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  const entries = page.getByRole('table', { name: 'Audit entries' });
  const row = entries.getByRole('row').filter({ hasText: 'createTier' }).first();
  await row.waitFor({ timeout: APPEAR_MS });
  const text = await row.innerText();
  if (!text.includes(ADMIN_EMAIL)) throw new Error(`the tier's entry names "${text}", not the admin ${ADMIN_EMAIL}`);
  await row.getByRole('button', { name: 'Before and after' }).click();
  const name = page.getByRole('table', { name: 'Changed fields' }).getByRole('row', { name: /tier_name/ });
  await name.getByText(world.tierName, { exact: true }).waitFor({ timeout: APPEAR_MS });
  await screenshot(page, 'audit-log');
}

/** The text of a file the page downloads when `click` runs. */
async function downloaded(page: Page, click: () => Promise<void>): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: JOB_MS }), click()]);
  const stream = await (download as Download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function importMembers(world: World): Promise<void> {
  requireTenant(world);
  const page = world.admin;
  await navigate(page, 'Imports');
  await page.getByLabel('CSV file').setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(MEMBERS_CSV) });
  await page.getByRole('button', { name: 'Upload' }).click();
  // The new import opens in a dialog that follows it while the queue applies its rows.
  const details = page.getByRole('dialog');
  await details.getByText('1 applied, 1 failed of 2').waitFor({ timeout: JOB_MS });
  await details.getByRole('cell', { name: /email/ }).first().waitFor({ timeout: APPEAR_MS });
  await screenshot(page, 'import-errors');
  const errors = await downloaded(page, () => details.getByRole('button', { name: 'Download all errors (CSV)' }).click());
  if (!errors.startsWith('row,message') || !errors.includes('3,')) throw new Error(`the error file reads ${JSON.stringify(errors)}`);
  await details.getByRole('button', { name: 'Done' }).click();
}

async function exportCustomers(world: World): Promise<void> {
  requireTenant(world);
  const page = world.admin;
  await navigate(page, 'Exports');
  await page.getByRole('button', { name: 'New export' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Request export' }).click();
  const job = page.getByRole('table', { name: 'Exports' }).getByRole('row').filter({ hasText: 'completed' }).first();
  await job.waitFor({ timeout: JOB_MS });
  await screenshot(page, 'exports');
  const file = await downloaded(page, () => job.getByRole('button', { name: 'Download CSV' }).click());
  if (!file.startsWith('id,external_id,email') || !file.includes(`${IMPORTED},imported@example.com`)) throw new Error(`the customers file misses the imported member: ${file.slice(0, 300)}`);
}

export const operationsScenarios: Array<[string, (world: World) => Promise<void>]> = [
  ['the audit log shows who created the tier, with its fields', auditLogShowsTheTier],
  ['import members from a CSV file, read the row error and download the error file', importMembers],
  ['export the customers and download the file through its signed link', exportCustomers],
];
