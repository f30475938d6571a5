import { describe, expect, it } from 'vitest';
import { pageSchema } from '../../src/lib/paging';
import { currentAccountSchema } from '../../src/schemas/account';
import { memberSchema, type MemberView } from '../../src/schemas/member';
import { expectError, expectOk } from '../support/http';
import { portalRequest, race } from '../support/race';
import { newIdentity, portalToken, type TokenOptions } from '../support/tokens';
import { addMember, createTenant, portalCall, type TestTenant } from '../support/world';

/**
 * Issue 9, defect 1: an invitation goes to whoever proves the invited email, and only the identity
 * provider's `email_verified` proves it (docs/decisions/0035-identity-and-invitations.md).
 */

const ME = '/api/v1/user/me';
const membersPath = (tenantId: string) => `/api/v1/tenant/${tenantId}/members`;

/** A person as the identity provider sees them: one `sub`, and tokens minted with whatever email state a test needs. */
function person(label: string, email?: string) {
  const identity = newIdentity(label);
  return {
    sub: identity.sub,
    email: email ?? identity.email,
    token: async (options: Omit<TokenOptions, 'sub'> = {}) => ({ token: await portalToken({ sub: identity.sub, email: email ?? identity.email, username: identity.username, ...options }) }),
  };
}

async function me(caller: { token: string }) {
  return expectOk(await portalCall(caller, 'GET', ME), 200, currentAccountSchema);
}

async function invite(tenant: TestTenant, email: string, role: MemberView['role']) {
  return expectOk(await portalCall(tenant.owner, 'POST', membersPath(tenant.id), { email, role }), 201, memberSchema);
}

async function memberById(tenant: TestTenant, membershipId: string) {
  const page = expectOk(await portalCall(tenant.owner, 'GET', `${membersPath(tenant.id)}?limit=100`), 200, pageSchema(memberSchema));
  return page.items.find((m) => m.id === membershipId);
}

describe('an unverified email never takes an invitation', () => {
  it('the attack: an unverified token with the victim email signs in first; the admin invitation sent later still waits for the victim', async () => {
    const tenant = await createTenant();
    const victim = person('victim');
    const attacker = person('attacker', victim.email);
    const attackerToken = await attacker.token({ emailVerified: false });
    expect((await me(attackerToken)).memberships).toEqual([]);

    const invitation = await invite(tenant, victim.email, 'admin');
    expect(invitation).toMatchObject({ user_id: null, username: null, status: 'invited', role: 'admin' });
    expectError(await portalCall(attackerToken, 'GET', membersPath(tenant.id)), 404, 'NOT_FOUND', 'Tenant not found');
    expect((await me(attackerToken)).memberships).toEqual([]);
    expect(await memberById(tenant, invitation.id)).toMatchObject({ user_id: null, status: 'invited' });

    const victimToken = await victim.token();
    const victimAccount = await me(victimToken);
    expect(victimAccount.memberships).toEqual([{ tenant: { id: tenant.id, name: tenant.name, slug: tenant.slug }, role: 'admin' }]);
    expect(await memberById(tenant, invitation.id)).toMatchObject({ user_id: victimAccount.id, email: victim.email, status: 'active', role: 'admin' });
    expectError(await portalCall(attackerToken, 'GET', membersPath(tenant.id)), 404, 'NOT_FOUND');
  });

  it('treats a token without the email_verified claim as unverified, whether the invitation came before or after', async () => {
    const tenant = await createTenant();
    const before = person('claimless-before');
    const earlyInvitation = await invite(tenant, before.email, 'editor');
    const beforeToken = await before.token({ emailVerified: 'omitted' });
    expectError(await portalCall(beforeToken, 'GET', membersPath(tenant.id)), 404, 'NOT_FOUND');

    const after = person('claimless-after');
    const afterToken = await after.token({ emailVerified: 'omitted' });
    await me(afterToken);
    const lateInvitation = await invite(tenant, after.email, 'editor');
    expect(lateInvitation).toMatchObject({ user_id: null, status: 'invited' });
    expectError(await portalCall(afterToken, 'GET', membersPath(tenant.id)), 404, 'NOT_FOUND');
    expect(await memberById(tenant, earlyInvitation.id)).toMatchObject({ user_id: null, status: 'invited' });
  });

  it('links the same account once it signs in with its email verified', async () => {
    const tenant = await createTenant();
    const someone = person('verifies-later');
    const unverified = await someone.token({ emailVerified: false });
    const account = await me(unverified);
    const invitation = await invite(tenant, someone.email, 'viewer');
    expect(invitation.status).toBe('invited');

    const verified = await someone.token();
    expectOk(await portalCall(verified, 'GET', membersPath(tenant.id)), 200, pageSchema(memberSchema));
    expect(await memberById(tenant, invitation.id)).toMatchObject({ user_id: account.id, status: 'active', role: 'viewer' });
  });

  it('accepts the string "true" (AWS Cognito) and nothing else that is not the boolean true', async () => {
    const tenant = await createTenant();
    for (const claim of ['false', 'TRUE', 'yes', 1, null]) {
      const someone = person('odd-claim');
      const invitation = await invite(tenant, someone.email, 'viewer');
      const token = await someone.token({ claims: { email_verified: claim } });
      expectError(await portalCall(token, 'GET', membersPath(tenant.id)), 404, 'NOT_FOUND');
      expect(await memberById(tenant, invitation.id)).toMatchObject({ status: 'invited' });
    }
    const cognito = person('cognito');
    await invite(tenant, cognito.email, 'viewer');
    const token = await cognito.token({ claims: { email_verified: 'true' } });
    expectOk(await portalCall(token, 'GET', membersPath(tenant.id)), 200, pageSchema(memberSchema));
  });
});

