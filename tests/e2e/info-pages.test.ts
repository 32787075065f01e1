import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MAP_ERRORS } from '../../app/lib/google-maps.ts';
import { FLAT_SHIPPING_CENTS, FREE_SHIPPING_THRESHOLD_CENTS, GST_RATE } from '../../contracts/pricing.ts';
import { injectAxe } from './axe.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';

const baseUrl = inject('baseUrl');

/** The demo store of server/config.ts. */
const STORE = {
  street: '14 Boundary Lane',
  suburbLine: 'Silverwater NSW 2128',
  phone: '(02) 9000 0000',
  email: 'hello@harbourtools.example',
  latitude: -33.8356,
  longitude: 151.0466,
};

const INFO_PAGES = ['/shipping-info', '/contact', '/create-your-kit', '/store-locations'];

async function html(path: string): Promise<string> {
  const response = await fetch(`${baseUrl}${path}`);
  expect(response.status, path).toBe(200);
  return response.text();
}

/** Waits until React has hydrated the page, so clicks go through React rather than the browser alone. */
async function waitForHydration(page: Page): Promise<void> {
  // hydrateRoot attaches React's fiber to each element it adopts from the server HTML.
  await page.waitForFunction(() => {
    const main = document.querySelector('main');
    return main !== null && Object.keys(main).some((key) => key.startsWith('__reactFiber'));
  });
}

/** A contact form field by its id; its label is checked once in its own test. */
function field(page: Page, name: string) {
  return page.locator(`#contact-${name}`);
}

function formatDollars(cents: number): string {
  return `$${(cents / 100).toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** axe-core's findings on this page's own content; the site header and footer have their own tests. */
async function axeViolations(page: Page): Promise<string[]> {
  await injectAxe(page);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown) => Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run({ exclude: [['body > header'], ['body > footer']] });
    return result.violations as { id: string; impact: string; nodes: { target: string[] }[] }[];
  });
  return violations.map(
    (violation) =>
      `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}

