/**
 * Issue 24's CMS scenario: the admin opens the audit log, narrows it to tier creations, and reads
 * the tier "create a tier" made: who made it and its fields before (none) and after.
 */
import { screenshot } from './browser';
import { APPEAR_MS, navigate } from './support';
import { ADMIN_EMAIL, requireTenant, type World } from './world';

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

export const operationsScenarios: Array<[string, (world: World) => Promise<void>]> = [['the audit log shows who created the tier, with its fields', auditLogShowsTheTier]];
