import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What the message is (password-reset, welcome, …), for the outbox record. */
  kind: string;
}

export interface Mailer {
  /**
   * Records the message in `email_outbox` and delivers it: through SMTP when `SMTP_URL` is set,
   * otherwise as one `.eml` file in the outbox folder. Never throws: a failed delivery is
   * recorded as `failed` and logged, so no message disappears silently.
   */
  send(message: MailMessage): Promise<void>;
  /** Resolves when every delivery started so far has finished (tests, shutdown). */
  idle(): Promise<void>;
  /** Counts work that will send mail after an answer went out (forgot-password) as pending, so `idle()` waits for it too. */
  track?(work: Promise<unknown>): void;
}

interface MailLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export function createMailer(options: {
  db: Database;
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: MailLog;
}): Mailer {
  const { db, smtpUrl, from, outboxDir, log } = options;
  const transport = smtpUrl
    ? nodemailer.createTransport(smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const pending = new Set<Promise<void>>();

  async function deliver(message: MailMessage): Promise<void> {
    const [record] = await db
      .insert(emailOutbox)
      .values({ recipient: message.to, subject: message.subject, kind: message.kind })
      .returning({ id: emailOutbox.id });
    const id = record?.id ?? 0;
    try {
      const info = await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      let deliveredAs = String(info.messageId ?? '');
      if (!smtpUrl) {
        const file = join(
          outboxDir,
          `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}-${randomBytes(3).toString('hex')}.eml`,
        );
        // Off the event loop: opening a file was ~7 % of the server's CPU under the order bench
        // (two messages an order), and shoppers' requests waited behind it.
        await mkdir(outboxDir, { recursive: true });
        await writeFile(file, (info as unknown as { message: Buffer }).message);
        deliveredAs = file;
      }
      await db
        .update(emailOutbox)
        .set({ status: 'sent', deliveredAs, sentAt: new Date() })
        .where(eq(emailOutbox.id, id));
      log.info(
        { mailId: id, kind: message.kind, deliveredAs },
        smtpUrl ? 'e-mail sent' : 'e-mail written to the outbox',
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await db
        .update(emailOutbox)
        .set({ status: 'failed', error: reason.slice(0, 500) })
        .where(eq(emailOutbox.id, id))
        .catch(() => {});
      log.error({ mailId: id, kind: message.kind, reason }, 'e-mail could not be delivered');
    }
  }

  return {
    send(message) {
      const delivery = deliver(message).catch((error: unknown) => {
        log.error(
          { kind: message.kind, reason: error instanceof Error ? error.message : String(error) },
          'e-mail could not be recorded',
        );
      });
      pending.add(delivery);
      void delivery.finally(() => pending.delete(delivery));
      return delivery;
    },
    async idle() {
      while (pending.size > 0) await Promise.all(pending);
    },
    track(work) {
      const settled = work.then(
        () => {},
        () => {},
      );
      pending.add(settled);
      void settled.finally(() => pending.delete(settled));
    },
  };
}
