import { describe, expect, it } from 'vitest';
import { allDefinitions, BREAKPOINT, normalizedSql, replacementStatements, replayedDefinitions, sameDefinitions } from '../../scripts/lib/sql-definitions';

const view = (name: string, body: string) => `-- ${name}: why it exists\nCREATE VIEW \`${name}\` AS ${body};`;
const trigger = (name: string, table = 't') => `CREATE TRIGGER \`${name}\` AFTER INSERT ON \`${table}\` BEGIN\n  DELETE FROM x WHERE a = 'it''s; -- not a comment';\nEND;`;

describe('src/db/sql definitions (scripts/lib/sql-definitions.ts)', () => {
  it('reads one CREATE per statement, without the comments above it and the final ;', () => {
    const [first, second] = allDefinitions({ 'a.sql': `-- the file's rule\n\n${view('v', 'SELECT 1')}\n${BREAKPOINT}\n${trigger('tr')}` });
    expect(first).toEqual({ kind: 'view', name: 'v', sql: 'CREATE VIEW `v` AS SELECT 1', file: 'a.sql' });
    expect(second).toMatchObject({ kind: 'trigger', name: 'tr', file: 'a.sql' });
    expect(second?.sql.endsWith('END')).toBe(true);
  });

  it('refuses two statements without a breakpoint, a statement that is not a CREATE, and a name defined twice', () => {
    expect(() => allDefinitions({ 'a.sql': `${view('v', 'SELECT 1')}\n${trigger('tr')}` })).toThrow(/a\.sql: each statement is one CREATE/);
    expect(() => allDefinitions({ 'a.sql': 'DROP VIEW `v`;' })).toThrow(/a\.sql: each statement is one CREATE/);
    expect(() => allDefinitions({ 'a.sql': view('v', 'SELECT 1'), 'b.sql': view('v', 'SELECT 2') })).toThrow('v is defined in a.sql and in b.sql');
  });

  it('compares without comments and spacing, never inside a quoted literal', () => {
    expect(normalizedSql("SELECT  1 -- one\n, '--  kept'  /* gone */ ;")).toBe("SELECT 1 , '--  kept'");
    expect(normalizedSql("SELECT 'a''  b'")).not.toBe(normalizedSql("SELECT 'a'' b'"));
  });

  it('replays the migrations: the last CREATE of a name counts, a DROP removes it', () => {
    const live = replayedDefinitions([
      { file: '0001.sql', text: `CREATE TABLE t (a);\n${BREAKPOINT}\n${trigger('gone')}\n${BREAKPOINT}\n${view('v', 'SELECT 1')}` },
      { file: '0002.sql', text: `DROP TRIGGER \`gone\`;\n${BREAKPOINT}\n-- redefined\nDROP VIEW IF EXISTS \`v\`;\n${BREAKPOINT}\n${view('v', 'SELECT 2')}` },
    ]);
    expect([...live.keys()]).toEqual(['v']);
    expect(sameDefinitions(live, allDefinitions({ 'v.sql': `${view('v', 'SELECT  2')} ` }))).toBe(true);
    expect(sameDefinitions(live, allDefinitions({ 'v.sql': view('v', 'SELECT 3') }))).toBe(false);
  });

  it('replaces everything: drops what the database holds and the files name, creates views before triggers, each view after those it reads', () => {
    const definitions = allDefinitions({ 'a.sql': `${view('reads_base', 'SELECT * FROM base')}\n${BREAKPOINT}\n${trigger('kept')}`, 'b.sql': view('base', 'SELECT 1') });
    const statements = replacementStatements(definitions, [{ kind: 'trigger', name: 'removed' }, { kind: 'view', name: 'base' }]);
    const named = statements.map((statement) => /(DROP|CREATE) (TRIGGER|VIEW) (?:IF EXISTS )?`(\w+)`/.exec(statement)?.slice(1).join(' '));
    expect(named).toEqual([
      'DROP TRIGGER kept',
      'DROP TRIGGER removed',
      'DROP VIEW base',
      'DROP VIEW reads_base',
      'CREATE VIEW base',
      'CREATE VIEW reads_base',
      'CREATE TRIGGER kept',
    ]);
    expect(statements[4]).toBe('-- src/db/sql/b.sql\nCREATE VIEW `base` AS SELECT 1;');
  });
});
