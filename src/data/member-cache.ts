import type { Account, DirectoryTenant, Membership } from '../db/schema';
import { ExpiringMap } from '../lib/bounded-map';

/** What a portal request answered from a remembered membership relies on. */
export type RememberedMember = { account: Account; membership: Membership; tenant: DirectoryTenant };

/**
 * Memberships this isolate confirmed for a portal read, so the next read by the same person in the
 * same tenant skips the sign-in round trip: its membership check rides in the route's own first
 * batch instead (middleware/portal-auth.ts, data/member-guard.ts), and anything changed since
 * (removed, role, account, tenant, an invitation to take) sends the request down the full path.
 * Nothing here is trusted without that check; the entry only saves a round trip.
 */
const MAX_REMEMBERED = 10_000;
/** Long enough to matter between a person's clicks, short enough to keep memory fresh. */
const REMEMBER_MS = 10 * 60_000;

const remembered = new ExpiringMap<string, RememberedMember>(MAX_REMEMBERED, REMEMBER_MS);
const keyOf = (sub: string, tenantId: string) => `${tenantId} ${sub}`;

export function recallMember(sub: string, tenantId: string): RememberedMember | undefined {
  return remembered.get(keyOf(sub, tenantId));
}

export function rememberMember(sub: string, member: RememberedMember): void {
  remembered.set(keyOf(sub, member.tenant.id), member);
}

export function forgetMember(sub: string, tenantId: string): void {
  remembered.delete(keyOf(sub, tenantId));
}