describe('shop information pages', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe('/shipping-info', () => {
    it('renders the shipping and GST rules and worked examples from the shop constants on the server', async () => {
      // React separates adjacent text with comments; they are not part of what a shopper reads.
      const body = (await html('/shipping-info')).replaceAll('<!-- -->', '');
      const threshold = formatDollars(FREE_SHIPPING_THRESHOLD_CENTS).replace('.00', '');
      expect(body).toContain('<title>Shipping &amp; Delivery | Harbour Tools</title>');
      expect(body).toMatch(new RegExp(`on orders over <strong[^>]*>\\${threshold}</strong>`));
      expect(body).toContain(`${formatDollars(FLAT_SHIPPING_CENTS).replace('.00', '')} flat rate`);
      expect(body).toContain(`GST ${GST_RATE * 100}%`);
      // The worked examples, computed here independently: gst = round(subtotal × rate); shipping free over the threshold.
      const expected = [45_00, FREE_SHIPPING_THRESHOLD_CENTS, FREE_SHIPPING_THRESHOLD_CENTS + 1, 249_00].map(
        (subtotal) => {
          const gst = Math.round(subtotal * GST_RATE);
          const shipping = subtotal > FREE_SHIPPING_THRESHOLD_CENTS ? 0 : FLAT_SHIPPING_CENTS;
          return [
            formatDollars(subtotal),
            formatDollars(gst),
            shipping === 0 ? 'Free' : formatDollars(shipping),
            formatDollars(subtotal + gst + shipping),
          ];
        },
      );
      const tbody = body.match(/<tbody[^>]*>(.*?)<\/tbody>/s)?.[1] ?? '';
      const rows = [...tbody.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((row) =>
        [...(row[1] ?? '').matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/gs)].map((cell) =>
          (cell[1] ?? '').replace(/<[^>]+>/g, ''),
        ),
      );
      expect(rows).toEqual(expected);
      expect(body).toContain(STORE.street);
      expect(body).toContain('8:00–17:00');
    });
  });

  describe('/contact', () => {
    it('shows the store’s details and hours in the server HTML', async () => {
      const body = await html('/contact');
      for (const text of [STORE.street, STORE.suburbLine, STORE.phone, STORE.email, '8:00–17:00', '9:00–16:00']) {
        expect(body).toContain(text);
      }
      expect(body).toContain('<title>Contact Us | Harbour Tools</title>');
      expect(body).toMatch(/<meta name="description" content="[^"]+"/);
      expect(body).toContain('"@type":"HardwareStore"');
    });

    it('prefills the order number and subject from ?order=, ignoring a value that is not an order number', async () => {
      const body = await html('/contact?order=HT-100042');
      expect(body).toMatch(/id="contact-orderNumber"[^>]*value="HT-100042"/);
      expect(body).toMatch(/id="contact-subject"[^>]*value="Question about order HT-100042"/);
      const ignored = await html('/contact?order=%3Cscript%3E');
      expect(ignored).toMatch(/id="contact-orderNumber"[^>]*value=""/);
    });

    it('labels every field, marking the optional ones', async () => {
      const page = await browser.newPage();
      await page.goto(`${baseUrl}/contact`);
      for (const [id, name] of [
        ['name', 'Name'],
        ['email', 'Email'],
        ['phone', 'Phone (optional)'],
        ['orderNumber', 'Order number (optional)'],
        ['subject', 'Subject'],
        ['message', 'Message'],
      ] as const) {
        const byName = page.getByRole('textbox', { name, exact: true });
        expect(await byName.getAttribute('id'), name).toBe(`contact-${id}`);
      }
      await page.close();
    });

    it('sends a message with JavaScript: success message with its reference, no page reload', async () => {
      const page = await browser.newPage();
      const errors = watchPageErrors(page);
      await page.goto(`${baseUrl}/contact?order=HT-7`);
      await waitForHydration(page);
      await page.evaluate(() => {
        (window as { notReloaded?: boolean }).notReloaded = true;
      });
      await field(page, 'name').fill('Jo Sparky');
      await field(page, 'email').fill('jo.sparky@example.com');
      await field(page, 'message').fill('Is the order ready to collect from the trade counter?');
      await page.getByRole('button', { name: 'Send message' }).click();
      const heading = page.getByRole('heading', { name: 'Message sent' });
      await heading.waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Message sent');
      const text = await page.getByRole('status').filter({ has: heading }).textContent();
      expect(text).toMatch(/Thanks, Jo Sparky\. We have your message \(reference #\d+\)/);
      expect(text).toContain('jo.sparky@example.com');
      expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('keeps everything typed and shows each problem next to its field', async () => {
      const page = await browser.newPage();
      await page.goto(`${baseUrl}/contact`);
      await waitForHydration(page);
      await field(page, 'name').fill('Jo Sparky');
      await field(page, 'email').fill('jo@');
      await field(page, 'phone').fill('0412 345 678');
      await field(page, 'subject').fill('Ladder sizes');
      await field(page, 'message').fill('Too short');
      await page.getByRole('button', { name: 'Send message' }).click();

      const summary = page.getByRole('alert');
      await summary.waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
      expect(await summary.textContent()).toContain('Email: Please enter a valid email address, e.g. name@example.com');

      const email = field(page, 'email');
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await email.getAttribute('aria-describedby')) ?? '';
      expect(await page.locator(`#${describedBy}`).textContent()).toBe(
        'Please enter a valid email address, e.g. name@example.com',
      );
      const message = field(page, 'message');
      const messageErrorId = (await message.getAttribute('aria-describedby'))
        ?.split(' ')
        .find((id) => id.endsWith('-error'));
      expect(await page.locator(`#${messageErrorId}`).textContent()).toBe(
        'Please tell us a little more (at least 10 characters)',
      );
      // Nothing typed is lost, and valid fields are not marked.
      expect(await field(page, 'name').inputValue()).toBe('Jo Sparky');
      expect(await email.inputValue()).toBe('jo@');
      expect(await field(page, 'phone').inputValue()).toBe('0412 345 678');
      expect(await field(page, 'subject').inputValue()).toBe('Ladder sizes');
      expect(await message.inputValue()).toBe('Too short');
      expect(await field(page, 'name').getAttribute('aria-invalid')).toBeNull();

      // Fixing the fields sends the message.
      await email.fill('jo@example.com');
      await message.fill('Which ladder reaches a 3.6 m ceiling?');
      await page.getByRole('button', { name: 'Send message' }).click();
      await page.getByRole('heading', { name: 'Message sent' }).waitFor();
      await page.close();
    });

    describe('without JavaScript', () => {
      let context: BrowserContext;
      beforeAll(async () => {
        context = await browser.newContext({ javaScriptEnabled: false });
      });
      afterAll(async () => {
        await context?.close();
      });

      it('sends the message as a plain form post', async () => {
        const page = await context.newPage();
        await page.goto(`${baseUrl}/contact`);
        await field(page, 'name').fill('No Script');
        await field(page, 'email').fill('noscript@example.com');
        await field(page, 'subject').fill('Opening hours');
        await field(page, 'message').fill('Are you open on public holidays?');
        const [response] = await Promise.all([
          page.waitForResponse((candidate) => candidate.request().method() === 'POST'),
          page.getByRole('button', { name: 'Send message' }).click(),
        ]);
        expect(response.status()).toBe(200);
        await page.getByRole('heading', { name: 'Message sent' }).waitFor();
        expect(await page.getByText(/reference #\d+/).count()).toBe(1);
        await page.close();
      });

      it('answers 400 with the field errors and every value typed', async () => {
        const page = await context.newPage();
        await page.goto(`${baseUrl}/contact?order=HT-55`);
        await field(page, 'name').fill('');
        await field(page, 'email').fill('noscript@example.com');
        await field(page, 'message').fill('A message long enough to pass.');
        const [response] = await Promise.all([
          page.waitForResponse((candidate) => candidate.request().method() === 'POST'),
          page.getByRole('button', { name: 'Send message' }).click(),
        ]);
        expect(response.status()).toBe(400);
        await page.getByRole('alert').waitFor();
        expect(await page.locator('#contact-name-error').textContent()).toBe('Please enter your name');
        expect(await field(page, 'email').inputValue()).toBe('noscript@example.com');
        expect(await field(page, 'orderNumber').inputValue()).toBe('HT-55');
        expect(await field(page, 'subject').inputValue()).toBe('Question about order HT-55');
        expect(await field(page, 'message').inputValue()).toBe('A message long enough to pass.');
        await page.close();
      });
    });

    it('limits one client address to 5 messages in 15 minutes, keeping what they typed', async () => {
      const form = new URLSearchParams({
        name: 'Busy Bee',
        email: 'busy.bee@example.com',
        subject: 'Another question',
        message: 'One more question about drill bits.',
      }).toString();
      // From a loopback address of its own: the limit counts client addresses, and the browser
      // tests above sent from 127.0.0.1 (fetch cannot choose the address it sends from).
      const send = () =>
        new Promise<{ status: number; text: string }>((done, fail) => {
          const request = httpRequest(
            `${baseUrl}/contact`,
            {
              method: 'POST',
              localAddress: '127.0.0.57',
              agent: false,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
            },
            (response) => {
              const chunks: Buffer[] = [];
              response.on('data', (chunk: Buffer) => chunks.push(chunk));
              response.on('error', fail);
              response.on('end', () =>
                done({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
              );
            },
          );
          request.on('error', fail);
          request.end(form);
        });
      for (let index = 0; index < 5; index += 1) {
        expect((await send()).status).toBe(200);
      }
      const limited = await send();
      expect(limited.status).toBe(429);
      const body = limited.text;
      expect(body).toContain('You have sent several messages in a short time.');
      expect(body).toContain('One more question about drill bits.</textarea>');
    });

    it('refuses an oversize or non-form post with 4xx, never a 500', async () => {
      const big = await fetch(`${baseUrl}/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ name: 'A', email: 'a@example.com', subject: 'S', message: 'x'.repeat(200_000) }),
      });
      expect(big.status).toBe(413);
      expect(await big.text()).toContain('We could not read that message');
      const json = await fetch(`${baseUrl}/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'A' }),
      });
      expect(json.status).toBe(415);
    });
  });

  describe('/create-your-kit', () => {
    it('renders the countdown on the server', async () => {
      const body = await html('/create-your-kit');
      const launchAt = body.match(/<time dateTime="([^"]+)"/i)?.[1];
      expect(launchAt).toBeDefined();
      const days = Number(body.match(/data-unit="days"[^>]*>(\d+)</)?.[1]);
      expect(days).toBe(Math.floor((Date.parse(launchAt!) - Date.now()) / 86_400_000));
      expect(body).toContain('Launching in');
    });

    it('ticks every second, counting down to the launch date (30 d 12 h 45 min after first start)', async () => {
      const page = await browser.newPage();
      const errors = watchPageErrors(page);
      await page.goto(`${baseUrl}/create-your-kit`);
      await waitForHydration(page);
      // All four units read in one go, so a tick cannot fall between them.
      const read = () =>
        page.evaluate(() => {
          const unit = (name: string) => Number(document.querySelector(`[data-unit="${name}"]`)?.textContent);
          return ((unit('days') * 24 + unit('hours')) * 60 + unit('minutes')) * 60 + unit('seconds');
        });
      const launchAt = Date.parse((await page.locator('time').getAttribute('datetime')) ?? '');
      // Once the browser's clock has taken over from the server's first render, it shows the time left to the second.
      await expect.poll(async () => Math.abs((await read()) - (launchAt - Date.now()) / 1000)).toBeLessThanOrEqual(2);
      const first = await read();
      // The demo launch is 30 d 12 h 45 min after the shop's first start: the shared e2e server's
      // (which may have started many minutes before this file runs, on a slow machine).
      const demo = ((30 * 24 + 12) * 60 + 45) * 60;
      expect(first).toBeLessThanOrEqual(demo);
      expect(launchAt).toBeGreaterThanOrEqual(inject('serverStartedAt') + demo * 1000 - 1000);
      expect(launchAt).toBeLessThanOrEqual(inject('serverReadyAt') + demo * 1000 + 1000);

      const secondsBefore = await page.locator('[data-unit="seconds"]').textContent();
      await page.waitForTimeout(1100);
      expect(await page.locator('[data-unit="seconds"]').textContent()).not.toBe(secondsBefore);
      expect(await read()).toBeLessThan(first);

      // Screen readers get the time in words and are not interrupted every second.
      const timer = page.getByRole('timer');
      expect(await timer.getAttribute('aria-live')).not.toBe('polite');
      expect(await timer.locator('.sr-only').textContent()).toMatch(
        /^Launching in 30 days, 12 hours and \d+ minutes\.$/,
      );
      expect(await timer.locator('ol').getAttribute('aria-hidden')).toBe('true');
      expect(errors).toEqual([]);
      await page.close();
    });
  });

  describe('/store-locations without a Maps key', () => {
    it('shows the store, hours and JSON-LD in the server HTML', async () => {
      const body = await html('/store-locations');
      for (const text of [
        STORE.street,
        STORE.suburbLine,
        STORE.phone,
        'Mon–Fri',
        '8:00–17:00',
        '9:00–16:00',
        'Closed',
      ]) {
        expect(body).toContain(text);
      }
      const jsonLd = [...body.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
        (match) => JSON.parse(match[1]!) as { '@type': string; openingHoursSpecification?: unknown[] },
      );
      const store = jsonLd.find((object) => object['@type'] === 'HardwareStore');
      expect(store?.openingHoursSpecification).toHaveLength(2);
      expect(body).not.toContain('maps.googleapis.com');
    });

    it('offers a directions link to the store and makes no third-party request', async () => {
      const page = await browser.newPage();
      const errors = watchPageErrors(page);
      const foreign: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(baseUrl) && !request.url().startsWith('data:')) foreign.push(request.url());
      });
      await page.goto(`${baseUrl}/store-locations`, { waitUntil: 'networkidle' });
      await waitForHydration(page);
      const link = page.getByRole('link', { name: /Get directions/ });
      expect(await link.getAttribute('href')).toBe(
        `https://www.google.com/maps/dir/?api=1&destination=${STORE.latitude},${STORE.longitude}&travelmode=driving`,
      );
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toContain('noopener');
      await page.mouse.wheel(0, 2000);
      await page.waitForTimeout(300);
      expect(foreign).toEqual([]);
      expect(await page.locator('[data-testid="store-map"]').count()).toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    });
  });

  it.each(INFO_PAGES)('%s is axe-core clean and fits a 390 px phone', async (path) => {
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle' });
      await waitForHydration(page);
      expect(await axeViolations(page), `${path} at ${width}px`).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways at ${width}px`).toBeLessThanOrEqual(0);
      await page.close();
    }
  });

  it('is reachable from every page’s footer or header', async () => {
    const body = await html('/');
    for (const path of ['/contact', '/store-locations', '/shipping-info', '/create-your-kit']) {
      expect(body, path).toContain(`href="${path}"`);
    }
  });
});

/* ---------- The interactive map and a configured launch date, on a second server ---------- */

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * A stand-in for the Maps JavaScript API, served in place of the real script
 * (this machine is offline, and tests must not depend on Google): it records
 * what the page asks of it so the test can check zoom, markers and routes.
 */
const FAKE_MAPS_SCRIPT = `(() => {
  const params = new URL(document.currentScript.src).searchParams;
  const log = (window.__maps = { maps: [], markers: [], infoOpened: 0, routes: [], renderers: [], key: params.get('key') });
  class Map { constructor(element, options) { this.center = options.center; this.zoom = options.zoom; log.maps.push(this); element.dataset.fakeMap = 'ready'; }
    setCenter(center) { this.center = center; } setZoom(zoom) { this.zoom = zoom; } }
  class Marker { constructor(options) { this.title = options.title; this.position = options.position; this.onMap = true; log.markers.push(this); }
    setMap(map) { this.onMap = Boolean(map); } addListener() {} }
  class InfoWindow { constructor(options) { this.content = options.content; } open() { log.infoOpened += 1; } close() {} }
  class DirectionsService { async route(request) { log.routes.push(request);
    if (window.__failDirections) throw new Error('ZERO_RESULTS');
    return { routes: [{ legs: [{ distance: { text: '12.3 km' }, duration: { text: '18 mins' } }] }] }; } }
  class DirectionsRenderer { constructor() { this.onMap = true; log.renderers.push(this); } setMap(map) { this.onMap = Boolean(map); } setDirections(result) { this.directions = result; } }
  const libraries = { maps: { Map, InfoWindow }, marker: { Marker }, routes: { DirectionsService, DirectionsRenderer } };
  window.google = { maps: { importLibrary: async (name) => libraries[name] } };
  window[params.get('callback')]();
  // Like the real API, the key is refused a moment after the map was created.
  if (window.__refuseKey) setTimeout(() => {
    console.error('Google Maps JavaScript API error: RefererNotAllowedMapError https://developers.google.com/maps/documentation/javascript/error-messages');
    window.gm_authFailure();
  }, 50);
})();`;

interface FakeMapsLog {
  key: string;
  maps: { center: { lat: number; lng: number }; zoom: number }[];
  markers: { title: string; position: { lat: number; lng: number }; onMap: boolean }[];
  infoOpened: number;
  routes: { origin: { lat: number; lng: number }; destination: { lat: number; lng: number }; travelMode: string }[];
  renderers: { onMap: boolean; directions?: unknown }[];
}

describe('a shop configured with a Maps key and a past launch date', () => {
  let server: ChildProcess;
  let mapsBaseUrl: string;
  let dataDir: string;
  let browser: Browser;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'harbour-e2e-maps-'));
    const port = await freePort();
    mapsBaseUrl = `http://127.0.0.1:${port}`;
    let log = '';
    server = spawn(process.execPath, ['server/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        AUTO_SEED: 'false',
        LOG_LEVEL: 'warn',
        GOOGLE_MAPS_API_KEY: 'test-browser-key',
        // A configured launch date that has passed: the kit page must say so rather than count below zero.
        KIT_LAUNCH_DATE: '2024-03-01T09:00:00+11:00',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk) => {
      log += chunk;
    });
    server.stderr?.on('data', (chunk) => {
      log += chunk;
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`The second shop server exited:\n${log}`);
      const healthy = await fetch(`${mapsBaseUrl}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) break;
      if (Date.now() > deadline) throw new Error(`The second shop server did not start:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function openStorePage(
    options: { failScript?: boolean; refuseKey?: boolean; failDirections?: boolean; geolocation?: boolean } = {},
  ) {
    const context = await browser.newContext({
      ...(options.geolocation === false
        ? {}
        : { geolocation: { latitude: -33.87, longitude: 151.21 }, permissions: ['geolocation'] }),
    });
    await context.addInitScript(
      ({ refuseKey, failDirections }) => {
        const flags = window as unknown as Record<string, unknown>;
        flags.__refuseKey = refuseKey;
        flags.__failDirections = failDirections;
        const original = navigator.geolocation.getCurrentPosition.bind(navigator.geolocation);
        navigator.geolocation.getCurrentPosition = (success, error, positionOptions) => {
          flags.__geolocationOptions = positionOptions;
          original(success, error, positionOptions);
        };
      },
      { refuseKey: options.refuseKey ?? false, failDirections: options.failDirections ?? false },
    );
    const scriptRequests: string[] = [];
    let failScript = options.failScript ?? false;
    await context.route('https://maps.googleapis.com/**', async (route) => {
      scriptRequests.push(route.request().url());
      if (failScript) return route.abort();
      return route.fulfill({ contentType: 'text/javascript', body: FAKE_MAPS_SCRIPT });
    });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${mapsBaseUrl}/store-locations`);
    await waitForHydration(page);
    const mapsLog = () => page.evaluate(() => (window as unknown as { __maps: unknown }).__maps as FakeMapsLog);
    return {
      page,
      context,
      errors,
      scriptRequests,
      mapsLog,
      allowScript: () => {
        failScript = false;
      },
    };
  }

  it('uses KIT_LAUNCH_DATE when configured, and says so once it has passed', async () => {
    const response = await fetch(`${mapsBaseUrl}/create-your-kit`);
    const body = await response.text();
    expect(body).toMatch(/datetime="2024-02-29T22:00:00.000Z"/i);
    expect(body).toContain('Launch day is here');
    expect(body).toContain('The launch date has arrived.');
    expect(body).not.toContain('data-unit="days"');
  });

  it('loads the map at zoom 17 on the store, with its marker and info window', async () => {
    const { page, context, scriptRequests, mapsLog } = await openStorePage();
    await page.locator('[data-fake-map="ready"]').waitFor();
    expect(scriptRequests).toHaveLength(1);
    expect(scriptRequests[0]).toContain('key=test-browser-key');
    const log = await mapsLog();
    expect(log.maps[0]?.zoom).toBe(17);
    expect(log.maps[0]?.center).toEqual({ lat: STORE.latitude, lng: STORE.longitude });
    expect(log.markers.map((marker) => marker.title)).toEqual(['Harbour Tools']);
    expect(log.infoOpened).toBe(1);
    // Without a key the page shows a drawing; with one, the map replaces it but the directions link stays.
    expect(await page.getByRole('link', { name: /Get directions/ }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('shows my location and the driving route, then Reset View clears both', async () => {
    const { page, context, mapsLog, errors } = await openStorePage();
    await page.locator('[data-fake-map="ready"]').waitFor();
    await page.getByRole('button', { name: 'Show My Location & Directions' }).click();
    const summary = page.getByTestId('route-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toBe('Driving route: 12.3 km, about 18 mins');
    expect(
      await page.evaluate(() => (window as unknown as { __geolocationOptions: unknown }).__geolocationOptions),
    ).toEqual({
      enableHighAccuracy: true,
      timeout: 12_000,
      maximumAge: 60_000,
    });
    let log = await mapsLog();
    expect(log.routes).toEqual([
      {
        origin: { lat: -33.87, lng: 151.21 },
        destination: { lat: STORE.latitude, lng: STORE.longitude },
        travelMode: 'DRIVING',
      },
    ]);
    const you = log.markers.find((marker) => marker.title === 'Your Location');
    expect(you).toMatchObject({ position: { lat: -33.87, lng: 151.21 }, onMap: true });
    expect(log.renderers[0]?.directions).toBeDefined();

    await page.getByRole('button', { name: 'Reset View' }).click();
    await expect.poll(() => summary.count()).toBe(0);
    log = await mapsLog();
    expect(log.markers.find((marker) => marker.title === 'Your Location')?.onMap).toBe(false);
    expect(log.renderers[0]?.onMap).toBe(false);
    expect(log.renderers.at(-1)).toMatchObject({ onMap: true });
    expect(log.renderers.at(-1)?.directions).toBeUndefined();
    expect(log.maps[0]).toMatchObject({ zoom: 17, center: { lat: STORE.latitude, lng: STORE.longitude } });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says so when the location is refused or no route is found', async () => {
    const denied = await openStorePage({ geolocation: false });
    await denied.page.locator('[data-fake-map="ready"]').waitFor();
    await denied.page.getByRole('button', { name: 'Show My Location & Directions' }).click();
    await denied.page.getByText(MAP_ERRORS.locationFailed).waitFor();
    await denied.context.close();

    const noRoute = await openStorePage({ failDirections: true });
    await noRoute.page.locator('[data-fake-map="ready"]').waitFor();
    await noRoute.page.getByRole('button', { name: 'Show My Location & Directions' }).click();
    await noRoute.page.getByText(MAP_ERRORS.directionsFailed).waitFor();
    await noRoute.context.close();
  });

  it('reports a script that fails to load, and Try Again reloads it', async () => {
    const { page, context, scriptRequests, allowScript } = await openStorePage({ failScript: true });
    const alert = page.getByRole('alert');
    await alert.getByText(MAP_ERRORS.scriptFailed).waitFor();
    // Before the map is ready, directions cannot be drawn.
    await page.getByRole('button', { name: 'Show My Location & Directions' }).click();
    await page.getByText(MAP_ERRORS.mapNotReady).waitFor();
    allowScript();
    await alert.getByRole('button', { name: 'Try Again' }).click();
    await page.locator('[data-fake-map="ready"]').waitFor();
    expect(scriptRequests).toHaveLength(2);
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it('rewrites a refused key into plain words', async () => {
    const { page, context } = await openStorePage({ refuseKey: true });
    await page.getByText('The map is not enabled for this website address yet.', { exact: false }).waitFor();
    expect(await page.getByRole('alert').textContent()).not.toContain('RefererNotAllowedMapError');
    await context.close();
  });
});
