import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageSchema } from '../../src/lib/paging';
import { customerSchema } from '../../src/schemas/customer';
import { type EventView } from '../../src/schemas/event';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { programSettingsSchema } from '../../src/schemas/program-settings';
import { createCustomerViaApi } from '../support/customers';
import { expectOk } from '../support/http';
import { createRuleViaApi, givingRules, recordEvent, ruleViaApi } from '../support/rules';
import { tenantPath } from '../support/segments';
import { createTenant, createTestApiKey, gatewayCall, portalCall, type TestTenant } from '../support/world';

/**
 * Per-customer limits (CONTRACT.md, Events and earning rules): `max_times` and `max_xp` per `day`,
 * `week` (from Monday), `month`, `year` in the tenant's time zone, or `lifetime`; a capped effect
 * shows the amount that still fit. The boundaries are local midnights of a zone that is not UTC,
 * computed here with Intl alone. `occurred_at` must be within 30 days before now, so the clock is set
 * (Date only) just after the boundary a test needs; the Worker runs in this isolate and reads it.
 */

afterEach(() => vi.useRealTimers());

const SECOND = 1000;
const MINUTE = 60 * SECOND;

function wallClock(instant: number, timeZone: string): string {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'short', hourCycle: 'h23' });
  const part = (type: Intl.DateTimeFormatPartTypes) => format.formatToParts(new Date(instant)).find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

/** The instant `timeZone`'s clocks read `date` 00:00:00 (`weekday` checks the calendar the test means). */
function localMidnight(date: string, weekday: string, timeZone: string): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  const offsetAt = (instant: number) => Date.parse(wallClock(instant, timeZone).slice(4).replace(' ', 'T') + 'Z') - instant;
  const instant = utcMidnight - offsetAt(utcMidnight - offsetAt(utcMidnight));
  expect(instant).not.toBe(utcMidnight);
  expect(wallClock(instant, timeZone)).toBe(`${weekday} ${date} 00:00:00`);
  return instant;
}

const PERIODS = ['day', 'week', 'month', 'year', 'lifetime'] as const;

/** A tenant in `timeZone` with one "once per period" rule per period (named after it), and a customer. */
async function onceAPeriod(timeZone: string) {
  const tenant = await createTenant('periods');
  const key = await createTestApiKey(tenant.id);
  await setTimeZone(tenant, timeZone);
  // Priorities give the order: under a set clock every rule has the same created_at.
  for (const [index, period] of PERIODS.entries()) {
    await createRuleViaApi(tenant.owner, tenant.id, { name: period, priority: -index, limits: { per_customer: [{ period, max_times: 1 }] } });
  }
  const customer = await createCustomerViaApi(key);
  /** The periods whose rule gave XP to an event at `instant`: those the instant opened afresh. */
  const freshPeriods = async (instant: number) => givingRules(await recordEvent(key, { user_id: customer.id, occurred_at: new Date(instant).toISOString() }));
  return { tenant, freshPeriods };
}

async function setTimeZone(tenant: TestTenant, timezone: string) {
  const res = await portalCall(tenant.owner, 'PUT', tenantPath(tenant.id, '/program-settings'), { timezone });
  expect(expectOk(res, 200, programSettingsSchema).timezone).toBe(timezone);
}

function setClock(instant: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(instant);
}

describe('periods in the tenant time zone', () => {
  it('America/New_York: a day starts at local midnight, a week on Monday', async () => {
    const zone = 'America/New_York';
    const monday = localMidnight('2027-01-18', 'Mon', zone);
    const tuesday = localMidnight('2027-01-19', 'Tue', zone);
    setClock(tuesday + 2 * MINUTE);
    const { freshPeriods } = await onceAPeriod(zone);
    expect(await freshPeriods(monday - SECOND)).toEqual([...PERIODS]);
    // Sunday 23:59:59 and Monday 00:00 are the same UTC day (05:00Z): only the local calendar parts them.
    expect(await freshPeriods(monday)).toEqual(['day', 'week']);
    expect(await freshPeriods(monday + 30 * SECOND)).toEqual([]);
    expect(await freshPeriods(tuesday - SECOND)).toEqual([]);
    expect(await freshPeriods(tuesday)).toEqual(['day']);
  });

  it.each([
    ['a year', '2027-01-01', 'Fri', ['day', 'month', 'year']],
    ['a month within the year', '2027-06-01', 'Tue', ['day', 'month']],
  ])('Asia/Tokyo: %s starts at local midnight of the 1st (15:00 UTC the day before)', async (_name, date, weekday, fresh) => {
    const zone = 'Asia/Tokyo';
    const first = localMidnight(date, weekday, zone);
    setClock(first + 2 * MINUTE);
    const { freshPeriods } = await onceAPeriod(zone);
    expect(await freshPeriods(first - SECOND)).toEqual([...PERIODS]);
    expect(await freshPeriods(first)).toEqual(fresh);
    expect(await freshPeriods(first + MINUTE)).toEqual([]);
  });

  it('a new time zone applies to the next event', async () => {
    const instant = Date.parse('2027-03-10T02:00:00Z');
    expect(wallClock(instant, 'Asia/Tokyo')).toBe('Wed 2027-03-10 11:00:00');
    expect(wallClock(instant, 'America/New_York')).toBe('Tue 2027-03-09 21:00:00');
    setClock(instant + 5 * MINUTE);
    const { tenant, freshPeriods } = await onceAPeriod('Asia/Tokyo');
    expect(await freshPeriods(instant)).toEqual([...PERIODS]);
    await setTimeZone(tenant, 'America/New_York');
    // The rules of the first event are cached with Tokyo's zone: the change must reach the next event.
    expect(await freshPeriods(instant + MINUTE)).toEqual(['day']);
    expect(await freshPeriods(instant + 2 * MINUTE)).toEqual([]);
  });
});

