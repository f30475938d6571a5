/**
 * A straightforward in-memory evaluation of cohort rules, written independently of the SQL
 * compiler, to check it against (property.test.ts). It works on the values as the client wrote
 * them: numbers as JS numbers, datetimes as instants, lists as arrays.
 */

export type AttributeTypeName = 'string' | 'number' | 'boolean' | 'date' | 'datetime' | 'string_list';
export type AttributeValue = string | number | boolean | string[];

export type MemoryCustomer = {
  id: string;
  status: string;
  country: string | null;
  xpBalance: number;
  lifetimeXp: number;
  attributes: Record<string, AttributeValue | undefined>;
};

export type MemoryTier = { id: string; threshold: number };
export type MemoryPredicate = { type: string; key?: string; op: string; value?: string };
export type MemoryRules = { operator: 'and' | 'or'; predicates: MemoryPredicate[] };
export type MemoryWorld = { definitions: Record<string, AttributeTypeName>; tiers: MemoryTier[] };

function tierOf(customer: MemoryCustomer, tiers: MemoryTier[]): string | null {
  let best: MemoryTier | null = null;
  for (const tier of tiers) {
    if (tier.threshold <= customer.lifetimeXp && (best === null || tier.threshold > best.threshold)) best = tier;
  }
  return best?.id ?? null;
}

/** Ordered comparison of two values of one kind (numbers, or strings that sort like their values). */
function compare(op: string, left: number | string, right: number | string): boolean {
  switch (op) {
    case 'eq':
      return left === right;
    case 'neq':
      return left !== right;
    case 'gt':
      return left > right;
    case 'gte':
      return left >= right;
    case 'lt':
      return left < right;
    case 'lte':
      return left <= right;
    default:
      throw new Error(`no ordered op ${op}`);
  }
}

/** `left` is present; `read` turns a predicate value string into the same kind as `left`. */
function matchValue(op: string, left: number | string, raw: string, read: (text: unknown) => number | string): boolean {
  if (op === 'in') return (JSON.parse(raw) as unknown[]).map(read).includes(left);
  if (op === 'contains') return typeof left === 'string' && left.includes(String(read(raw)));
  return compare(op, left, read(raw));
}

function presence(op: string, present: boolean): boolean | undefined {
  if (op === 'exists') return present;
  if (op === 'not_exists') return !present;
  return present ? undefined : false;
}

function matchAttribute(p: MemoryPredicate, customer: MemoryCustomer, world: MemoryWorld): boolean {
  const type = world.definitions[p.key ?? ''];
  if (type === undefined) return false;
  const value = customer.attributes[p.key ?? ''];
  const settled = presence(p.op, value !== undefined);
  if (settled !== undefined || value === undefined) return settled ?? false;
  const raw = p.value ?? '';
  switch (type) {
    case 'string':
      return matchValue(p.op, value as string, raw, String);
    case 'number':
      return matchValue(p.op, value as number, raw, Number);
    case 'boolean':
      return compare(p.op, String(value), raw);
    case 'date':
      return matchValue(p.op, value as string, raw, String);
    case 'datetime':
      return matchValue(p.op, Date.parse(value as string), raw, (text) => Date.parse(String(text)));
    case 'string_list':
      return (value as string[]).includes(raw);
  }
}

function matchField(p: MemoryPredicate, customer: MemoryCustomer, world: MemoryWorld): boolean {
  const left = {
    tier: tierOf(customer, world.tiers),
    status: customer.status,
    country: customer.country,
    xp_balance: customer.xpBalance,
    lifetime_xp: customer.lifetimeXp,
  }[p.type];
  if (left === undefined) throw new Error(`no predicate type ${p.type}`);
  const settled = presence(p.op, left !== null);
  if (settled !== undefined || left === null) return settled ?? false;
  const read = typeof left === 'number' ? Number : p.type === 'country' ? (text: unknown) => String(text).toUpperCase() : String;
  return matchValue(p.op, left, p.value ?? '', read);
}

export function matches(rules: MemoryRules, customer: MemoryCustomer, world: MemoryWorld): boolean {
  const results = rules.predicates.map((p) => (p.type === 'attribute' ? matchAttribute(p, customer, world) : matchField(p, customer, world)));
  return rules.operator === 'and' ? results.every(Boolean) : results.some(Boolean);
}
