import { formatSydneyDay } from '../../contracts/sydney-dates.ts';
import { escapeHtml } from '../escape-html.ts';
import type { MailMessage } from './mail.ts';

/**
 * Every e-mail the shop sends has one shape (issue 22): a heading, a few paragraphs, optionally
 * the order's lines and totals and one call to action, rendered twice — as HTML for mail
 * clients and as plain text for the rest — from the same content, so the two never disagree.
 * Senders build an `EmailContent`; this module is the only place that writes markup.
 */
export interface EmailContent {
  to: string;
  /** What the message is (order-confirmation, order-shipped, …), for the outbox record. */
  kind: string;
  subject: string;
  heading: string;
  /** Plain sentences; a blank string starts a new paragraph group in the text part. */
  paragraphs: string[];
  lines?: EmailLine[];
  totals?: EmailTotal[];
  action?: { label: string; url: string };
  /** Sentences after the lines and totals (what to bring, how to return, …). */
  after?: string[];
}

export interface EmailLine {
  description: string;
  quantity: number;
  /** Already formatted, e.g. "$97.90 inc GST". */
  unitPrice: string;
  total: string;
}

export interface EmailTotal {
  label: string;
  value: string;
  strong?: boolean;
}

/** Who the e-mail is from: the shop's name and its public address for links. */
export interface EmailShop {
  name: string;
  origin: string;
}

/** "28 December 2026": a date as shoppers read it, on the shop's (Sydney's) calendar. */
export function formatEmailDate(date: Date): string {
  return formatSydneyDay(date);
}

const SYDNEY_TIME = new Intl.DateTimeFormat('en-AU', {
  timeZone: 'Australia/Sydney',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});

/** "28 December 2026 at 3:04 pm (Sydney time)": when something happened to an account, for security e-mails. */
export function formatEmailDateTime(date: Date): string {
  return `${formatEmailDate(date)} at ${SYDNEY_TIME.format(date).replace(/\s/g, ' ')} (Sydney time)`;
}

function textPart(content: EmailContent, shop: EmailShop): string {
  const out: string[] = [content.heading, '', ...content.paragraphs];
  if (content.lines?.length) {
    out.push('');
    for (const line of content.lines)
      out.push(`${line.quantity} × ${line.description}  ${line.unitPrice}  ${line.total}`);
  }
  if (content.totals?.length) {
    out.push('');
    const width = Math.max(...content.totals.map((total) => total.label.length));
    for (const total of content.totals) out.push(`${total.label.padEnd(width)}  ${total.value}`);
  }
  if (content.action) out.push('', `${content.action.label}: ${content.action.url}`);
  if (content.after?.length) out.push('', ...content.after);
  out.push('', shop.name, shop.origin);
  return out.join('\n');
}

const CELL = 'padding:6px 8px;border-bottom:1px solid #e5e7eb;';

function htmlPart(content: EmailContent, shop: EmailShop): string {
  const paragraphs = content.paragraphs
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p style="margin:0 0 12px">${escapeHtml(paragraph)}</p>`)
    .join('');
  const lines = content.lines?.length
    ? `<table role="presentation" style="width:100%;border-collapse:collapse;margin:16px 0;font-size:14px">` +
      `<thead><tr><th style="${CELL}text-align:left">Item</th><th style="${CELL}text-align:right">Qty</th>` +
      `<th style="${CELL}text-align:right">Price</th><th style="${CELL}text-align:right">Total</th></tr></thead><tbody>` +
      content.lines
        .map(
          (line) =>
            `<tr><td style="${CELL}">${escapeHtml(line.description)}</td>` +
            `<td style="${CELL}text-align:right">${line.quantity}</td>` +
            `<td style="${CELL}text-align:right">${escapeHtml(line.unitPrice)}</td>` +
            `<td style="${CELL}text-align:right">${escapeHtml(line.total)}</td></tr>`,
        )
        .join('') +
      `</tbody></table>`
    : '';
  const totals = content.totals?.length
    ? `<table role="presentation" style="margin:0 0 16px auto;font-size:14px">` +
      content.totals
        .map((total) => {
          const weight = total.strong ? 'font-weight:700;' : '';
          return `<tr><td style="padding:2px 12px 2px 0;${weight}">${escapeHtml(total.label)}</td><td style="text-align:right;${weight}">${escapeHtml(total.value)}</td></tr>`;
        })
        .join('') +
      `</table>`
    : '';
  const action = content.action
    ? `<p style="margin:20px 0"><a href="${escapeHtml(content.action.url)}" style="background:#f59e0b;color:#111827;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(content.action.label)}</a></p>`
    : '';
  const after = (content.after ?? [])
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p style="margin:0 0 12px">${escapeHtml(paragraph)}</p>`)
    .join('');
  return (
    `<!doctype html><html lang="en-AU"><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>` +
    `<body style="margin:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827">` +
    `<div style="max-width:600px;margin:0 auto;background:#ffffff;padding:24px">` +
    `<p style="margin:0 0 16px;font-weight:700;font-size:18px">${escapeHtml(shop.name)}</p>` +
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>` +
    paragraphs +
    lines +
    totals +
    action +
    after +
    `<p style="margin:24px 0 0;font-size:12px;color:#4b5563">${escapeHtml(shop.name)} · <a href="${escapeHtml(shop.origin)}" style="color:#4b5563">${escapeHtml(shop.origin)}</a></p>` +
    `</div></body></html>`
  );
}

/** The message to hand to `Mailer.send`: subject, HTML and plain text from one content. */
export function renderEmail(content: EmailContent, shop: EmailShop): MailMessage {
  return {
    to: content.to,
    kind: content.kind,
    subject: content.subject,
    text: textPart(content, shop),
    html: htmlPart(content, shop),
  };
}
