/**
 * Query keys, all under the tenant: a write invalidates one prefix (`keys.customers(t)` clears the
 * list, every page and every customer of that tenant) and another tenant's cache is never mixed in.
 */
export const keys = {
  tenant: (tenantId: string) => ['t', tenantId] as const,
  customers: (tenantId: string) => ['t', tenantId, 'customers'] as const,
  transactions: (tenantId: string) => ['t', tenantId, 'transactions'] as const,
  tiers: (tenantId: string) => ['t', tenantId, 'tiers'] as const,
  rewards: (tenantId: string) => ['t', tenantId, 'rewards'] as const,
  redemptions: (tenantId: string) => ['t', tenantId, 'redemptions'] as const,
  attributes: (tenantId: string) => ['t', tenantId, 'attributes'] as const,
  cohorts: (tenantId: string) => ['t', tenantId, 'cohorts'] as const,
  assets: (tenantId: string) => ['t', tenantId, 'onchain-assets'] as const,
  apiKeys: (tenantId: string) => ['t', tenantId, 'api-keys'] as const,
  members: (tenantId: string) => ['t', tenantId, 'members'] as const,
  webhooks: (tenantId: string) => ['t', tenantId, 'webhooks'] as const,
  exports: (tenantId: string) => ['t', tenantId, 'exports'] as const,
  analytics: (tenantId: string) => ['t', tenantId, 'analytics'] as const,
  earningRules: (tenantId: string) => ['t', tenantId, 'earning-rules'] as const,
  events: (tenantId: string) => ['t', tenantId, 'events'] as const,
  programSettings: (tenantId: string) => ['t', tenantId, 'program-settings'] as const,
  auditLog: (tenantId: string) => ['t', tenantId, 'audit-log'] as const,
  imports: (tenantId: string) => ['t', tenantId, 'imports'] as const,
};
