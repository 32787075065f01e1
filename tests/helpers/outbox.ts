import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';

/** One e-mail as the local outbox wrote it, read back as a mail client would: both parts decoded. */
export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  /** The HTML part, or '' when the message has none. */
  html: string;
}

/** Reads one `.eml` file of the outbox folder. */
export async function readOutboxMail(file: string): Promise<OutboxMail> {
  const parsed = await simpleParser(readFileSync(file));
  const to = Array.isArray(parsed.to) ? parsed.to.map((address) => address.text).join(', ') : (parsed.to?.text ?? '');
  return {
    file,
    to,
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
  };
}

/** Every e-mail in the outbox folder, oldest first (file names start with their time). */
export async function readOutbox(dir: string): Promise<OutboxMail[]> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
  names.sort();
  return Promise.all(names.map((name) => readOutboxMail(join(dir, name))));
}
