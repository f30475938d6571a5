import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditTriggersSql } from '../../scripts/lib/audit-triggers';
import { allDefinitions } from '../../scripts/lib/sql-definitions';
import { auditedTables } from '../../src/domain/audit';

describe('the audit triggers (scripts/lib/audit-triggers.ts)', () => {
  const committed = readFileSync(new URL('../../src/db/sql/audit-log.sql', import.meta.url), 'utf8');

  it('src/db/sql/audit-log.sql is what `npm run db:audit` writes from src/domain/audit.ts and the schema', () => {
    expect(committed).toBe(auditTriggersSql());
  });

  it('one trigger per audited table and change, each recording only while the context names its table', () => {
    const definitions = allDefinitions({ 'audit-log.sql': committed });
    expect(definitions.map((definition) => definition.name).sort()).toEqual(
      Object.keys(auditedTables).flatMap((table) => ['insert', 'update', 'delete'].map((change) => `audit_${table}_${change}`)).sort(),
    );
    for (const definition of definitions) expect(definition.sql).toMatch(/WHEN EXISTS \(SELECT 1 FROM audit_context WHERE instr\(tables, ',[a-z_]+,'\) > 0\)/);
  });

  it("calls no SQL function with more than D1's 32 arguments", () => {
    let most = 0;
    for (const call of committed.matchAll(/\b\w+\(/g)) {
      let depth = 1;
      let args = 1;
      let quoted = false;
      for (const char of committed.slice((call.index ?? 0) + call[0].length)) {
        if (char === "'") quoted = !quoted;
        else if (!quoted && char === '(') depth += 1;
        else if (!quoted && char === ')') depth -= 1;
        else if (!quoted && char === ',' && depth === 1) args += 1;
        if (depth === 0) break;
      }
      most = Math.max(most, args);
    }
    expect(most).toBeGreaterThan(2);
    expect(most).toBeLessThanOrEqual(32);
  });

  it('never diffs a secret column by value', () => {
    for (const [table, spec] of Object.entries(auditedTables)) {
      const triggers = allDefinitions({ 'audit-log.sql': committed }).filter((definition) => definition.name.startsWith(`audit_${table}_`));
      for (const secret of spec.secrets) for (const trigger of triggers) expect(trigger.sql).not.toMatch(new RegExp(`json_array\\([^)]*\\b(OLD|NEW)\\.${secret}\\b[,)]`));
    }
  });
});
