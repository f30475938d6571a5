/**
 * The rows of one bench tenant, generated in chunks of customers: each customer has a profile
 * (realistic country mix, a few statuses), attribute values, three internal transactions and, one
 * customer in ten, a completed redemption. Balances are consistent with the ledger: `xp_balance` is
 * the sum of the completed amounts and `lifetime_xp` that of the completed credits that are not
 * redemptions (src/domain/ledger.ts), so the API reads them as if they had been earned through it.
 * Each completed credit has its point lot (docs/POINTS.md), half of them expiring a year after the
 * load, inserted before the ledger so its debits take from them as the triggers do in production.
 */
import { newId } from '../../src/lib/ids';
import { insertStatements, randomInt, weightedPick, type SqlValue } from './sql';

export type AttributeDefinition = { id: string; key: string; type: string };

export type TenantPlan = {
  tenantId: string;
  customers: number;
  /** The reward the loaded redemptions are of, and its price. */
  redeemedReward: { id: string; xpCost: number };
  attributes: AttributeDefinition[];
  random: () => number;
};

export type Chunk = {
  statements: string[];
  customerIds: string[];
  /** Active customers with enough XP to keep redeeming the 1-XP bench reward under load. */
  earnerIds: string[];
  transactionIds: string[];
  redemptionIds: string[];
};

/** Weights roughly like a global consumer programme; a few customers never gave a country. */
const COUNTRIES: readonly (readonly [string | null, number])[] = [
  ['US', 22], ['DE', 9], ['GB', 8], ['FR', 7], ['BR', 7], ['IN', 6], ['JP', 5], ['CA', 4], ['MX', 4], ['ES', 4],
  ['IT', 4], ['NL', 2], ['AU', 2], ['PL', 2], ['SE', 1.5], ['KR', 1.5], ['TR', 1.5], ['AR', 1], ['ZA', 1], ['CH', 1],
  ['NG', 1], ['ID', 1], ['PH', 1], ['VN', 0.5], ['EG', 0.5], [null, 3],
];
const STATUSES: readonly (readonly [string, number])[] = [['active', 95], ['suspended', 2], ['pending', 2], ['reinstated', 1]];
const DRINKS = ['flat white', 'cold brew', 'espresso', 'chai latte', 'cappuccino', 'earl grey', 'matcha latte', 'mocha'];
const DAY_MS = 86_400_000;
/** Customers joined over the two years before the load, evenly; each one's transactions follow before the next joins. */
const HISTORY_DAYS = 730;

const CUSTOMER_COLUMNS = ['id', 'tenant_id', 'external_id', 'email', 'username', 'country_code', 'status', 'xp_balance', 'lifetime_xp', 'created_at', 'updated_at'];
const TRANSACTION_COLUMNS = ['id', 'tenant_id', 'user_id', 'redemption_id', 'type', 'amount', 'metadata', 'notes', 'status', 'created_at', 'updated_at'];
const REDEMPTION_COLUMNS = ['id', 'tenant_id', 'user_id', 'reward_id', 'status', 'xp_spent', 'created_at', 'updated_at'];
const VALUE_COLUMNS = ['tenant_id', 'user_id', 'definition_id', 'value_text', 'value_number', 'created_at', 'updated_at'];
const LOT_COLUMNS = ['id', 'tenant_id', 'user_id', 'internal_transaction_id', 'amount', 'remaining', 'reversed', 'status', 'available_at', 'expires_at', 'activated_at', 'created_at', 'updated_at'];
const YEAR_MS = 365 * DAY_MS;

type Entry = { type: string; amount: number; status: string; redemptionId: string | null; metadata: string | null; notes: string | null };

function counts(entry: Entry): { balance: number; lifetime: number } {
  if (entry.status !== 'completed') return { balance: 0, lifetime: 0 };
  return { balance: entry.amount, lifetime: entry.amount > 0 && entry.type !== 'xp_redeem' ? entry.amount : 0 };
}

/** The three ledger entries of one customer; `redemptionId` makes the third one its xp_redeem. */
function ledgerOf(plan: TenantPlan, index: number, redemptionId: string | null): Entry[] {
  const { random } = plan;
  // A redeemer's first earn completed and covers the price, so the balance never goes below zero.
  const earnFailed = redemptionId === null && random() < 0.03;
  const earn: Entry = {
    type: 'xp_earn', amount: randomInt(random, Math.max(50, plan.redeemedReward.xpCost), 900), status: earnFailed ? 'failed' : 'completed',
    redemptionId: null, metadata: JSON.stringify({ order_id: `order-${index}-1` }), notes: null,
  };
  const bonus: Entry = { type: 'xp_bonus', amount: randomInt(random, 10, 300), status: 'completed', redemptionId: null, metadata: null, notes: 'Campaign bonus' };
  if (redemptionId) {
    return [earn, bonus, { type: 'xp_redeem', amount: -plan.redeemedReward.xpCost, status: 'completed', redemptionId, metadata: null, notes: 'Redeemed' }];
  }
  const earned = [earn, bonus].reduce((sum, entry) => sum + counts(entry).balance, 0);
  const adjustment = random() < 0.7 ? randomInt(random, 1, 100) : -Math.min(earned, randomInt(random, 1, 50));
  const third: Entry =
    adjustment === 0 || random() < 0.4
      ? { type: 'xp_earn', amount: randomInt(random, 20, 400), status: 'completed', redemptionId: null, metadata: JSON.stringify({ order_id: `order-${index}-3` }), notes: null }
      : { type: 'xp_admin_adjust', amount: adjustment, status: 'completed', redemptionId: null, metadata: null, notes: 'Support goodwill' };
  return [earn, bonus, third];
}

