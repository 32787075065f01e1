/** `npm run db:migrate`: applies pending migrations to the configured database and exits. */
import { openConfiguredDatabase } from '../db/open-configured.ts';
import { loadConfig } from '../server/config.ts';

const config = loadConfig();
const started = performance.now();
const database = await openConfiguredDatabase(config);
await database.close();
console.log(`Migrations applied to ${database.kind} in ${Math.round(performance.now() - started)} ms.`);
