/** The API's own types, generated from the OpenAPI document into the SDK (never written here by hand). */
import type { components, PortalClient } from '../../../sdk/src';

export type Schemas = components['schemas'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type Role = Schemas['CurrentAccount']['memberships'][number]['role'];
export type Membership = Schemas['CurrentAccount']['memberships'][number];
export type Customer = Schemas['Customer'];
export type CustomerStatus = Customer['status'];

/** Each customer status once: typed by the generated union, so a status the API adds or drops fails this build until it is listed here. */
const everyCustomerStatus: Record<CustomerStatus, true> = { pending: true, active: true, suspended: true, reinstated: true };
/** The customer statuses in lifecycle order (the filters, the rule builder, the dashboard's counts). */
export const customerStatuses = Object.keys(everyCustomerStatus) as CustomerStatus[];
export type Paged<T> = { items: T[]; total_count: number; page: number; limit: number; total_pages: number; has_next_page: boolean };
export type Portal = PortalClient;
