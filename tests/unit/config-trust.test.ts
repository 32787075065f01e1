import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, startupWarnings } from '../../server/config.ts';

/*
 * Issue 21: TRUST_PROXY names how much of X-Forwarded-For to believe (a hop count or the
 * proxies' addresses, as Fastify's trustProxy), and the pages' origin never comes from the
 * request: PUBLIC_URL, else http://localhost:PORT, with a warning in production.
 */
describe('TRUST_PROXY', () => {
  it('is off by default and with false', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('takes a hop count', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  it('takes a list of proxy addresses and CIDR ranges', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1, fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
  });

  it.each(['true', 'yes', '10.0.0.0/33', '300.1.1.1', '1.5', '-1', 'proxy.internal'])('refuses %s', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });
});

describe('the public origin', () => {
  it('is PUBLIC_URL when set, else http://localhost:PORT', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://shop.example.com/' }).origin).toBe('https://shop.example.com');
    expect(loadConfig({ PORT: '4123' }).origin).toBe('http://localhost:4123');
  });

  it('warns at start in production without PUBLIC_URL, and only then', () => {
    expect(startupWarnings(loadConfig({ NODE_ENV: 'production' })).join('\n')).toMatch(/PUBLIC_URL/);
    expect(startupWarnings(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example.com' }))).toEqual([]);
    expect(startupWarnings(loadConfig({ NODE_ENV: 'development' }))).toEqual([]);
  });
});
