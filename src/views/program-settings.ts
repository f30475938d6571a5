import type { ProgramSettings } from '../domain/program-settings';
import type { ProgramSettingsView } from '../schemas/program-settings';

/** Every field, saved or default; `updatedAt` null until the settings are first saved. */
export function toProgramSettingsView(settings: ProgramSettings, updatedAt: string | null): ProgramSettingsView {
  return {
    timezone: settings.timezone,
    points: {
      pending_period: settings.pointsPendingPeriod,
      validity: settings.pointsValidity,
      expiry_rounding: settings.pointsExpiryRounding,
      expiry_notice: settings.pointsExpiryNotice,
    },
    tiers: {
      basis: settings.tiersBasis,
      period: settings.tiersPeriod,
      downgrade: settings.tiersDowngrade,
      review: settings.tiersReview,
    },
    updated_at: updatedAt,
  };
}
