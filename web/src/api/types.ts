/** The API's own types, generated from the OpenAPI document into the SDK (never written here by hand). */
import type { components, PortalClient } from '../../../sdk/src';

export type Schemas = components['schemas'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type Role = Schemas['CurrentAccount']['memberships'][number]['role'];
export type Membership = Schemas['CurrentAccount']['memberships'][number];
export type Customer = Schemas['Customer'];
export type CustomerStatus = Customer['status'];
export type Paged<T> = { items: T[]; total_count: number; page: number; limit: number; total_pages: number; has_next_page: boolean };
export type Portal = PortalClient;
