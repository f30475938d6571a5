/**
 * What the audit log records (CONTRACT.md, Operations: audit log; docs/OPERATIONS.md): which
 * tables' changes each audited operation is recorded from, and how a table's row becomes a target.
 * The triggers of src/db/sql/audit-log.sql are generated from `auditedTables`
 * (scripts/audit-triggers.ts); the middleware (middleware/audit.ts) reads `auditedOperations`.
 */

export type AuditedTable = {
  /** The target type an entry about a row of the table names. */
  targetType: string;
  /** The column whose value is the target's id. */
  targetId: string;
  /** Columns never diffed: keys and bookkeeping. */
  skip: readonly string[];
  /** Columns whose values never appear: a change shows `[redacted]` on the side that has one. */
  secrets: readonly string[];
  /** Columns holding JSON text, diffed as JSON values. */
  json: readonly string[];
  /** For a table of per-field values (one row per customer and attribute): the row is the field, named by this SQL over NEW/OLD (`$` stands for the row). */
  fieldOf?: { name: string; value: string };
};

const bookkeeping = ['id', 'tenant_id', 'seq', 'created_at', 'updated_at'] as const;

export const auditedTables = {
  memberships: { targetType: 'member', targetId: 'id', skip: bookkeeping, secrets: [], json: [] },
  api_keys: { targetType: 'api_key', targetId: 'id', skip: [...bookkeeping, 'last_used_at'], secrets: ['secret_ciphertext', 'secret_prefix', 'secret_suffix'], json: [] },
  internal_transactions: { targetType: 'internal_transaction', targetId: 'id', skip: bookkeeping, secrets: [], json: ['metadata'] },
  attribute_definitions: { targetType: 'attribute', targetId: 'id', skip: bookkeeping, secrets: [], json: [] },
  customers: { targetType: 'customer', targetId: 'id', skip: bookkeeping, secrets: [], json: [] },
  customer_attribute_values: {
    targetType: 'customer',
    targetId: 'user_id',
    skip: [],
    secrets: [],
    json: [],
    fieldOf: {
      name: `'attr.' || (SELECT d.key FROM attribute_definitions d WHERE d.id = $.definition_id)`,
      value: 'coalesce($.value_text, $.value_number)',
    },
  },
  cohorts: { targetType: 'cohort', targetId: 'id', skip: [...bookkeeping, 'created_by'], secrets: [], json: ['rules'] },
  earning_rules: {
    targetType: 'earning_rule',
    targetId: 'id',
    skip: [...bookkeeping, 'times_applied', 'xp_awarded'],
    secrets: [],
    json: ['conditions', 'effect', 'multipliers', 'limits'],
  },
  program_settings: { targetType: 'program_settings', targetId: 'tenant_id', skip: [...bookkeeping, 'tiers_period_months', 'tiers_period_seconds'], secrets: [], json: [] },
  tier_rules: { targetType: 'tier', targetId: 'id', skip: bookkeeping, secrets: [], json: [] },
  rewards: { targetType: 'reward', targetId: 'id', skip: bookkeeping, secrets: [], json: ['metadata'] },
  redemptions: { targetType: 'redemption', targetId: 'id', skip: bookkeeping, secrets: [], json: [] },
  onchain_assets: { targetType: 'onchain_asset', targetId: 'id', skip: bookkeeping, secrets: [], json: ['metadata'] },
  webhook_endpoints: {
    targetType: 'webhook_endpoint',
    targetId: 'id',
    skip: bookkeeping,
    secrets: ['secret_ciphertext', 'previous_secret_ciphertext'],
    json: ['event_types'],
  },
  webhook_deliveries: { targetType: 'webhook_delivery', targetId: 'id', skip: bookkeeping, secrets: [], json: [] },
  /** What was uploaded (its rows are applied later by the queue, under the import's entry). */
  import_jobs: {
    targetType: 'import',
    targetId: 'id',
    skip: [...bookkeeping, 'file_key', 'chunk_offsets', 'chunk_rows', 'chunks_total', 'chunks_done', 'resumes', 'rows_ok', 'rows_failed', 'error_file_key', 'completed_at', 'files_deleted_at'],
    secrets: [],
    json: ['columns'],
  },
  /** What was asked for (the file is written later by the queue). */
  export_jobs: {
    targetType: 'export',
    targetId: 'id',
    skip: [...bookkeeping, 'rows', 'run_id', 'file_key', 'failure_reason', 'started_at', 'completed_at', 'expired_at'],
    secrets: [],
    json: [],
  },
} as const satisfies Record<string, AuditedTable>;

export type AuditedTableName = keyof typeof auditedTables;

/**
 * Every audited operation (the operationId of a portal write, or of a gateway customer or attribute
 * write) and the tables its entries come from: the operation's own target, never what it moves as
 * a consequence (an adjustment's balance, a tier placement), which the target's entry explains.
 * test/audit checks that every portal write of the OpenAPI document is here or in `unaudited`.
 */
export const auditedOperations: Record<string, readonly AuditedTableName[]> = {
  inviteMember: ['memberships'],
  updateMember: ['memberships'],
  removeMember: ['memberships'],
  createApiKey: ['api_keys'],
  revokeApiKey: ['api_keys'],
  adjustCustomerXp: ['internal_transactions'],
  createAttribute: ['attribute_definitions'],
  deleteAttribute: ['attribute_definitions'],
  setCustomerAttributes: ['customer_attribute_values'],
  gatewaySetCustomerAttributes: ['customer_attribute_values'],
  gatewayUpsertCustomer: ['customers', 'customer_attribute_values'],
  updateCustomer: ['customers'],
  eraseCustomer: ['customers', 'customer_attribute_values'],
  createCohort: ['cohorts'],
  updateCohort: ['cohorts'],
  deleteCohort: ['cohorts'],
  createEarningRule: ['earning_rules'],
  updateEarningRule: ['earning_rules'],
  deleteEarningRule: ['earning_rules'],
  replaceProgramSettings: ['program_settings'],
  createTier: ['tier_rules'],
  replaceTier: ['tier_rules'],
  deleteTier: ['tier_rules'],
  createReward: ['rewards'],
  updateReward: ['rewards'],
  deleteReward: ['rewards'],
  cancelRedemption: ['redemptions'],
  createOnchainAsset: ['onchain_assets'],
  updateOnchainAsset: ['onchain_assets'],
  deleteOnchainAsset: ['onchain_assets'],
  createWebhookEndpoint: ['webhook_endpoints'],
  updateWebhookEndpoint: ['webhook_endpoints'],
  deleteWebhookEndpoint: ['webhook_endpoints'],
  rotateWebhookEndpointSecret: ['webhook_endpoints'],
  replayWebhookDelivery: ['webhook_deliveries'],
  createImport: ['import_jobs'],
  createExport: ['export_jobs'],
};

/** Portal POSTs that change nothing, so the audit log has nothing to record of them. */
export const unauditedWrites = ['simulateEarningRules'] as const;

/** The `tables` of an operation's audit context: `,a,b,`, for the triggers' instr(). */
export const tablesList = (tables: readonly string[]) => `,${tables.join(',')},`;

/** The fields erasure blanks in entries about the person (the customer's personal columns and every attribute). */
export const personalFields = ['email', 'username', 'external_id'] as const;

/** How long entries are kept (CONTRACT.md: 400 days). */
export const AUDIT_RETENTION_DAYS = 400;
