import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages } from '../../db/schema.ts';
import { CONTACT_RATE_LIMIT } from '../../server/domain/contact.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

const valid = {
  name: 'Sam Builder',
  email: 'sam@example.com',
  phone: '0412 345 678',
  subject: 'Drill question',
  message: 'Does the DCD791 kit come with two batteries?',
  orderNumber: 'HT-100042',
};

describe('POST /api/contact', () => {
  let shop: TestShop;
  let sender = 0;

  /** Each test sends as its own shopper from its own address, so the rate limit only bites where a test wants it to. */
  function post(body: unknown, options: { email?: string; ip?: string; headers?: Record<string, string> } = {}) {
    sender += 1;
    const payload =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? { ...body, ...('email' in body ? { email: options.email ?? body.email } : {}) }
        : body;
    return shop.app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: options.ip ?? `10.0.${Math.floor(sender / 250)}.${sender % 250}`,
      headers: { 'content-type': 'application/json', ...options.headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  }

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 10 });
  });
  afterAll(async () => {
    await shop?.close();
  });

  it('stores the message and answers 201 with its id', async () => {
    const response = await post({ ...valid, name: '  Sam Builder  ' }, { email: 'stored@example.com' });
    expect(response.statusCode).toBe(201);
    const body = response.json() as { id: number; createdAt: string };
    expect(body.id).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(body.createdAt))).toBe(false);
    expect(response.headers['cache-control']).toBe('no-store');

    const [row] = await shop.database.db.select().from(contactMessages).where(eq(contactMessages.id, body.id));
    expect(row).toMatchObject({
      name: 'Sam Builder',
      email: 'stored@example.com',
      phone: '0412 345 678',
      subject: valid.subject,
      message: valid.message,
      orderNumber: 'HT-100042',
    });
  });

  it('stores blank or missing optional fields as empty (null)', async () => {
    const { phone: _phone, orderNumber: _orderNumber, ...required } = valid;
    const response = await post({ ...required, phone: '', orderNumber: null }, { email: 'optional@example.com' });
    expect(response.statusCode).toBe(201);
    const [row] = await shop.database.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.id, (response.json() as { id: number }).id));
    expect(row?.phone).toBeNull();
    expect(row?.orderNumber).toBeNull();
  });

  it.each([
    ['name', { name: '' }, 'Please enter your name'],
    ['name', { name: undefined }, 'Please enter your name'],
    ['name', { name: 42 }, 'Name must be text'],
    ['email', { email: 'sam@' }, 'Please enter a valid email address, e.g. name@example.com'],
    ['email', { email: undefined }, 'Please enter your email address'],
    ['phone', { phone: 'ring me' }, 'Please enter a valid phone number, e.g. 0412 345 678'],
    ['subject', { subject: '   ' }, 'Please enter a subject'],
    ['subject', { subject: 's'.repeat(151) }, 'Subject must be 150 characters or fewer'],
    ['message', { message: 'too short' }, 'Please tell us a little more (at least 10 characters)'],
    ['message', { message: 'm'.repeat(5001) }, 'Message must be 5,000 characters or fewer'],
    ['orderNumber', { orderNumber: 'no spaces please' }, 'Order numbers contain only letters, numbers and dashes'],
  ])('answers 400 naming %s when it is invalid', async (field, change, message) => {
    const body = { ...valid, email: `invalid-${field}@example.com`, ...change };
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(response.statusCode).toBe(400);
    const error = response.json() as ErrorBody;
    expect(error.message).toBe(`Invalid field: ${field}`);
    expect(error.errors).toEqual({ [field]: [message] });
  });

  it('names every invalid field at once and stores nothing', async () => {
    const before = await shop.database.db.$count(contactMessages);
    const response = await post({ name: '', email: 'x', subject: '', message: '' });
    expect(response.statusCode).toBe(400);
    const error = response.json() as ErrorBody;
    expect(error.message).toBe('Invalid fields: name, email, subject, message');
    expect(Object.keys(error.errors ?? {})).toEqual(['name', 'email', 'subject', 'message']);
    expect(await shop.database.db.$count(contactMessages)).toBe(before);
  });

  it('answers 400, not 500, for a body that is not an object or not JSON', async () => {
    for (const payload of ['[]', '"hello"', 'null', '{"name":']) {
      const response = await post(payload);
      expect(response.statusCode, payload).toBe(400);
      expect((response.json() as ErrorBody).message).toMatch(/^Invalid field|not valid JSON/);
    }
  });

  it('refuses an oversize body with 413 before reading it', async () => {
    const response = await post({ ...valid, message: 'x'.repeat(200_000) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'The request body is too large' });
  });

  it('refuses an unknown content type with 415', async () => {
    const response = await post('<contact><name>Sam</name></contact>', {
      headers: { 'content-type': 'application/xml' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ message: 'Unsupported content type' });
  });

  it('refuses a form-encoded body (the page /contact takes forms; the API takes JSON)', async () => {
    const response = await post(new URLSearchParams(valid).toString(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(415);
  });

  it(`allows ${CONTACT_RATE_LIMIT.limit} messages per client address, then answers 429 with Retry-After`, async () => {
    const ip = '192.0.2.10';
    for (let index = 0; index < CONTACT_RATE_LIMIT.limit; index += 1) {
      const response = await post(valid, { ip, email: `burst-${index}@example.com` });
      expect(response.statusCode).toBe(201);
    }
    // Same client address, new e-mail address: still limited.
    const limited = await post(valid, { ip, email: 'burst-new@example.com' });
    expect(limited.statusCode).toBe(429);
    expect((limited.json() as ErrorBody).message).toMatch(/several messages in a short time/);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(CONTACT_RATE_LIMIT.windowMs / 1000);

    // The typed e-mail is not a key (anyone could type someone else's): the same e-mail from
    // other client addresses is not limited.
    for (let index = 0; index <= CONTACT_RATE_LIMIT.limit; index += 1) {
      expect((await post(valid, { email: 'burst-0@example.com' })).statusCode).toBe(201);
    }
  });

  it('is documented in the OpenAPI description', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/docs/json' });
    const spec = response.json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(Object.keys(spec.paths['/api/contact']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['201', '400', '429']),
    );
  });
});
