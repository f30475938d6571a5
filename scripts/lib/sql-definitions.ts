/**
 * The triggers and views of src/db/sql/*.sql (docs/ARCHITECTURE.md, "Rules in SQL"): read from the
 * files, replayed from the migrations, and written as the migration that makes the database hold
 * exactly the files. Pure (no node:fs): scripts/sql-migration.ts reads the files from disk,
 * test/db/rules-in-sql.test.ts gets them inlined by Vite.
 */

/** What drizzle-kit writes between a migration's statements; the files separate their definitions with it too. */
export const BREAKPOINT = '--> statement-breakpoint';

export type SqlObjectKind = 'trigger' | 'view';

/** One CREATE statement as sqlite_master keeps it: from CREATE to its end, without the final `;`. */
export type SqlDefinition = { kind: SqlObjectKind; name: string; sql: string; file: string };

const CREATE = /^CREATE\s+(TRIGGER|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?[`"]?(\w+)[`"]?/i;
const DROP = /^DROP\s+(TRIGGER|VIEW)\s+(?:IF\s+EXISTS\s+)?[`"]?(\w+)[`"]?/i;
const CREATE_ANYWHERE = /^\s*CREATE\s+(TRIGGER|VIEW)\b/gim;

/** A chunk's statement: its leading comment lines and blank lines, and its final `;`, removed. */
function statementOf(chunk: string): string {
  const lines = chunk.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '' && !line.trim().startsWith('--'));
  return first === -1 ? '' : lines.slice(first).join('\n').trim().replace(/;$/, '').trimEnd();
}

const kindOf = (word: string): SqlObjectKind => (word.toLowerCase() === 'view' ? 'view' : 'trigger');

/** A file's definitions, in order: each chunk between breakpoints is one CREATE TRIGGER or CREATE VIEW. */
function definitionsOf(file: string, text: string): SqlDefinition[] {
  return text.split(BREAKPOINT).map((chunk) => {
    const sql = statementOf(chunk);
    const match = CREATE.exec(sql);
    const creates = (stripComments(sql).match(CREATE_ANYWHERE) ?? []).length;
    if (!match?.[1] || !match[2] || creates !== 1) {
      throw new Error(`${file}: each statement is one CREATE TRIGGER or CREATE VIEW, the next after a "${BREAKPOINT}" line; found: ${sql.slice(0, 80) || '(nothing)'}`);
    }
    return { kind: kindOf(match[1]), name: match[2], sql, file };
  });
}

/** Every file's definitions; a name defined twice is an error. */
export function allDefinitions(files: Readonly<Record<string, string>>): SqlDefinition[] {
  const definitions = Object.entries(files)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([file, text]) => definitionsOf(file, text));
  const seen = new Map<string, string>();
  for (const { name, file } of definitions) {
    const other = seen.get(name);
    if (other !== undefined) throw new Error(`${name} is defined in ${other} and in ${file}: one definition per name`);
    seen.set(name, file);
  }
  return definitions;
}

/** What the migrations leave in the database, in order: each trigger's and view's last CREATE not dropped since. */
export function replayedDefinitions(migrations: readonly { file: string; text: string }[]): Map<string, SqlDefinition> {
  const live = new Map<string, SqlDefinition>();
  for (const { file, text } of migrations) {
    for (const chunk of text.split(BREAKPOINT)) {
      const sql = statementOf(chunk);
      const created = CREATE.exec(sql);
      const dropped = DROP.exec(sql);
      if (created?.[1] && created[2]) live.set(created[2], { kind: kindOf(created[1]), name: created[2], sql, file });
      else if (dropped?.[2]) live.delete(dropped[2]);
    }
  }
  return live;
}

/** True when the database already holds exactly these definitions (comments and spacing aside). */
export function sameDefinitions(live: ReadonlyMap<string, SqlDefinition>, definitions: readonly SqlDefinition[]): boolean {
  return (
    live.size === definitions.length &&
    definitions.every((wanted) => {
      const held = live.get(wanted.name);
      return held !== undefined && held.kind === wanted.kind && normalizedSql(held.sql) === normalizedSql(wanted.sql);
    })
  );
}

/** Views in an order that creates each after the views it reads; otherwise the files' order. */
function viewsInDependencyOrder(views: readonly SqlDefinition[]): SqlDefinition[] {
  const ordered: SqlDefinition[] = [];
  const pending = [...views];
  while (pending.length > 0) {
    const ready = pending.findIndex((view) => !pending.some((other) => other !== view && new RegExp(`\\b${other.name}\\b`).test(stripComments(view.sql))));
    if (ready === -1) throw new Error(`views read each other in a circle: ${pending.map((view) => view.name).join(', ')}`);
    ordered.push(...pending.splice(ready, 1));
  }
  return ordered;
}

/**
 * The statements that replace every trigger and view the database holds (`live`) by the files'
 * definitions: drop all (triggers, then views), create all (views, then triggers). Run as one
 * migration, in one transaction: no write runs between a drop and its create.
 */
export function replacementStatements(definitions: readonly SqlDefinition[], live: Iterable<Pick<SqlDefinition, 'kind' | 'name'>>): string[] {
  const names = (kind: SqlObjectKind) => [...new Set([...live, ...definitions].filter((object) => object.kind === kind).map((object) => object.name))].sort();
  const creates = (list: readonly SqlDefinition[]) => list.map((definition) => `-- src/db/sql/${definition.file}\n${definition.sql};`);
  return [
    ...names('trigger').map((name) => `DROP TRIGGER IF EXISTS \`${name}\`;`),
    ...names('view').map((name) => `DROP VIEW IF EXISTS \`${name}\`;`),
    ...creates(viewsInDependencyOrder(definitions.filter((definition) => definition.kind === 'view'))),
    ...creates(definitions.filter((definition) => definition.kind === 'trigger')),
  ];
}

const HEADER = `-- Every trigger and view, replaced by the current definitions in src/db/sql/*.sql (one file per
-- concern, each saying what rule it carries). Written by \`npm run db:sql -- <name>\`: never edit this
-- file; edit src/db/sql and run the script again (docs/ARCHITECTURE.md, "Rules in SQL").
-- Definitions only, no data: dropped and created in the one transaction of this migration, so no
-- write runs without them and every count, position and membership stays as it was.
`;

/** The migration's text: the header, then the statements between breakpoints. */
export function replacementMigration(definitions: readonly SqlDefinition[], live: Iterable<Pick<SqlDefinition, 'kind' | 'name'>>): string {
  return `${HEADER}${replacementStatements(definitions, live).join(`\n${BREAKPOINT}\n`)}\n`;
}

type Token = { kind: 'code' | 'literal' | 'comment'; text: string };

/** SQL as code, quoted literals ('…', "…", `…`; a doubled quote escapes itself) and comments, in order. */
function tokens(sql: string): Token[] {
  const found: Token[] = [];
  let start = 0;
  let index = 0;
  const cut = (kind: Token['kind'], end: number) => {
    if (end > start) found.push({ kind, text: sql.slice(start, end) });
    start = end;
  };
  while (index < sql.length) {
    const char = sql[index] ?? '';
    if (char === "'" || char === '"' || char === '`') {
      cut('code', index);
      let end = index + 1;
      while (end < sql.length && !(sql[end] === char && sql[end + 1] !== char)) end += sql[end] === char ? 2 : 1;
      index = Math.min(end + 1, sql.length);
      cut('literal', index);
    } else if (sql.startsWith('--', index) || sql.startsWith('/*', index)) {
      cut('code', index);
      const line = sql.startsWith('--', index);
      const end = line ? sql.indexOf('\n', index) : sql.indexOf('*/', index + 2);
      index = end === -1 ? sql.length : line ? end : end + 2;
      cut('comment', index);
    } else {
      index += 1;
    }
  }
  cut('code', sql.length);
  return found;
}

/** SQL without its comments (each a space; never inside a quoted literal). */
function stripComments(sql: string): string {
  return tokens(sql)
    .map(({ kind, text }) => (kind === 'comment' ? ' ' : text))
    .join('');
}

/** The SQL compared with sqlite_master: comments gone, whitespace outside literals collapsed, no final `;`. */
export function normalizedSql(sql: string): string {
  return tokens(stripComments(sql))
    .map(({ kind, text }) => (kind === 'code' ? text.replace(/\s+/g, ' ') : text))
    .join('')
    .trim()
    .replace(/\s*;$/, '');
}
