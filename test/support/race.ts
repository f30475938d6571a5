import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { createApp } from '../../src/app';
import { newId } from '../../src/lib/ids';
import { BASE, type JsonResponse } from './http';
import { signFresh } from './signing';
import { sessionsThrough } from './sessions';
import type { Bindings } from '../../src/env';
import { shardBindings } from './shards';
import { shardOf, type TestApiKey } from './world';

/**
 * Forces the interleaving a race needs, deterministically and without timers.
 *
 * Every request runs through the whole app (as SELF does) with its own D1 bindings (every
 * shard's and the directory's, gated alike). The first D1 round trip of a request (a batch, or a single statement) whose SQL matches `gate` is held until
 * every request is either held there or already answered; then all held round trips go to D1
 * together. So each request has done all its reads and checks before any of them writes: code that
 * relies on a check-then-write in separate round trips fails these tests, code whose write is
 * guarded in SQL (CHECK, unique index, conditional WHERE) passes them.
 *
 * With `inOrder`, the held round trips are released one at a time in the order of `requests`, each
 * after the previous one has come back from D1: e.g. [archive the reward, redeem it] makes the
 * archive land between the redemption's checks and its write.
 *
 * `held` is how many requests reached the gate before the release: a test asserts it, so it cannot
 * pass without the race having happened.
 */
export async function race(requests: Request[], gate: RegExp, options: { inOrder?: boolean } = {}): Promise<{ responses: JsonResponse[]; held: number }> {
  const app = createApp();
  const { results, held } = await raceTasks(
    requests.map((request) => requestTask(request, app)),
    gate,
    options,
  );
  return { responses: results, held };
}

/** A request as a task of `raceTasks`: through the whole app (as SELF) with the bindings it is given, answered once its waitUntil work is done. */
export function requestTask(request: Request, app = createApp()) {
  return async (runEnv: Bindings = env): Promise<JsonResponse> => {
    const ctx = createExecutionContext();
    try {
      const response = await app.fetch(request, runEnv, ctx);
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: the test's expectOk/expectError reports it
      }
      return { status: response.status, headers: response.headers, body, text };
    } finally {
      await waitOnExecutionContext(ctx);
    }
  };
}

/**
 * `race` for any work that takes the Worker's bindings: a request, or a cron job run with its own
 * context (e.g. the lot jobs racing a reversal: `shardRun(tenantId, fields, runEnv)`). Each task
 * gets an env whose directory and shards are gated for it; the gate, `inOrder` and `held` are as
 * in `race` (a task's first matching round trip is held).
 */
export async function raceTasks<T>(tasks: ((runEnv: Bindings) => Promise<T>)[], gate: RegExp, options: { inOrder?: boolean } = {}): Promise<{ results: T[]; held: number }> {
  let answered = 0;
  let released = false;
  const waiting = new Map<number, { go: () => void; back: Promise<void> }>();
  const releaseAll = async () => {
    const order = [...waiting.keys()].sort((a, b) => a - b);
    for (const index of order) {
      const held = waiting.get(index)!;
      held.go();
      if (options.inOrder) await held.back;
    }
  };
  const check = () => {
    if (!released && waiting.size + answered >= tasks.length) {
      released = true;
      void releaseAll();
    }
  };

  const run = async (task: (runEnv: Bindings) => Promise<T>, index: number): Promise<T> => {
    let reached = false;
    /** Waits for the release; the returned callback reports that the held round trip came back. */
    const atGate = async (): Promise<() => void> => {
      if (reached) return () => undefined;
      reached = true;
      let go!: () => void;
      let back!: () => void;
      const released = new Promise<void>((resolve) => (go = resolve));
      waiting.set(index, { go, back: new Promise<void>((resolve) => (back = resolve)) });
      check();
      await released;
      return back;
    };
    try {
      const gated = (d1: D1Database) => gatedD1(d1, gate, atGate);
      return await task({ ...env, DB: gated(env.DB), ...Object.fromEntries(shardBindings().map(({ name, db }) => [name, gated(db)])) });
    } finally {
      if (!reached) {
        // Done without reaching the gate: it must not keep the others waiting.
        answered += 1;
        check();
      }
    }
  };

  const results = await Promise.all(tasks.map(run));
  return { results, held: waiting.size };
}

/** The Worker's bindings with the tenant's shard replaced by `d1` (an instrumented binding over it). */
export function envWithShard(tenantId: string, d1: D1Database): Bindings {
  return { ...env, [shardOf(tenantId)]: d1 };
}

/**
 * A D1 binding on which `before` runs to completion ahead of EVERY round trip whose SQL matches
 * `gate`, not only the first: another writer landing each time between a service's read and its
 * write, to drive a retry loop to its end.
 */
export function interleavedD1(real: D1Database, gate: RegExp, before: () => Promise<void>): D1Database {
  return gatedD1(real, gate, async () => {
    await before();
    return () => undefined;
  });
}

/** A D1 binding that waits at `atGate` before any round trip whose SQL matches `gate`. */
function gatedD1(real: D1Database, gate: RegExp, atGate: () => Promise<() => void>): D1Database {
  const realOf = new WeakMap<object, { statement: D1PreparedStatement; sql: string }>();
  const through = async <T>(sql: string[], execute: () => Promise<T>): Promise<T> => {
    if (!sql.some((text) => gate.test(text))) return execute();
    const back = await atGate();
    try {
      return await execute();
    } finally {
      back();
    }
  };
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), sql),
      first: (column?: string) => through([sql], () => (column === undefined ? statement.first() : statement.first(column))),
      run: () => through([sql], () => statement.run()),
      all: () => through([sql], () => statement.all()),
      raw: (options?: { columnNames?: boolean }) => through([sql], () => (options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw())),
    } as unknown as D1PreparedStatement;
    realOf.set(wrapped, { statement, sql });
    return wrapped;
  };
  return {
    prepare: (sql: string) => wrap(real.prepare(sql), sql),
    batch: (statements: D1PreparedStatement[]) => {
      const entries = statements.map((s) => realOf.get(s) ?? { statement: s, sql: '' });
      return through(
        entries.map((entry) => entry.sql),
        () => real.batch(entries.map((entry) => entry.statement)),
      );
    },
    exec: (query: string) => real.exec(query),
    withSession: sessionsThrough(real, (binding) => gatedD1(binding, gate, atGate)),
    dump: () => real.dump(),
  } as unknown as D1Database;
}

/** A signed gateway request, signed afresh (signFresh), with a fresh X-Idempotency-Key on writes unless one is given. */
export async function gatewayRequest(key: TestApiKey, method: string, path: string, options: { body?: unknown; idempotencyKey?: string } = {}): Promise<Request> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = await signFresh({ keyId: key.keyId, secret: key.secret, method, url: path, body });
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['x-idempotency-key'] = options.idempotencyKey ?? newId('idem');
  }
  return new Request(`${BASE}${path}`, { method, headers, body });
}

/** A portal request with the member's bearer token. */
export function portalRequest(member: { token: string }, method: string, path: string, body?: unknown): Request {
  const headers: Record<string, string> = { authorization: `Bearer ${member.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Request(`${BASE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}
