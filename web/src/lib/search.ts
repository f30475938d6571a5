import { customerStatuses, type CustomerStatus } from '../api/types';

/** URL search params of list screens: the page and filters live in the URL, so a list can be linked and goes back where it was. */
export function pageOf(search: Record<string, unknown>): number {
  const page = Number(search.page);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export const PAGE_SIZE = 20;

/** The customer list's filters (`/t/$tenantId/customers`): what the route validates and the screen reads. */
export type CustomerSearch = { page: number; external_id?: string; email?: string; status?: CustomerStatus };

export function customerSearchOf(search: Record<string, unknown>): CustomerSearch {
  const status = customerStatuses.find((value) => value === search.status);
  const externalId = textOf(search.external_id);
  const email = textOf(search.email);
  return { page: pageOf(search), ...(externalId ? { external_id: externalId } : {}), ...(email ? { email } : {}), ...(status ? { status } : {}) };
}
