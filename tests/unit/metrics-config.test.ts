import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { bearerMatches } from '../../server/metrics.ts';

describe('metrics and graceful-stop settings', () => {
  it('serves no metrics and gives a 5 s grace unless told otherwise', () => {
    const config = loadConfig({});
    expect(config.metrics).toEqual({ token: undefined, port: undefined });
    expect(config.shutdownGraceMs).toBe(5_000);
    expect(config.paymentLatencyMs).toBe(0);
  });

  it('takes a token, a port and a grace', () => {
    const config = loadConfig({
      METRICS_TOKEN: 'a-long-enough-token',
      METRICS_PORT: '9464',
      SHUTDOWN_GRACE_SECONDS: '0.5',
    });
    expect(config.metrics).toEqual({ token: 'a-long-enough-token', port: 9464 });
    expect(config.shutdownGraceMs).toBe(500);
  });

  it.each([
    ['METRICS_TOKEN', 'short'],
    ['METRICS_PORT', '70000'],
    ['SHUTDOWN_GRACE_SECONDS', '-1'],
    ['PAYMENT_LATENCY_MS', 'slow'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('bearerMatches', () => {
  const token = 'metrics-token-0123456789';
  it('takes exactly `Bearer <token>`', () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    for (const header of [
      undefined,
      '',
      token,
      `bearer ${token}`,
      `Bearer ${token}x`,
      `Bearer ${token.slice(1)}`,
      'Bearer ',
    ]) {
      expect(bearerMatches(header, token)).toBe(false);
    }
  });
});
