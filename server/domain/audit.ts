import { desc } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';
import type { Transaction } from './stock.ts';

/** The member of staff doing something in the back office. */
export interface Actor {
  userId: number;
  email: string;
}

/** Records one back-office change, in the caller's transaction when it has one. */
export async function recordAudit(
  db: Database | Transaction,
  actor: Actor,
  entry: { action: string; entity: string; entityId?: string | number | null; details?: Record<string, unknown> },
): Promise<void> {
  await db.insert(auditLog).values({
    actorUserId: actor.userId,
    actorEmail: actor.email,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
    details: entry.details ?? {},
  });
}

export async function listAudit(db: Database, limit = 100) {
  return db.select().from(auditLog).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit);
}