function attributeValue(definition: AttributeDefinition, random: () => number, joined: Date): [string | null, number | null] | undefined {
  if (random() < 0.2) return undefined; // not everyone filled in every attribute
  switch (definition.type) {
    case 'boolean':
      return [null, random() < 0.55 ? 1 : 0];
    case 'number':
      return [null, randomInt(random, 0, 25)];
    case 'date':
      return [joined.toISOString().slice(0, 10), null];
    default:
      return [DRINKS[randomInt(random, 0, DRINKS.length - 1)] ?? DRINKS[0] ?? '', null];
  }
}

/**
 * Chunks of `size` customers, oldest first, each with the statements that insert them and theirs.
 * @example for (const chunk of tenantChunks(plan, 2000)) await db.batch(chunk.statements.map((s) => db.prepare(s)));
 */
export function* tenantChunks(plan: TenantPlan, size: number, now = Date.now()): Generator<Chunk> {
  const { random, tenantId } = plan;
  const first = now - HISTORY_DAYS * DAY_MS;
  const spacing = (HISTORY_DAYS * DAY_MS) / plan.customers;
  for (let start = 0; start < plan.customers; start += size) {
    const chunk: Chunk = { statements: [], customerIds: [], earnerIds: [], transactionIds: [], redemptionIds: [] };
    const customers: SqlValue[][] = [];
    const transactions: SqlValue[][] = [];
    const redemptions: SqlValue[][] = [];
    const values: SqlValue[][] = [];
    const lots: SqlValue[][] = [];
    for (let index = start; index < Math.min(start + size, plan.customers); index += 1) {
      const id = newId('cus');
      const joined = new Date(first + index * spacing);
      const redemptionId = random() < 0.1 ? newId('red') : null;
      const ledger = ledgerOf(plan, index, redemptionId);
      let balance = 0;
      let lifetime = 0;
      ledger.forEach((entry, position) => {
        // Before the next customer joins: every table's rows go in in created_at order, as in production.
        const at = new Date(joined.getTime() + ((position + 1) * spacing) / (ledger.length + 1)).toISOString();
        const transactionId = newId('itx');
        transactions.push([transactionId, tenantId, id, entry.redemptionId, entry.type, entry.amount, entry.metadata, entry.notes, entry.status, at, at]);
        chunk.transactionIds.push(transactionId);
        if (entry.status === 'completed' && entry.amount > 0 && entry.type !== 'xp_redeem') {
          const expiresAt = random() < 0.5 ? new Date(now + YEAR_MS + random() * YEAR_MS).toISOString() : null;
          lots.push([newId('lot'), tenantId, id, transactionId, entry.amount, entry.amount, 0, 'active', at, expiresAt, at, at, at]);
        }
        if (entry.redemptionId) {
          redemptions.push([entry.redemptionId, tenantId, id, plan.redeemedReward.id, 'completed', plan.redeemedReward.xpCost, at, at]);
          chunk.redemptionIds.push(entry.redemptionId);
        }
        balance += counts(entry).balance;
        lifetime += counts(entry).lifetime;
      });
      const status = weightedPick(random, STATUSES);
      const created = joined.toISOString();
      const country = weightedPick(random, COUNTRIES);
      customers.push([id, tenantId, `bench-${index + 1}`, `customer${index + 1}@example.com`, `customer${index + 1}`, country, status, balance, lifetime, created, created]);
      for (const definition of plan.attributes) {
        const value = attributeValue(definition, random, joined);
        if (value) values.push([tenantId, id, definition.id, value[0], value[1], created, created]);
      }
      chunk.customerIds.push(id);
      if (status === 'active' && balance >= 50) chunk.earnerIds.push(id);
    }
    // Attribute values before their customers: the cohort triggers (migrations/shard/0004) then evaluate
    // each customer once, on its insert, with all its values in place (the same memberships as
    // evaluating again after each value, for a quarter of the work).
    chunk.statements.push(
      ...insertStatements('customer_attribute_values', VALUE_COLUMNS, values),
      ...insertStatements('customers', CUSTOMER_COLUMNS, customers),
      ...insertStatements('redemptions', REDEMPTION_COLUMNS, redemptions),
      ...insertStatements('point_lots', LOT_COLUMNS, lots),
      ...insertStatements('internal_transactions', TRANSACTION_COLUMNS, transactions),
    );
    yield chunk;
  }
}
