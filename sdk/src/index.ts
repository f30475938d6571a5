/** @loyalty/sdk: typed clients of both surfaces of the Loyalty API, and webhook verification. */
export { LoyaltyApiError, type ErrorCode, type ErrorEnvelope } from './errors';
export { createGatewayClient, type GatewayClient, type GatewayClientOptions } from './gateway';
export { createPortalClient, type PortalClient, type PortalClientOptions } from './portal';
export type { GatewayPaths, OperationId, OperationInit, OperationResult, PortalPaths, SdkPaths } from './methods';
export { operations } from './operations.generated';
export type { RetryOptions } from './retries';
export type { components, paths } from './schema';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEventType } from './webhooks';
