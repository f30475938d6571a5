/**
 * One method per operation, named by its operationId and built from the generated operation map
 * (never written by hand): `gateway.gatewayEarnXp({ body })` is
 * `client.POST('/gateway/xp', { body })` with the operation's own request and response types.
 */
import type { Client, FetchOptions, FetchResponse } from 'openapi-fetch';
import { operations } from './operations.generated';
import type { operations as Operations, paths } from './schema';

export type Surface = 'gateway' | 'portal';
export type OperationId = keyof typeof operations;
type SurfaceOf<Id extends OperationId> = (typeof operations)[Id]['surface'];
export type OperationIdOf<S extends Surface> = { [Id in OperationId]: SurfaceOf<Id> extends S ? Id : never }[OperationId];

/**
 * The document declares `x-idempotency-key` as a required header of every gateway write; in the SDK
 * it is optional, because the client generates one when the caller gives none.
 */
type WithOptionalHeaders<Op> = Op extends { parameters: { header: infer Header } }
  ? Omit<Op, 'parameters'> & { parameters: Omit<Op['parameters'], 'header'> & { header?: Partial<Header> } }
  : Op;

/** The document's paths as the SDK takes them (idempotency header optional). */
export type SdkPaths = { [Path in keyof paths]: { [Method in keyof paths[Path]]: WithOptionalHeaders<paths[Path][Method]> } };
export type GatewayPaths = Pick<SdkPaths, Extract<keyof SdkPaths, `/gateway/${string}`>>;
export type PortalPaths = Omit<SdkPaths, `/gateway/${string}`>;

type Media = `${string}/${string}`;
type Operation<Id extends OperationId> = WithOptionalHeaders<Operations[Id]>;
export type OperationInit<Id extends OperationId> = FetchOptions<Operation<Id>>;
export type OperationResult<Id extends OperationId> = FetchResponse<Operation<Id>, OperationInit<Id>, Media>;

/** The argument is optional exactly when the operation needs no path parameter and no body. */
export type OperationMethod<Id extends OperationId> =
  {} extends OperationInit<Id> ? (init?: OperationInit<Id>) => Promise<OperationResult<Id>> : (init: OperationInit<Id>) => Promise<OperationResult<Id>>;

export type OperationMethods<S extends Surface> = { [Id in OperationIdOf<S>]: OperationMethod<Id> };

/** What the named methods need of an openapi-fetch client: its untyped `request`. */
type Requester = (method: string, path: string, init?: object) => Promise<unknown>;

/** The named methods of one surface, each calling `client.request(method, path, init)`. */
export function operationMethods<S extends Surface, P extends {}>(client: Client<P>, surface: S): OperationMethods<S> {
  // The map pairs each id with its own method and path, so the per-operation types above hold;
  // TypeScript cannot follow that through a loop over the map, hence the one untyped view here.
  const request = client.request as unknown as Requester;
  const methods: Record<string, (init?: object) => Promise<unknown>> = {};
  for (const [id, operation] of Object.entries(operations)) {
    if (operation.surface === surface) methods[id] = (init) => request(operation.method.toUpperCase(), operation.path, init);
  }
  return methods as unknown as OperationMethods<S>;
}
