import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { onchainAssets, onchainOperations } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { optionalText, plainText, textPatterns, trimmedText } from '../../src/schemas/common';
import { expectError, type JsonResponse } from '../support/http';
import { createCustomer } from '../support/ledger';
import { createTenant, createTestApiKey, db, gatewayCall, portalCall, type TestApiKey, type TestTenant } from '../support/world';
import { insertAssetRow } from '../onchain-assets/helpers';

/*
 * Text the API takes is shown to people (the CMS, partners' apps, a token's name in wallets):
 * control characters (C0, DEL, C1) and Unicode bidirectional controls are refused, so no value can
 * hide characters or display as something else (issue 20: an asset named with NUL and U+202E went
 * into the deployed contract). Text spanning lines keeps tab, line feed and carriage return.
 */

const NUL = '\u0000';
const RLO = '\u202e';
const refusedInOneLine: Array<[string, string]> = [['NUL', NUL], ['U+202E', RLO], ['U+2066', '\u2066'], ['U+061C', '\u061c'], ['line feed', '\n'], ['DEL', '\u007f'], ['U+0085', '\u0085']];
const refusedInLines: Array<[string, string]> = [['NUL', NUL], ['U+202E', RLO], ['U+200F', '\u200f'], ['ESC', '\u001b'], ['vertical tab', '\u000b'], ['U+009B', '\u009b']];

const message = (char: string) => new RegExp(`^Must not contain U\\+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}: control characters`);

describe('onchain asset name and symbol (written into a deployed contract)', () => {
  const deploy = { type: 'erc20', chain_id: 31337, name: 'Loyalty', symbol: 'LOY', decimals: 0 };

  it.each([['name', NUL], ['name', RLO], ['symbol', NUL], ['symbol', RLO]])('%s with %j: 422 at that field; nothing stored, nothing deployed, nothing renamed', async (field, char) => {
    const tenant = await createTenant();
    const res = await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/onchain-assets`, { ...deploy, [field]: `LOY${char}X` });
    const error = expectError(res, 422, 'VALIDATION_FAILED');
    expect(error.errors).toEqual([{ path: field, message: expect.stringMatching(message(char)) }]);
    expect(await db(tenant.id).select().from(onchainAssets).where(eq(onchainAssets.tenantId, tenant.id))).toEqual([]);
    expect(await db(tenant.id).select().from(onchainOperations).where(eq(onchainOperations.tenantId, tenant.id))).toEqual([]);

    const asset = await insertAssetRow(tenant.id);
    const patched = expectError(await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/onchain-assets/${asset.id}`, { [field]: `LOY${char}X` }), 422, 'VALIDATION_FAILED');
    expect(patched.errors.map((entry) => entry.path)).toEqual([field]);
    const [stored] = await db(tenant.id).select().from(onchainAssets).where(and(eq(onchainAssets.tenantId, tenant.id), eq(onchainAssets.id, asset.id)));
    expect({ name: stored?.name, symbol: stored?.symbol }).toEqual({ name: asset.name, symbol: asset.symbol });
  });
});

type World = { tenant: TestTenant; key: TestApiKey; userId: string };
type Field = { field: string; lines: 'one' | 'many'; send: (world: World, value: string) => Promise<JsonResponse> };

const portal = (world: World, method: string, path: string, body: Record<string, unknown>) => portalCall(world.tenant.owner, method, `/api/v1/tenant/${world.tenant.id}${path}`, body);
const rules = { operator: 'and', predicates: [{ type: 'status', op: 'eq', value: 'active' }] };

/** Every display text the API takes, sent where it is taken, with the value at the field. */
const fields: Field[] = [
  { field: 'tenant name', lines: 'one', send: (w, value) => portalCall(w.tenant.owner, 'POST', '/api/v1/tenants', { name: value, slug: `t-${newId('s').slice(-12).toLowerCase().replace(/_/g, '-')}` }) },
  { field: 'API key name', lines: 'one', send: (w, value) => portal(w, 'POST', '/api-keys', { name: value }) },
  { field: 'API key label', lines: 'one', send: (w, value) => portal(w, 'POST', '/api-keys', { name: 'k', label: value }) },
  { field: 'tier_name', lines: 'one', send: (w, value) => portal(w, 'POST', '/tiers', { tier_name: value, min_xp_threshold: 1 }) },
  { field: 'reward title', lines: 'one', send: (w, value) => portal(w, 'POST', '/rewards', { title: value, xp_cost: '10' }) },
  { field: 'cohort name', lines: 'one', send: (w, value) => portal(w, 'POST', '/cohorts', { name: value, rules }) },
  { field: 'webhook endpoint description', lines: 'one', send: (w, value) => portal(w, 'POST', '/webhook-endpoints', { url: 'https://example.com/hook', description: value, event_types: ['customer.created'] }) },
  { field: 'customer username', lines: 'one', send: (w, value) => gatewayCall(w.key, 'POST', '/api/v1/gateway/customers', { body: { external_id: newId('ext'), username: value } }) },
  { field: 'customer external_id', lines: 'one', send: (w, value) => gatewayCall(w.key, 'POST', '/api/v1/gateway/customers', { body: { external_id: value } }) },
  { field: 'reward description', lines: 'many', send: (w, value) => portal(w, 'POST', '/rewards', { title: 'Coffee', xp_cost: '10', description: value }) },
  { field: 'tier benefits_description', lines: 'many', send: (w, value) => portal(w, 'POST', '/tiers', { tier_name: newId('tier'), min_xp_threshold: 1, benefits_description: value }) },
  { field: 'cohort description', lines: 'many', send: (w, value) => portal(w, 'POST', '/cohorts', { name: newId('c'), description: value, rules }) },
  { field: 'XP earn notes', lines: 'many', send: (w, value) => gatewayCall(w.key, 'POST', '/api/v1/gateway/xp', { body: { user_id: w.userId, type: 'xp_earn', amount: '1', notes: value } }) },
  { field: 'XP adjustment notes', lines: 'many', send: (w, value) => portal(w, 'POST', `/customers/${w.userId}/xp-adjustments`, { amount: '1', notes: value }) },
];

