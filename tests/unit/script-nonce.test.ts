import { describe, expect, it } from 'vitest';
import { nextScriptNonce } from '../../server/plugins/security.ts';

describe('nextScriptNonce', () => {
  it('gives 16 fresh random bytes every time, across refills of its pool', () => {
    const nonces = Array.from({ length: 2_000 }, () => nextScriptNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
  });
});
