import { z } from 'zod';
import type { OnchainOperationKind } from '../db/schema';
import { envEther, envWholeNumber } from '../lib/env-fields';

/** The settlement timings and limits, part of the environment schema (src/config.ts). */
export const settlementFields = {
  /** Blocks a receipt must be buried under before it is final. */
  CONFIRMATIONS: envWholeNumber('CONFIRMATIONS', { min: 1, max: 1000, fallback: 1 }),
  /** Seconds a sent transaction may wait in the pool before it is re-sent with higher fees. */
  SETTLEMENT_STUCK_SECONDS: envWholeNumber('SETTLEMENT_STUCK_SECONDS', { min: 0, max: 86_400, fallback: 120 }),
  /**
   * Most gas one operation may use, by kind (docs/decisions/0029-gas-ceilings-and-daily-budget.md):
   * reference deploys take 0.66-1.05 M, mints and burns 30-80 k; a contract that asks more fails
   * before anything is sent.
   */
  MAX_GAS_DEPLOY: envWholeNumber('MAX_GAS_DEPLOY', { min: 21_000, max: 30_000_000, fallback: 3_000_000 }),
  MAX_GAS_MINT: envWholeNumber('MAX_GAS_MINT', { min: 21_000, max: 30_000_000, fallback: 250_000 }),
  MAX_GAS_BURN: envWholeNumber('MAX_GAS_BURN', { min: 21_000, max: 30_000_000, fallback: 250_000 }),
  /** Gas the relayer may spend for one tenant per UTC day (about 1,500 mints at the default). */
  TENANT_DAILY_GAS_BUDGET: envWholeNumber('TENANT_DAILY_GAS_BUDGET', { min: 21_000, max: 1_000_000_000_000, fallback: 100_000_000 }),
  /** Platform deploys (assets created without `asset_address`) one tenant may make in all. */
  TENANT_DEPLOY_LIMIT: envWholeNumber('TENANT_DEPLOY_LIMIT', { min: 0, max: 10_000, fallback: 20 }),
  /** Below this native balance the minute cron logs the relayer as low, once an hour per chain. */
  RELAYER_MIN_BALANCE: envEther('RELAYER_MIN_BALANCE', '0.05'),
};

const settlementSchema = z.object(settlementFields);

export type SettlementSettings = {
  confirmations: number;
  stuckAfterSeconds: number;
  maxGas: Readonly<Record<OnchainOperationKind, bigint>>;
  dailyGasBudget: number;
  deployLimit: number;
  relayerMinBalance: bigint;
};

const parsedSettings = new WeakMap<object, SettlementSettings>();

/**
 * The settings for the queue consumer, crons and onchain routes (parsed once per env object: the
 * hot routes build an onchain context per request).
 */
export function settlementSettings(env: Readonly<Record<string, unknown>>): SettlementSettings {
  let settings = parsedSettings.get(env);
  if (!settings) parsedSettings.set(env, (settings = parseSettings(env)));
  return settings;
}

function parseSettings(env: Readonly<Record<string, unknown>>): SettlementSettings {
  const parsed = settlementSchema.parse(env);
  return {
    confirmations: parsed.CONFIRMATIONS,
    stuckAfterSeconds: parsed.SETTLEMENT_STUCK_SECONDS,
    maxGas: {
      deploy: BigInt(parsed.MAX_GAS_DEPLOY),
      mint: BigInt(parsed.MAX_GAS_MINT),
      burn: BigInt(parsed.MAX_GAS_BURN),
      opening_mint: BigInt(parsed.MAX_GAS_MINT),
      opening_burn: BigInt(parsed.MAX_GAS_BURN),
    },
    dailyGasBudget: parsed.TENANT_DAILY_GAS_BUDGET,
    deployLimit: parsed.TENANT_DEPLOY_LIMIT,
    relayerMinBalance: parsed.RELAYER_MIN_BALANCE,
  };
}
