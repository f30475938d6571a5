/**
 * Prints a portal access token signed with the local dev key (`.dev/`), trusted by `npm run dev`.
 *
 *   npm run token -- --email you@example.com [--username you]
 *   TOKEN=$(npm run -s token -- --email you@example.com)
 */
import { parseArgs } from 'node:util';
import { ensureDevSetup } from './lib/dev-files';
import { devSubject, mintPortalToken, TOKEN_TTL_SECONDS } from './lib/portal-token';

const DEFAULT_EMAIL = 'demo-admin@example.com';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    username: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  console.log('Usage: npm run token -- --email you@example.com [--username name]');
  console.log(`Without --email the token is for ${DEFAULT_EMAIL}, the demo tenant's super_admin.`);
  process.exit(0);
}

const email = values.email ?? DEFAULT_EMAIL;
if (!/^[^@\s]+@[^@\s]+$/.test(email)) {
  console.error(`Not an email address: ${email}`);
  process.exit(2);
}

const { key, created } = await ensureDevSetup();
if (created.length > 0) {
  console.error(`Created ${created.join(', ')}: restart \`npm run dev\` so the server trusts the new dev key.`);
}
const token = await mintPortalToken(key, { email, username: values.username });
console.log(token);
console.error(`# portal token for ${email} (sub ${devSubject(email)}, kid ${key.kid}, valid ${TOKEN_TTL_SECONDS / 3600} h)`);
