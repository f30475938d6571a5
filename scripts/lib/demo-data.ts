/**
 * The demo tenant's program (scripts/seed.ts creates it through the API): tiers, rewards, customer
 * attributes, customers with their XP history, cohorts, what goes onchain, and the point lifecycle.
 */

export const TIERS = [
  { tier_name: 'Bronze', min_xp_threshold: 0, benefits_description: 'Member prices and a birthday treat', color: '#cd7f32', icon: 'https://cdn.example.com/tiers/bronze.svg' },
  { tier_name: 'Silver', min_xp_threshold: 500, benefits_description: 'Free size upgrade and early access to seasonal drinks', color: '#c0c0c0', icon: 'https://cdn.example.com/tiers/silver.svg' },
  { tier_name: 'Gold', min_xp_threshold: 2000, benefits_description: 'Free drink every month, invitations to tastings', color: '#ffd700', icon: 'https://cdn.example.com/tiers/gold.svg' },
] as const;

export type TierName = (typeof TIERS)[number]['tier_name'];

export const REWARDS: { title: string; description: string; xp_cost: string; min_tier?: TierName; stock?: number }[] = [
  { title: 'Free coffee', description: 'Any hot drink, any size', xp_cost: '150' },
  { title: '10% off your next order', description: 'One-time discount code', xp_cost: '400' },
  { title: 'Canvas tote bag', description: 'Limited edition tote', xp_cost: '800', min_tier: 'Silver', stock: 50 },
  { title: 'VIP tasting evening', description: 'Two seats at the roastery tasting', xp_cost: '2500', min_tier: 'Gold', stock: 20 },
];

export const ATTRIBUTES = [
  { key: 'favorite_drink', type: 'string' },
  { key: 'newsletter_opt_in', type: 'boolean' },
  { key: 'visits_per_month', type: 'number' },
  { key: 'member_since', type: 'date' },
] as const;

export type XpEntry = { type: 'xp_earn' | 'xp_bonus'; amount: string; notes: string };
export type DemoCustomer = {
  external_id: string;
  email: string;
  username: string;
  country_code: string;
  xp: XpEntry[];
  redeem?: string;
  attributes: Record<string, unknown>;
};

const earn = (amount: number, notes: string): XpEntry => ({ type: 'xp_earn', amount: String(amount), notes });
const bonus = (amount: number, notes: string): XpEntry => ({ type: 'xp_bonus', amount: String(amount), notes });

/** Lifetime XP lands them in different tiers: Gold >= 2000, Silver >= 500, Bronze below. */
export const CUSTOMERS: DemoCustomer[] = [
  { external_id: 'demo-1001', email: 'alice@example.com', username: 'alice', country_code: 'US', xp: [earn(1200, 'Orders in March'), bonus(500, 'Welcome bonus'), earn(600, 'Orders in April')], redeem: 'Canvas tote bag', attributes: { favorite_drink: 'flat white', newsletter_opt_in: true, visits_per_month: 12, member_since: '2023-02-14' } },
  { external_id: 'demo-1002', email: 'marcus@example.com', username: 'marcus', country_code: 'US', xp: [earn(320, 'Orders in March')], attributes: { favorite_drink: 'cold brew', newsletter_opt_in: false, visits_per_month: 3, member_since: '2025-09-01' } },
  { external_id: 'demo-1003', email: 'dieter@example.de', username: 'dieter', country_code: 'DE', xp: [earn(1500, 'Office catering'), bonus(800, 'Referral bonus'), earn(700, 'Orders in April')], redeem: 'VIP tasting evening', attributes: { favorite_drink: 'espresso', newsletter_opt_in: true, visits_per_month: 20, member_since: '2022-11-30' } },
  { external_id: 'demo-1004', email: 'lena@example.de', username: 'lena', country_code: 'DE', xp: [earn(450, 'Orders in March'), bonus(100, 'App review')], redeem: 'Free coffee', attributes: { favorite_drink: 'chai latte', newsletter_opt_in: true, visits_per_month: 6, member_since: '2024-05-20' } },
  { external_id: 'demo-1005', email: 'claire@example.fr', username: 'claire', country_code: 'FR', xp: [earn(200, 'Orders in April')], attributes: { favorite_drink: 'cappuccino', visits_per_month: 2, member_since: '2026-01-10' } },
  { external_id: 'demo-1006', email: 'emma@example.co.uk', username: 'emma', country_code: 'GB', xp: [earn(650, 'Orders in March'), bonus(150, 'Birthday bonus')], redeem: '10% off your next order', attributes: { favorite_drink: 'earl grey', newsletter_opt_in: true, visits_per_month: 8, member_since: '2024-08-03' } },
  { external_id: 'demo-1007', email: 'haruto@example.jp', username: 'haruto', country_code: 'JP', xp: [earn(900, 'Orders in March'), bonus(300, 'Campaign bonus'), earn(1000, 'Orders in April')], attributes: { favorite_drink: 'matcha latte', newsletter_opt_in: false, visits_per_month: 15, member_since: '2023-06-18' } },
  { external_id: 'demo-1008', email: 'beatriz@example.com.br', username: 'beatriz', country_code: 'BR', xp: [earn(120, 'First order')], attributes: { favorite_drink: 'cafezinho', newsletter_opt_in: true, visits_per_month: 1, member_since: '2026-03-02' } },
];

