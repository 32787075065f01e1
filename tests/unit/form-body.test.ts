import { isRouteErrorResponse } from 'react-router';
import { describe, expect, it } from 'vitest';
import { readUrlEncodedForm } from '../../app/lib/form-body.ts';

/*
 * Page forms are read by readUrlEncodedForm, not by the server's body parser, so the server's
 * NUL check never sees them: a U+0000 in any field (PostgreSQL text cannot hold one) would
 * reach the database as a 500 (issue 21 review: a return's rejection reason). The form reader
 * refuses it with a 400 for every page form at once.
 */
const post = (body: string) =>
  new Request('http://shop.test/admin/returns', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });

async function refusal(body: string): Promise<number | null> {
  try {
    await readUrlEncodedForm(post(body), 8 * 1024);
    return null;
  } catch (error) {
    // React Router's `data(…)` thrown from an action: its status is in `init`.
    if (isRouteErrorResponse(error)) return error.status;
    return (error as { init?: { status?: number } })?.init?.status ?? -1;
  }
}

describe('readUrlEncodedForm', () => {
  it('reads an ordinary form', async () => {
    const form = await readUrlEncodedForm(post('reason=Too+small&intent=reject'), 8 * 1024);
    expect(form.get('reason')).toBe('Too small');
  });

  it('refuses a NUL character in a value or a name with 400', async () => {
    expect(await refusal('reason=x%00&intent=reject')).toBe(400);
    expect(await refusal('rea%00son=x')).toBe(400);
  });
});
