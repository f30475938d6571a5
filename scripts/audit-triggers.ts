/**
 * `npm run db:audit`: writes src/db/sql/audit-log.sql from src/domain/audit.ts (scripts/lib/audit-triggers.ts);
 * then `npm run db:sql -- <name>` makes the migration, as for any edit of src/db/sql.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { auditTriggersSql } from './lib/audit-triggers';

const file = fileURLToPath(new URL('../src/db/sql/audit-log.sql', import.meta.url));
writeFileSync(file, auditTriggersSql());
console.info('db:audit: wrote src/db/sql/audit-log.sql');