describe('the account is refreshed from every sign-in', () => {
  it('an email that turns unverified stops an invitation sent afterwards from linking, until it is verified again', async () => {
    const tenant = await createTenant();
    const someone = person('flips');
    const account = await me(await someone.token());
    const unverified = await someone.token({ emailVerified: false });
    await me(unverified);

    const invitation = await invite(tenant, someone.email, 'admin');
    expect(invitation).toMatchObject({ user_id: null, status: 'invited' });
    expectError(await portalCall(unverified, 'GET', membersPath(tenant.id)), 404, 'NOT_FOUND');
    expect(await memberById(tenant, invitation.id)).toMatchObject({ status: 'invited' });

    expect((await me(await someone.token())).memberships.map((m) => m.tenant.id)).toEqual([tenant.id]);
    expect(await memberById(tenant, invitation.id)).toMatchObject({ user_id: account.id, status: 'active' });
  });

  it('a token without an email keeps the stored address but no longer vouches for it', async () => {
    const tenant = await createTenant();
    const someone = person('no-email-later');
    await me(await someone.token());
    const withoutEmail = await someone.token({ claims: { email: undefined } });
    expect((await me(withoutEmail)).email).toBe(someone.email);
    expect(await invite(tenant, someone.email, 'viewer')).toMatchObject({ user_id: null, status: 'invited' });
  });

  it("changing one's email to the victim's at the identity provider (unverified) takes nothing and shows nothing", async () => {
    const home = await createTenant();
    const target = await createTenant();
    const victim = person('changed-victim');
    const insider = person('insider');
    const insiderAccount = await me(await insider.token());
    const homeMembership = await invite(home, insider.email, 'editor');
    expect(homeMembership).toMatchObject({ user_id: insiderAccount.id, status: 'active' });

    const disguised = await insider.token({ email: victim.email, emailVerified: false });
    expect((await me(disguised)).email).toBe(victim.email);
    const invitation = await invite(target, victim.email, 'admin');
    expect(invitation).toMatchObject({ user_id: null, status: 'invited' });
    expectError(await portalCall(disguised, 'GET', membersPath(target.id)), 404, 'NOT_FOUND');
    // The home tenant's list shows the address the membership was verified with, not the unverified one.
    expect(await memberById(home, homeMembership.id)).toMatchObject({ user_id: insiderAccount.id, email: insider.email, role: 'editor' });
  });

  it('a verified change of email shows in the member list, and does not break on an invitation to a tenant it already belongs to', async () => {
    const tenant = await createTenant();
    const someone = person('moves');
    const account = await me(await someone.token());
    const membership = await invite(tenant, someone.email, 'viewer');
    const newEmail = newIdentity('new-address').email;
    const pending = await invite(tenant, newEmail, 'admin');

    const moved = await someone.token({ email: newEmail });
    expect((await me(moved)).memberships).toEqual([{ tenant: { id: tenant.id, name: tenant.name, slug: tenant.slug }, role: 'viewer' }]);
    expect(await memberById(tenant, membership.id)).toMatchObject({ user_id: account.id, email: newEmail, role: 'viewer' });
    expect(await memberById(tenant, pending.id)).toMatchObject({ user_id: null, status: 'invited' });
  });

  it('a sign-in with nothing new writes nothing; one with something new writes once', async () => {
    const tenant = await createTenant();
    const upsert = /insert into "accounts"/i;
    const unchanged = await race([portalRequest(tenant.owner, 'GET', membersPath(tenant.id))], upsert);
    expect(unchanged.held).toBe(0);
    expectOk(unchanged.responses[0]!, 200, pageSchema(memberSchema));
    const unverified = { token: await portalToken({ sub: tenant.owner.sub, email: tenant.owner.email, emailVerified: false }) };
    const flipped = await race([portalRequest(unverified, 'GET', ME)], upsert);
    expect(flipped.held).toBe(1);
    expectOk(flipped.responses[0]!, 200, currentAccountSchema);
  });
});