describe('caps', () => {
  it('max_xp fits what is left (capped), then 0 (capped, no transaction); max_times and a total budget likewise; counters count what was given', async () => {
    setClock(Date.parse('2027-01-13T12:00:00Z'));
    const tenant = await createTenant('caps');
    const key = await createTestApiKey(tenant.id);
    const customer = await createCustomerViaApi(key);
    const create = (priority: number, amount: number, limits: Record<string, unknown>) =>
      createRuleViaApi(tenant.owner, tenant.id, { name: `rule ${priority}`, priority, effect: { kind: 'fixed', amount: String(amount) }, limits });
    const rules = [
      await create(4, 30, { per_customer: [{ period: 'day', max_xp: '50' }] }),
      await create(3, 10, { per_customer: [{ period: 'week', max_times: 2 }] }),
      await create(2, 10, { per_customer: [{ period: 'month', max_times: 3, max_xp: '25' }] }),
      await create(1, 10, { total_xp_budget: '25' }),
    ];
    const shape = (event: EventView) => event.effects.map((effect) => [effect.amount, effect.capped, effect.internal_transaction_id !== null]);
    const events: EventView[] = [];
    for (let i = 0; i < 4; i += 1) events.push(await recordEvent(key, { user_id: customer.id }));
    expect(events.map(shape)).toEqual([
      [['30', false, true], ['10', false, true], ['10', false, true], ['10', false, true]],
      [['20', true, true], ['10', false, true], ['10', false, true], ['10', false, true]],
      [['0', true, false], ['0', true, false], ['5', true, true], ['5', true, true]],
      [['0', true, false], ['0', true, false], ['0', true, false], ['0', true, false]],
    ]);
    expect(events.map((event) => event.xp_awarded)).toEqual(['60', '50', '10', '0']);
    // A limit or budget lowered below what was already given leaves nothing (never a negative effect).
    const lower = async (rule: { id: string }, limits: Record<string, unknown>) =>
      expect((await portalCall(tenant.owner, 'PATCH', tenantPath(tenant.id, `/earning-rules/${rule.id}`), { limits })).status).toBe(200);
    await lower(rules[0]!, { per_customer: [{ period: 'day', max_xp: '20' }] });
    await lower(rules[3]!, { total_xp_budget: '10' });
    const lowered = await recordEvent(key, { user_id: customer.id });
    expect(shape(lowered)).toEqual([['0', true, false], ['0', true, false], ['0', true, false], ['0', true, false]]);
    events.push(lowered);
    expect(lowered.effects.map((effect) => effect.rule_id)).toEqual(rules.map((rule) => rule.id));

    const customerNow = expectOk(await gatewayCall(key, 'GET', `/api/v1/gateway/customers/${customer.id}`), 200, customerSchema);
    expect(customerNow.xp_balance).toBe('120');
    const transactions = expectOk(await gatewayCall(key, 'GET', `/api/v1/gateway/internal-transactions?user_id=${customer.id}&limit=100`), 200, pageSchema(internalTransactionSchema));
    expect(transactions.items.map((transaction) => transaction.amount).sort()).toEqual(['10', '10', '10', '10', '10', '10', '20', '30', '5', '5']);
    const counters = await Promise.all(rules.map(async (rule) => (await ruleViaApi(tenant.owner, tenant.id, rule.id)).counters));
    expect(counters).toEqual([
      { times_applied: 2, xp_awarded: '50' },
      { times_applied: 2, xp_awarded: '20' },
      { times_applied: 3, xp_awarded: '25' },
      { times_applied: 3, xp_awarded: '25' },
    ]);
  });
});
