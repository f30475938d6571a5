import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { Api } from '../api/client';
import type { Membership, Role, Schemas } from '../api/types';
import type { AuthState, Session } from '../auth/session';
import { can, type Permission } from '../lib/permissions';

type Services = { api: Api; session: Session };
const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ api, session, children }: Services & { children: ReactNode }) {
  return <ServicesContext.Provider value={{ api, session }}>{children}</ServicesContext.Provider>;
}

function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside ServicesProvider');
  return services;
}

export const useApi = (): Api => useServices().api;
export const useSession = (): Session => useServices().session;

export function useAuth(): AuthState {
  const session = useSession();
  return useSyncExternalStore(session.subscribe, session.getState);
}

/** The signed-in account and its memberships (`GET /user/me`). */
export function useMe() {
  const api = useApi();
  return useQuery({ queryKey: ['me'], queryFn: (): Promise<Schemas['CurrentAccount']> => api.call(api.portal.getCurrentUser()) });
}

/** The tenant of the current screen and the caller's role in it (from /user/me). */
export type TenantScope = { tenantId: string; membership: Membership; role: Role; can: (permission: Permission) => boolean };
const TenantContext = createContext<TenantScope | null>(null);

export function TenantProvider({ membership, children }: { membership: Membership; children: ReactNode }) {
  const scope: TenantScope = { tenantId: membership.tenant.id, membership, role: membership.role, can: (permission) => can(membership.role, permission) };
  return <TenantContext.Provider value={scope}>{children}</TenantContext.Provider>;
}

export function useTenant(): TenantScope {
  const scope = useContext(TenantContext);
  if (!scope) throw new Error('useTenant outside TenantProvider');
  return scope;
}

/** Renders its children only for a role with the permission: a viewer sees no write controls. */
export function Allowed({ to, children }: { to: Permission; children: ReactNode }) {
  return useTenant().can(to) ? children : null;
}
