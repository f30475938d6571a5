import type { D1Migration } from 'cloudflare:test';
import type { Bindings } from '../src/env';

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      /** RPC of the automining anvil (chain 31337), started by test/support/global-setup.ts. */
      TEST_RPC_URL: string;
      /** RPC of the anvil (chain 31338) reserved for the stuck-transaction test. */
      TEST_MANUAL_RPC_URL: string;
    }
  }
}
