export * from './tenants';
export * from './api-keys';
export * from './customers';
export * from './loyalty';
export * from './onchain';
export * from './segments';
export * from './counts';
export * from './webhooks';
