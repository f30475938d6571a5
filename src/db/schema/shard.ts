/** A shard's tables: every tenant's data (docs/SCALING.md). drizzle.config.ts generates migrations/shard from here. */
export * from './tenants';
export * from './api-keys';
export * from './customers';
export * from './loyalty';
export * from './onchain';
export * from './onchain-limits';
export * from './xp-openings';
export * from './segments';
export * from './counts';
export * from './webhooks';
export * from './program';
export * from './points';
export * from './audit';
export * from './imports';
export * from './exports';
