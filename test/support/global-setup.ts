/**
 * vitest globalSetup (Node, once per run): compiles the reference contracts (cached), copies the
 * API reference's files into public/ (scripts/lib/docs-assets.ts) and starts two anvil nodes
 * whose addresses reach the workers as bindings (vitest.config.mts), and the webhook receiver
 * (test/support/webhook-receiver.ts), likewise:
 * - chain 31337, automine: everything else;
 * - chain 31338: only the stuck-transaction test, which turns automine off on it, so it must not
 *   share a chain with tests that expect their transactions mined.
 */
import type { TestProject } from 'vitest/node';
import { compileContracts } from '../../scripts/lib/compile-contracts';
import { copyDocsAssets } from '../../scripts/lib/docs-assets';
import { startAnvil } from '../../scripts/lib/anvil';
import { startWebhookReceiver } from './webhook-receiver';
import { assertOneRuntime } from '../../scripts/lib/runtime-alignment';

declare module 'vitest' {
  export interface ProvidedContext {
    rpcUrl: string;
    manualRpcUrl: string;
    webhookReceiverUrl: string;
  }
}

export default async function setup(project: TestProject) {
  assertOneRuntime();
  await compileContracts();
  // The API reference's files, which the workers serve from [assets] (wrangler.toml).
  copyDocsAssets();
  const main = await startAnvil({ chainId: 31337 });
  const manual = await startAnvil({ chainId: 31338 }).catch(async (error: unknown) => {
    await main.stop(); // a failed setup gets no teardown: do not leave the first node running
    throw error;
  });
  const receiver = await startWebhookReceiver();
  project.provide('webhookReceiverUrl', receiver.url);
  project.provide('rpcUrl', main.rpcUrl);
  project.provide('manualRpcUrl', manual.rpcUrl);
  return async () => {
    await Promise.all([main.stop(), manual.stop(), receiver.stop()]);
  };
}
