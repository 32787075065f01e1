import { describe, expect, it } from 'vitest';
import { formatEmailDate, formatEmailDateTime, renderEmail } from '../../server/domain/email-layout.ts';

const SHOP = { name: 'Harbour Tools', origin: 'https://shop.example' };

describe('renderEmail', () => {
  const message = renderEmail(
    {
      to: 'a@example.com',
      kind: 'order-confirmation',
      subject: 'Order HT-100001 confirmed',
      heading: 'Thank you for your order',
      paragraphs: ['Order HT-100001 is being packed.'],
      lines: [{ description: 'Drill <Pro> & case', quantity: 2, unitPrice: '$97.90 inc GST', total: '$178.00' }],
      totals: [
        { label: 'Subtotal', value: '$178.00' },
        { label: 'Total', value: '$195.80', strong: true },
      ],
      action: { label: 'View your order', url: 'https://shop.example/orders/1?a=1&b=2' },
      after: ['Bring photo ID.'],
    },
    SHOP,
  );

  it('gives the same lines, totals and link in both parts', () => {
    for (const part of [message.text, message.html ?? '']) {
      expect(part).toContain('Thank you for your order');
      expect(part).toContain('$97.90 inc GST');
      expect(part).toContain('$195.80');
      expect(part).toContain('Bring photo ID.');
      expect(part).toContain('Harbour Tools');
    }
    expect(message.text).toContain('2 × Drill <Pro> & case');
    expect(message.text).toContain('View your order: https://shop.example/orders/1?a=1&b=2');
  });

  it('escapes what shoppers and the owner typed in the HTML part', () => {
    expect(message.html).toContain('Drill &lt;Pro&gt; &amp; case');
    expect(message.html).not.toContain('<Pro>');
    expect(message.html).toContain('href="https://shop.example/orders/1?a=1&amp;b=2"');
  });
});

describe('formatEmailDate', () => {
  it('reads as a shopper reads a date, on Sydney’s calendar', () => {
    expect(formatEmailDate(new Date('2026-12-28T03:00:00Z'))).toBe('28 December 2026');
    // 14:00 UTC on the 27th is already the 28th in Sydney (summer time, UTC+11).
    expect(formatEmailDate(new Date('2026-12-27T14:00:00Z'))).toBe('28 December 2026');
  });
});

describe('formatEmailDateTime', () => {
  it('says the day and the time on Sydney’s clock, and says so', () => {
    expect(formatEmailDateTime(new Date('2026-12-28T04:04:00Z'))).toBe('28 December 2026 at 3:04 pm (Sydney time)');
    // Winter (UTC+10), after midnight in Sydney while UTC is still on the day before.
    expect(formatEmailDateTime(new Date('2027-07-02T14:30:00Z'))).toBe('3 July 2027 at 12:30 am (Sydney time)');
    expect(formatEmailDateTime(new Date('2027-07-02T14:30:00Z'))).not.toMatch(/GMT|Z$/);
  });
});
