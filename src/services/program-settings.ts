import { programSettingsOf, programSettingsQuery, saveProgramSettingsQuery } from '../data/program-settings';
import { tierBasisStatements } from '../data/tier-retention';
import { checkProgramSettings, type ProgramSettings } from '../domain/program-settings';
import { reviewCalendar, tierPeriodParts } from '../domain/tier-reviews';
import { isoNow } from '../lib/time';
import type { ProgramSettingsInput, ProgramSettingsView } from '../schemas/program-settings';
import { toProgramSettingsView } from '../views/program-settings';
import type { ServiceContext } from './context';

/**
 * The tenant's program settings (CONTRACT.md, Program settings). Saving the time zone moves the
 * periods of every rule limit: the earning rules' version is bumped by a trigger
 * (src/db/sql/earning-rules.sql), so the next event reads the new zone. Saving tiers writes the
 * review dates ahead and moves customers between placed and held tiers in the same batch
 * (data/tier-retention.ts).
 */

function settingsOf(input: ProgramSettingsInput): ProgramSettings {
  return {
    timezone: input.timezone,
    pointsPendingPeriod: input.points.pending_period,
    pointsValidity: input.points.validity,
    pointsExpiryRounding: input.points.expiry_rounding,
    pointsExpiryNotice: input.points.expiry_notice,
    tiersBasis: input.tiers.basis,
    tiersPeriod: input.tiers.period,
    ...tierPeriodParts(input.tiers.period),
    tiersDowngrade: input.tiers.downgrade,
    tiersReview: input.tiers.review,
  };
}

/** Every field, the defaults where the tenant never saved settings. */
export async function getProgramSettings({ db, tenantId }: ServiceContext): Promise<ProgramSettingsView> {
  const { settings, updatedAt } = programSettingsOf(await programSettingsQuery(db, tenantId));
  return toProgramSettingsView(settings, updatedAt);
}

/** PUT: the whole document replaces the stored one (what the body leaves out is its default, by the schema). */
export async function replaceProgramSettings(ctx: ServiceContext, input: ProgramSettingsInput): Promise<ProgramSettingsView> {
  const settings = settingsOf(input);
  checkProgramSettings(settings);
  const now = ctx.now();
  const [row] = await ctx.db.batch([
    saveProgramSettingsQuery(ctx.db, ctx.tenantId, settings, isoNow(now)),
    ...tierBasisStatements(ctx.db, ctx.tenantId, isoNow(now), reviewCalendar(now, settings)),
  ]);
  const { settings: saved, updatedAt } = programSettingsOf(row);
  return toProgramSettingsView(saved, updatedAt);
}
