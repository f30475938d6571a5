import { describe, expect, it } from 'vitest';
import { successFlagSchema } from '../../src/lib/envelope';
import { pageSchema } from '../../src/lib/paging';
import { tierRuleSchema } from '../../src/schemas/tier';
import { createTierViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { createTenant, portalCall } from '../support/world';

/**
 * A tier's `color` and `icon` end up in viewers' browsers (the CMS paints the color as a CSS
 * background; partners show the icon): a color is a hex color, an icon an absolute https URL, both
 * may be "" (issue 20: a color of `url(http://...)` made every viewer's browser fetch that URL).
 */
const base = (tenantId: string) => `/api/v1/tenant/${tenantId}/tiers`;
const tierPage = pageSchema(tierRuleSchema);
const tier = { tier_name: 'Gold', min_xp_threshold: 100, benefits_description: '', color: '', icon: '' };

const refusedColors = ['url(http://attacker.example/track)', 'red', 'gold', '#12', '#12345', '#1234567', '#gggggg', ' #ffffff', '#ffffff ', 'rgb(0,0,0)', '#fff;background:url(x)'];
const acceptedColors = ['', '#abc', '#ABCD', '#a1b2c3', '#A1B2C3D4'];
const refusedIcons = [
  ...['http://cdn.example.com/gold.svg', 'javascript:alert(1)', 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=', 'crown', '//cdn.example.com/gold.svg'].map((icon) => [JSON.stringify(icon), icon]),
  ...['HTTPS://cdn.example.com/gold.svg', 'https://cdn.example.com/a b.svg', 'https://', 'https://%'].map((icon) => [JSON.stringify(icon), icon]),
  ['with a line feed', 'https://cdn.example.com/gold.svg\n'],
  ['with U+202E', 'https://cdn.example.com/\u202egvs.dlog'],
  ['over 2048 characters', `https://cdn.example.com/${'a'.repeat(2048)}`],
];
const acceptedIcons = ['', 'https://cdn.example.com/tiers/gold.svg', 'https://cdn.example.com/i?name=gold&size=64', 'https://xn--bcher-kva.example/ü.png'];

describe('tier color and icon', () => {
  it.each(refusedColors)('refuses the color %j: 422 at color on create and on PUT, and nothing changes', async (color) => {
    const tenant = await createTenant();
    const created = expectError(await portalCall(tenant.owner, 'POST', base(tenant.id), { ...tier, color }), 422, 'VALIDATION_FAILED');
    expect(created.errors).toEqual([{ path: 'color', message: 'Must be a hex color such as #FFD700 (#rgb, #rgba, #rrggbb or #rrggbbaa), or empty' }]);
    const existing = await createTierViaApi(tenant.owner, tenant.id, 'Silver', 10);
    const replaced = expectError(await portalCall(tenant.owner, 'PUT', `${base(tenant.id)}/${existing.id}`, { ...tier, color }), 422, 'VALIDATION_FAILED');
    expect(replaced.errors.map((entry) => entry.path)).toEqual(['color']);
    expect(expectOk(await portalCall(tenant.owner, 'GET', base(tenant.id)), 200, tierPage).items).toEqual([existing]);
  });

  it.each(refusedIcons)('refuses the icon %s: 422 at icon on create and on PUT, and nothing changes', async (_label, icon) => {
    const tenant = await createTenant();
    const created = expectError(await portalCall(tenant.owner, 'POST', base(tenant.id), { ...tier, icon }), 422, 'VALIDATION_FAILED');
    const rule = 'Must be an absolute https URL such as https://cdn.example.com/gold.svg, or empty';
    expect(created.errors).toEqual([{ path: 'icon', message: icon.length > 2048 ? expect.stringMatching(/2048/) : rule }]);
    const existing = await createTierViaApi(tenant.owner, tenant.id, 'Silver', 10);
    const replaced = expectError(await portalCall(tenant.owner, 'PUT', `${base(tenant.id)}/${existing.id}`, { ...tier, icon }), 422, 'VALIDATION_FAILED');
    expect(replaced.errors.map((entry) => entry.path)).toEqual(['icon']);
    expect(expectOk(await portalCall(tenant.owner, 'GET', base(tenant.id)), 200, tierPage).items).toEqual([existing]);
  });

  it('accepts every hex color form and https icons (or ""), on create and on PUT, stored as sent', async () => {
    const tenant = await createTenant();
    for (const [index, color] of acceptedColors.entries()) {
      const icon = acceptedIcons[index % acceptedIcons.length] ?? '';
      const created = expectOk(await portalCall(tenant.owner, 'POST', base(tenant.id), { ...tier, tier_name: `Tier ${index}`, color, icon }), 201, tierRuleSchema);
      expect(created).toMatchObject({ color, icon });
      const swapped = { ...tier, tier_name: `Tier ${index}`, color: acceptedColors.at(-1 - index) ?? '', icon: acceptedIcons.at(-1 - (index % acceptedIcons.length)) ?? '' };
      expectOk(await portalCall(tenant.owner, 'PUT', `${base(tenant.id)}/${created.id}`, swapped), 200, successFlagSchema);
      const stored = expectOk(await portalCall(tenant.owner, 'GET', `${base(tenant.id)}?tier_name=${encodeURIComponent(swapped.tier_name)}`), 200, tierPage).items;
      expect(stored.map(({ color: c, icon: i }) => ({ color: c, icon: i }))).toEqual([{ color: swapped.color, icon: swapped.icon }]);
    }
  });
});
