/**
 * `npm run admin:create -- --email owner@example.com --password '…'`: makes an admin account
 * (or gives an existing account the admin role and this password, ending its sessions and
 * unlinking Google, so an account registered before its promotion stays nobody else's) in
 * the configured database.
 * The password can also come from ADMIN_PASSWORD, so it stays out of the shell history.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { openConfiguredDatabase } from '../db/open-configured.ts';
import { loadConfig } from '../server/config.ts';
import { ensureAdminAccount, recordAdminChange } from '../server/domain/accounts.ts';
import { createSecurityEvents } from '../server/domain/security-events.ts';

const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } });
const input = z
  .object({
    email: z.email('--email must be an e-mail address'),
    password: z
      .string('--password (or ADMIN_PASSWORD) is required')
      .min(12, 'The password must be at least 12 characters'),
  })
  .safeParse({ email: values.email, password: values.password ?? process.env.ADMIN_PASSWORD });
if (!input.success) {
  console.error(input.error.issues.map((issue) => issue.message).join('\n'));
  console.error("Usage: npm run admin:create -- --email owner@example.com [--password '…' | ADMIN_PASSWORD=…]");
  process.exit(2);
}

const { ADMIN_EMAIL: _email, ADMIN_PASSWORD: _password, ...environment } = process.env;
const config = loadConfig(environment);
const database = await openConfiguredDatabase(config);
try {
  const outcome = await ensureAdminAccount(database.db, input.data.email, input.data.password);
  const { created, changed } = outcome;
  // The same security event the server logs for ADMIN_EMAIL, as one JSON line on stderr (the server's log shape).
  const events = createSecurityEvents({
    warn: (object, msg) => console.error(JSON.stringify({ level: 40, time: Date.now(), ...object, msg })),
  });
  recordAdminChange(events, outcome, 'admin:create');
  const email = input.data.email.toLowerCase();
  console.log(
    created
      ? `Created the admin account ${email} (${database.kind}).`
      : changed
        ? `Updated the admin account ${email} (${database.kind}): its role and password are set, Google is unlinked, and every session it had has ended.`
        : `The admin account ${email} already has that password (${database.kind}): nothing changed.`,
  );
} finally {
  await database.close();
}
