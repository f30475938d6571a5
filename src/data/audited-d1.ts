import type { AuditContextRow } from '../db/schema';
import { isReadOnlySql } from './leading-d1';
import { ridingStatement, wrappedDatabase } from './riding-statements';

/**
 * A D1 binding whose every write batch records the audit log (docs/OPERATIONS.md, "Audit log"):
 * it opens with the request's audit context row and closes by deleting it, in the same batch (one
 * D1 transaction), and the triggers of src/db/sql/audit-log.sql write the entries while the row is
 * there. So an entry is committed exactly with the change it describes, in the change's own round
 * trip: a rolled-back batch leaves neither. A write sent alone (`run`, `first`...) becomes such a
 * batch of three; reads pass through untouched.
 *
 * D1 runs one batch at a time, so the context table holds at most this batch's row while the
 * triggers read it, and none between batches.
 */
export class AuditedD1 {
  readonly #sqlOf = new WeakMap<D1PreparedStatement, string>();
  /** The wrapped binding: give it to `createDatabase`. */
  readonly binding: D1Database;

  constructor(
    private readonly d1: D1Database,
    private readonly context: Required<AuditContextRow>,
  ) {
    this.binding = wrappedDatabase(
      d1,
      (query) => ridingStatement(d1.prepare(query), (statement) => this.#alone(statement), (statement) => this.#sqlOf.set(statement, query)),
      (statements) => this.#batch(statements),
    );
  }

  #writes(statements: D1PreparedStatement[]): boolean {
    return statements.some((statement) => !isReadOnlySql(this.#sqlOf.get(statement) ?? ''));
  }

  #opening(): D1PreparedStatement {
    const { writeId, requestId, tenantId, at, actorType, actorId, actorLabel, action, tables } = this.context;
    return this.d1
      .prepare('INSERT INTO audit_context (write_id, request_id, tenant_id, at, actor_type, actor_id, actor_label, action, tables) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .bind(writeId, requestId, tenantId, at, actorType, actorId, actorLabel, action, tables);
  }

  #closing(): D1PreparedStatement {
    return this.d1.prepare('DELETE FROM audit_context WHERE write_id = ?').bind(this.context.writeId);
  }

  async #batch(statements: D1PreparedStatement[]): Promise<D1Result[]> {
    if (!this.#writes(statements)) return this.d1.batch(statements);
    const results = await this.d1.batch([this.#opening(), ...statements, this.#closing()]);
    return results.slice(1, -1);
  }

  /** A single write as a batch of three; a read runs as it is. */
  async #alone(statement: D1PreparedStatement): Promise<D1Result<Record<string, unknown>> | undefined> {
    if (!this.#writes([statement])) return undefined;
    const [result] = await this.#batch([statement]);
    if (!result) throw new Error('D1 batch returned no result');
    return result as D1Result<Record<string, unknown>>;
  }
}