export const COHORTS = [
  {
    name: 'European newsletter readers',
    description: 'Opted in to the newsletter, in Germany, France or the UK',
    rules: {
      operator: 'and',
      version: 1,
      predicates: [
        { type: 'attribute', key: 'newsletter_opt_in', op: 'eq', value: 'true' },
        { type: 'country', op: 'in', value: '["DE","FR","GB"]' },
      ],
    },
  },
  {
    name: 'Regulars',
    description: 'At least 10 visits a month, or 1,500 XP to spend',
    rules: {
      operator: 'or',
      version: 1,
      predicates: [
        { type: 'attribute', key: 'visits_per_month', op: 'gte', value: '10' },
        { type: 'xp_balance', op: 'gte', value: '1500' },
      ],
    },
  },
  {
    name: 'Members since 2025',
    description: 'Joined the program on or after 1 January 2025',
    rules: {
      operator: 'and',
      version: 1,
      predicates: [{ type: 'attribute', key: 'member_since', op: 'gte', value: '2025-01-01' }],
    },
  },
];

/**
 * Onchain part of the demo, created after everything above, as a program that adds its XP token
 * later would: the XP earned above is minted by the token's opening, what follows is mirrored onto
 * the token as it happens. Amounts are in XP
 * (decimals 0, so base units too); each earner gets at least the badge's cost onchain, so burning
 * it on redemption cannot revert.
 */
export const XP_TOKEN = { type: 'erc20', key: 'xp', name: 'Demo XP', symbol: 'DXP', decimals: 0 } as const;
export const BADGE_COLLECTION = { type: 'erc721', key: 'badge', name: 'Demo Badge', symbol: 'BADGE' } as const;
export const BADGE_REWARD = { title: 'Demo Badge NFT', description: 'A collectible badge minted to your wallet', xp_cost: '200' } as const;
export const ONCHAIN_EARNS: { external_id: string; entry: XpEntry }[] = [
  { external_id: 'demo-1001', entry: earn(300, 'Orders in May') },
  { external_id: 'demo-1004', entry: earn(250, 'Orders in May') },
  { external_id: 'demo-1007', entry: bonus(400, 'Spring campaign') },
];
/** Who redeems the badge (one of ONCHAIN_EARNS). */
export const BADGE_REDEEMER = 'demo-1001';

/** The program's time zone: the days and weeks of its rules' limits, and the day points expire at the end of. */
export const PROGRAM_TIMEZONE = 'America/New_York';

/**
 * The point lifecycle (docs/POINTS.md), switched on last, after the onchain part, so every XP above
 * is spendable at once: a credit then waits 2 minutes (long enough to see it pending, short enough
 * to watch it become spendable), stays 90 days and expires at the end of that day, with an
 * `xp.expiring` notice a week before. Tiers stay on lifetime XP.
 */
export const POINT_SETTINGS = { pending_period: 'PT2M', validity: 'P90D', expiry_rounding: 'end_of_day', expiry_notice: 'P7D' } as const;
export const TIER_SETTINGS = { basis: 'lifetime', period: null, downgrade: 'none', review: 'yearly' } as const;
/** The one credit made under the lifecycle: pending when the seed ends. */
export const PENDING_CREDIT: { external_id: string; entry: XpEntry } = { external_id: 'demo-1002', entry: bonus(25, 'Welcome back bonus') };
