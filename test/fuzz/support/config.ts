import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** FUZZ_SEED, FUZZ_RUNS, FUZZ_SURVEY of the vitest process (vitest.config.mts provides them). */
    fuzz: { seed?: string; runs?: string; survey?: string };
  }
}

/** The default seed: a run is reproducible unless FUZZ_SEED says otherwise. */
const DEFAULT_SEED = 90_417;
/** Runs per operation: the file takes 45-60 s on 2 shared cores (63 operations, about 3,200 requests). */
const DEFAULT_RUNS = 50;
/** Time cap per operation (runs and shrinking): a slow machine fuzzes fewer runs instead of timing out. */
export const OPERATION_TIME_LIMIT_MS = 20_000;

function integer(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got ${JSON.stringify(text)}`);
  return value;
}

export function fuzzConfig() {
  const provided = inject('fuzz');
  return {
    seed: integer(provided.seed, DEFAULT_SEED, 'FUZZ_SEED'),
    runs: integer(provided.runs, DEFAULT_RUNS, 'FUZZ_RUNS'),
    /** FUZZ_SURVEY=1: record every disagreement and print them all at the end instead of failing at the first. */
    survey: provided.survey === '1',
  };
}

/** Each operation gets its own seed from the run's seed, so one operation's runs do not shift another's. */
export function operationSeed(seed: number, operationId: string): number {
  let hash = seed | 0;
  for (const char of operationId) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}
