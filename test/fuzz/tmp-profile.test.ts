import fc from 'fast-check';
import { it } from 'vitest';
import { loadOperations } from './support/document';
import { requestArbitrary } from './support/requests';
import { seedWorld } from './support/seed';
import { send } from './support/send';
import { gatewayCall, portalCall } from '../support/world';

it('profile', async () => {
  const { operations, resolve } = await loadOperations();
  const world = await seedWorld();
  const op = operations.find((o) => o.id === 'GET /gateway/tiers')!;
  const arb = requestArbitrary(op, { resolve, hints: world.hintsFor(op) });
  let t = Date.now();
  const reqs = fc.sample(arb, { numRuns: 400, seed: 3 });
  console.log('generate 400', Date.now() - t);
  for (let round = 0; round < 8; round++) {
    t = Date.now();
    for (let i = 0; i < 50; i++) await send(op, reqs[round * 50 + i]!, world);
    const a = Date.now() - t;
    t = Date.now();
    for (let i = 0; i < 50; i++) await gatewayCall(world.key, 'GET', '/api/v1/gateway/tiers');
    const b = Date.now() - t;
    t = Date.now();
    for (let i = 0; i < 50; i++) await portalCall(world.owner, 'GET', `/api/v1/tenant/${world.tenant.id}/tiers`);
    console.log('round', round, 'fuzz', a, 'plain gateway', b, 'plain portal', Date.now() - t);
  }
}, 600_000);
