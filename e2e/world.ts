/**
 * What the scenarios share: the stack, the admin's browser page, and the clients the suite uses for
 * what a program manager does not do in the CMS (a backend earning XP through the gateway, signed
 * with an API key; an invitation accepted by a second person).
 */
import type { Browser, Page } from 'playwright-core';
import { mintPortalToken } from '../scripts/lib/portal-token';
import { createGatewayClient, createPortalClient } from '../sdk/src';
import type { Stack } from './stack';

export const ADMIN_EMAIL = 'e2e-admin@example.com';
export const VIEWER_EMAIL = 'e2e-viewer@example.com';

export type World = {
  stack: Stack;
  browser: Browser;
  admin: Page;
  log: (line: string) => void;
  /** Set once the tenant exists (created in the CMS). */
  tenantId?: string;
  tierName?: string;
  rewardTitle?: string;
};

export function apiBase(stack: Stack): string {
  return `${stack.baseUrl}/api/v1`;
}

/** The portal API as `email` (a token from the same key the dev sign-in uses). */
export function portalAs(stack: Stack, email: string) {
  return createPortalClient({ baseUrl: apiBase(stack), token: () => mintPortalToken(stack.key, { email }) });
}

/** Unwraps an SDK answer: the envelope's data, or an error saying what the API refused. */
export function dataOf<T>(what: string, answer: { data?: { data: T }; error?: { message: string } }): T {
  if (answer.data) return answer.data.data;
  throw new Error(`${what}: ${answer.error?.message ?? 'no answer'}`);
}

/** A gateway client with a fresh API key of the tenant (created through the portal API). */
export async function gatewayOf(world: World, tenantId: string) {
  const portal = portalAs(world.stack, ADMIN_EMAIL);
  const key = dataOf('create an API key for the gateway', await portal.createApiKey({ params: { path: { tenantId } }, body: { name: 'e2e backend' } }));
  return createGatewayClient({ baseUrl: apiBase(world.stack), keyId: key.key_id, secret: key.secret });
}

export function requireTenant(world: World): string {
  if (!world.tenantId) throw new Error('no tenant: "create a tenant" did not pass');
  return world.tenantId;
}