describe('a verified email is linked as before', () => {
  it('at once when the account exists, and at the first sign-in otherwise (emails compared trimmed and lowercased)', async () => {
    const tenant = await createTenant();
    const existing = person('existing');
    const account = await me(await existing.token());
    expect(await invite(tenant, existing.email.toUpperCase(), 'editor')).toMatchObject({ user_id: account.id, email: existing.email, status: 'active' });

    const newcomer = person('newcomer');
    const invitation = await invite(tenant, newcomer.email, 'viewer');
    const token = await newcomer.token({ email: `  ${newcomer.email.toUpperCase()} ` });
    expectOk(await portalCall(token, 'GET', membersPath(tenant.id)), 200, pageSchema(memberSchema));
    expect((await memberById(tenant, invitation.id))?.status).toBe('active');
    expect((await me(token)).email).toBe(newcomer.email);
  });

  it('links exactly one account when the first requests of an invited person arrive at once', async () => {
    const tenant = await createTenant();
    const newcomer = person('concurrent');
    const invitation = await invite(tenant, newcomer.email, 'editor');
    const token = await newcomer.token();
    const { responses, held } = await race([portalRequest(token, 'GET', ME), portalRequest(token, 'GET', membersPath(tenant.id))], /insert into "accounts"/i);
    expect(held).toBe(2);
    const account = expectOk(responses[0]!, 200, currentAccountSchema);
    expectOk(responses[1]!, 200, pageSchema(memberSchema));
    expect(await memberById(tenant, invitation.id)).toMatchObject({ user_id: account.id, status: 'active' });
  });

  it('an existing member is not invited twice under a new verified address (409)', async () => {
    const tenant = await createTenant();
    const member = await addMember(tenant.id, 'viewer');
    const newEmail = newIdentity('second-address').email;
    await me({ token: await portalToken({ sub: member.sub, email: newEmail }) });
    expectError(await portalCall(tenant.owner, 'POST', membersPath(tenant.id), { email: newEmail, role: 'admin' }), 409, 'CONFLICT');
  });
});
