import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { programSettings, type ProgramSettingsRow } from '../db/schema';
import { DEFAULT_PROGRAM_SETTINGS, type ProgramSettings } from '../domain/program-settings';

/** The tenant's settings row, for a batch (none until the settings are first saved): read it with `programSettingsOf`. */
export function programSettingsQuery(db: Database, tenantId: string) {
  return db.select().from(programSettings).where(eq(programSettings.tenantId, tenantId)).limit(1);
}

/** The settings a `programSettingsQuery` found, the defaults when none; `updatedAt` null until first saved. */
export function programSettingsOf(rows: readonly ProgramSettingsRow[]): { settings: ProgramSettings; updatedAt: string | null } {
  const [row] = rows;
  if (!row) return { settings: { ...DEFAULT_PROGRAM_SETTINGS }, updatedAt: null };
  const { tenantId: _tenant, createdAt: _created, updatedAt, ...settings } = row;
  return { settings, updatedAt };
}

/**
 * The tenant's program settings (the defaults when it never saved any), in one D1 call.
 *
 * @example const { timezone } = await readProgramSettings(ctx.db, ctx.tenantId);
 */
export async function readProgramSettings(db: Database, tenantId: string): Promise<ProgramSettings> {
  return programSettingsOf(await programSettingsQuery(db, tenantId)).settings;
}

/** Inserts or replaces every field of the tenant's settings; answers the row as saved. */
export function saveProgramSettingsQuery(db: Database, tenantId: string, settings: ProgramSettings, now: string) {
  return db
    .insert(programSettings)
    .values({ tenantId, ...settings, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: programSettings.tenantId, set: { ...settings, updatedAt: now } })
    .returning();
}