async function world(): Promise<World> {
  const tenant = await createTenant();
  return { tenant, key: await createTestApiKey(tenant.id), userId: await createCustomer(tenant.id) };
}

describe.each(fields)('$field', ({ send, lines }) => {
  const refused = lines === 'one' ? refusedInOneLine : refusedInLines;

  it(`refuses ${refused.map(([name]) => name).join(', ')}: 422 naming the field, saying what is refused`, async () => {
    const w = await world();
    for (const [, char] of refused) {
      const error = expectError(await send(w, `Gold${char}X`), 422, 'VALIDATION_FAILED');
      expect(error.errors).toHaveLength(1);
      expect(error.errors[0]?.message).toMatch(message(char));
      expect(error.errors[0]?.message).toMatch(lines === 'one' ? /and bidirectional controls/ : /other than tab, line feed and carriage return/);
    }
  });

  it(lines === 'one' ? 'accepts any other text: accents, CJK, emoji, Arabic and Hebrew letters' : 'keeps tab, line feed and carriage return, and any other text', async () => {
    const w = await world();
    const res = await send(w, lines === 'one' ? `Gold ✓ 金 😀 ذهب זהב ${newId('v').slice(-6)}` : `Line one\r\n\tLine two ✓ ذهب ${newId('v').slice(-6)}`);
    expect(res.status, res.text).toBeLessThan(300);
  });
});

it('attribute keys refuse them too (they are normalized to lowercase snake case)', async () => {
  const w = await world();
  for (const key of [`tier${NUL}`, `tier${RLO}name`]) {
    const error = expectError(await portal(w, 'POST', '/attributes', { key, type: 'string' }), 422, 'VALIDATION_FAILED');
    expect(error.errors.map((entry) => entry.path)).toEqual(['key']);
  }
});

describe('the documented patterns are the rule', () => {
  it('one-line text refuses exactly \\p{Cc} and \\p{Bidi_Control}; text spanning lines the same but tab, line feed and carriage return', () => {
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
      const char = String.fromCodePoint(codePoint);
      const control = /\p{Cc}/u.test(char);
      const bidi = /\p{Bidi_Control}/u.test(char);
      if (textPatterns.one.test(char) === (control || bidi)) throw new Error(`one line: U+${codePoint.toString(16)}`);
      if (textPatterns.many.test(char) === ((control && !['\t', '\n', '\r'].includes(char)) || bidi)) throw new Error(`many lines: U+${codePoint.toString(16)}`);
    }
  });

  it('a value passes the schema exactly when it matches the documented pattern (as JSON Schema reads it, with the u flag)', () => {
    const unit = fc.constantFrom('a', ' ', '\t', '\n', '\r', '\u0000', '\u0085', '\u202e', '\u2069', '\u00a0', '\u3000', 'é', '😀');
    // At most 3 units (6 UTF-16 code units with emoji), so the maxLength of 6 never decides.
    const values = fc.string({ unit, maxLength: 3 });
    const schemas = [
      [trimmedText(6), textPatterns.oneNotBlank, 0],
      [trimmedText(6, 'many'), textPatterns.manyNotBlank, 0],
      [optionalText(6, 'one'), textPatterns.one, 0],
      [optionalText(6, 'many'), textPatterns.many, 0],
      [plainText(6), textPatterns.one, 1],
    ] as const;
    fc.assert(
      fc.property(values, (value) => {
        for (const [schema, pattern, minLength] of schemas) {
          const documented = new RegExp(pattern.source, 'u').test(value) && value.length >= minLength;
          expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(documented);
        }
      }),
      { seed: 20, numRuns: 3000 },
    );
  });
});
