import { openDatabase } from '../db/client.ts';
import { sql } from 'drizzle-orm';
const h = await openDatabase({ kind: 'pglite' });
console.time('migrate'); await h.migrate(); console.timeEnd('migrate');
console.log(await h.db.execute(sql`select count(*) from products`));
await h.close();
const p = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/test' });
await p.ping(); console.log('pg ok'); await p.close();
