import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzConfig, OPERATION_TIME_LIMIT_MS, operationSeed } from './support/config';
import { loadOperations, type Operation } from './support/document';
import { keywordProbes, type Fresh, type Probe } from './support/probes';
import { requestArbitrary, type FuzzRequest } from './support/requests';
import { describeExchange, failureMessage, Survey } from './support/report';
import { seedWorld, type FuzzWorld } from './support/seed';
import { send } from './support/send';
import { changedTables, snapshot } from './support/snapshot';
import { judge, probeProblems, usesSignature } from './support/verdict';

/**
 * Schema-driven fuzzing of every operation of the served OpenAPI document
 * (docs/decisions/0051-fuzzing.md): valid and invalid requests generated from the document's JSON Schemas, real ids of
 * one seeded world substituted with some probability, sent through the Worker on both surfaces.
 * Each response must be documented for its status and match the document and the route's zod
 * schema; an invalid request must be refused with a 4xx envelope; a refused write must store nothing.
 * Before its random runs, each operation gets its keyword probes (support/probes.ts): every bound,
 * format, `uniqueItems` and header rule the document states, tried just inside and just outside.
 */
const config = fuzzConfig();
const { operations, resolve, documentedCount } = await loadOperations();

/** Reads first, then writes, then what removes parts of the world (later runs still find the rest). */
function phase(op: Operation): number {
  if (op.method === 'GET') return 0;
  return op.method === 'DELETE' || /\/(revoke|cancel)$/.test(op.path) ? 2 : 1;
}
const ordered = [...operations].sort((a, b) => phase(a) - phase(b));

describe(`fuzz every documented operation (FUZZ_SEED=${config.seed}, FUZZ_RUNS=${config.runs})`, () => {
  let world: FuzzWorld;
  const fuzzed = new Set<string>();
  const survey = new Survey();
  /** Gateway write signatures already used (a signature covers the second, method, url and body). */
  const usedSignatures = new Set<string>();
  /** Probe header values unused so far in the run: a base-36 counter per length, padded with `-` (never one of its digits). */
  const handedOut = new Map<number, number>();
  const fresh: Fresh = (length) => {
    const count = handedOut.get(length) ?? 0;
    handedOut.set(length, count + 1);
    const text = count.toString(36).padStart(length, '-');
    if (text.length > length) throw new Error(`No unused header value of ${length} characters left`);
    return text;
  };

  beforeAll(async () => {
    world = await seedWorld();
  }, 60_000);

  afterAll(() => {
    if (config.survey) console.log('FUZZ_SURVEY:', `${survey.size} distinct problems\n\n${survey}`);
  });

  async function exchange(op: Operation, request: FuzzRequest, probe?: Probe) {
    const before = op.method === 'GET' ? undefined : await snapshot(world.tenant.id);
    const { response, signature } = await send(op, request, world).catch((error: unknown) => {
      throw new Error(failureMessage(config.seed, describeExchange(op, request, undefined), [`the request threw: ${String(error)}`]));
    });
    const changed = before && response.status >= 400 ? changedTables(before, await snapshot(world.tenant.id)) : [];
    const signatureReused = signature !== undefined && usedSignatures.has(signature);
    if (signature !== undefined && usesSignature(op, response)) usedSignatures.add(signature);
    const { foreignIds } = world;
    const judged = { op, request, response, changed, worldTenantId: world.tenant.id, foreignIds, signatureReused, resolve };
    const problems = [...judge(judged), ...(probe ? probeProblems(judged, probe) : [])];
    if (problems.length === 0) return;
    const described = describeExchange(op, request, response);
    if (config.survey) survey.record(op, problems, described);
    else throw new Error(failureMessage(config.seed, described, problems));
  }

  for (const op of ordered) {
    it(
      op.id,
      async () => {
        await world.refreshTokens();
        const probeContext = { resolve, hints: world.hintsFor(op), seed: operationSeed(config.seed, op.id), fresh, pinned: { tenantId: world.tenant.id } };
        for (const probe of keywordProbes(op, probeContext)) {
          await exchange(op, probe.request, probe);
        }
        const requests = requestArbitrary(op, { resolve, hints: world.hintsFor(op) });
        // Past the time limit the remaining runs send nothing (a request in flight is never abandoned:
        // it would write into the next operation's snapshots).
        const deadline = Date.now() + OPERATION_TIME_LIMIT_MS;
        let skipped = 0;
        const property = fc.asyncProperty(requests, async (request) => {
          if (Date.now() > deadline) skipped += 1;
          else await exchange(op, request);
        });
        // No shrinking: the world changes with every request, so a replayed smaller request is a different experiment.
        await fc.assert(property, { seed: operationSeed(config.seed, op.id), numRuns: config.runs, endOnFailure: true });
        if (skipped) console.warn('fuzz:', `${op.id}: time limit reached, ${skipped} of ${config.runs} runs not sent`);
        fuzzed.add(op.id);
      },
      OPERATION_TIME_LIMIT_MS * 3,
    );
  }

  it('fuzzed every operation of the document', () => {
    expect(operations.length).toBe(documentedCount);
    expect([...fuzzed].sort()).toEqual(operations.map((op) => op.id).sort());
  });
});
