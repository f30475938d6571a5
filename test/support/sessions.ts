/**
 * `withSession` of an instrumented D1 binding (counting, recording, gating: never a mock): the real
 * binding's session, its statements through the same instrumentation, its bookmark kept. The
 * Worker runs every tenant request in a session (src/middleware/bookmark.ts), so an instrument
 * that let sessions past it would see nothing.
 */
export function sessionsThrough(real: D1Database, instrument: (binding: D1Database) => D1Database) {
  return (constraint?: string): D1DatabaseSession => {
    const session = real.withSession(constraint);
    const inner = instrument({ prepare: (query: string) => session.prepare(query), batch: (statements: D1PreparedStatement[]) => session.batch(statements) } as D1Database);
    return { prepare: (query) => inner.prepare(query), batch: (statements) => inner.batch(statements), getBookmark: () => session.getBookmark() };
  };
}
