import { data, Form } from 'react-router';
import { SECOND_FACTOR_MESSAGES, secondFactorCodeBodySchema } from '../../contracts/second-factor.ts';
import { type FieldErrors, FormMessage, SubmitButton, TextField } from '../components/account/form-field.tsx';
import { AdminError, AdminLayout } from '../components/admin/admin-layout.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { domainFailureOf, fieldErrorsOf } from '../lib/form-errors.ts';
import { requestContext } from '../lib/request-context.ts';
import { requireAdmin } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import { useCorrectedErrors } from '../lib/use-corrected-errors.ts';
import type { Route } from './+types/admin-security';

/**
 * The signed-in staff member's two-step sign-in. Admin only.
 * `{ status: { enabled, recoveryCodesLeft }, setup: { secret, qrSvg } | null }` — `setup` while
 * one is begun and not yet turned on, so a wrong code or a reload shows the same QR code.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireAdmin(request, context);
  const { secondFactor } = context.get(shopContext);
  const [status, setup] = await Promise.all([
    secondFactor.status(viewer.user.id),
    secondFactor.pendingSetup(viewer.user.id),
  ]);
  return { status, setup: setup ? { secret: setup.secret, qrSvg: setup.qrSvg } : null };
}

type ActionResult =
  | { intent: string; message: string; errors: Record<string, string[]> }
  | { intent: string; done: string; recoveryCodes?: string[] };

const INTENTS = ['setup', 'enable', 'renew', 'disable'] as const;

/** setup → a secret to scan; enable/renew/disable take a code (renew and enable answer the recovery codes, once). */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireAdmin(request, context);
  const { secondFactor } = context.get(shopContext);
  const address = context.get(requestContext).clientAddress;
  const form = await readUrlEncodedForm(request, 4 * 1024);
  const intent = INTENTS.find((candidate) => candidate === form.get('intent'));
  if (!intent) return data<ActionResult>({ intent: '', message: 'Unknown action', errors: {} }, { status: 400 });
  try {
    if (intent === 'setup') {
      await secondFactor.beginSetup(viewer.user.id);
      return { intent, done: 'Scan the code with your authenticator app, then enter the code it shows.' };
    }
    const parsed = secondFactorCodeBodySchema.safeParse({ code: form.get('code') ?? '' });
    if (!parsed.success) {
      return data<ActionResult>(
        { intent, message: SECOND_FACTOR_MESSAGES.codeNeeded, errors: fieldErrorsOf(parsed.error) },
        { status: 400 },
      );
    }
    if (intent === 'enable') {
      const recoveryCodes = await secondFactor.enable(viewer.user.id, parsed.data.code, {
        address,
        sessionId: viewer.sessionId,
      });
      return { intent, done: 'Two-step sign-in is on.', recoveryCodes };
    }
    if (intent === 'renew') {
      const recoveryCodes = await secondFactor.renewRecoveryCodes(viewer.user.id, parsed.data.code, { address });
      return { intent, done: 'New recovery codes made: the old ones no longer work.', recoveryCodes };
    }
    await secondFactor.disable(viewer.user.id, parsed.data.code, { address, sessionId: viewer.sessionId });
    return { intent, done: 'Two-step sign-in is off.' };
  } catch (error) {
    const failure = domainFailureOf(error);
    if (!failure) throw error;
    return data<ActionResult>(
      { intent, message: failure.message, errors: failure.errors ?? {} },
      { status: failure.status },
    );
  }
}

function CodeForm({
  intent,
  label,
  busyLabel,
  tone = 'primary',
  errors,
  onChange,
}: {
  intent: 'enable' | 'renew' | 'disable';
  label: string;
  busyLabel: string;
  tone?: 'primary' | 'danger' | 'secondary';
  errors?: FieldErrors | undefined;
  onChange?: ((event: React.FormEvent<HTMLFormElement>) => void) | undefined;
}) {
  return (
    // Keyed by intent: React must not carry one form's typed code into the next form shown.
    <Form key={intent} method="post" className="mt-4 flex flex-wrap items-end gap-3" noValidate onChange={onChange}>
      <input type="hidden" name="intent" value={intent} />
      <TextField
        form={`second-factor-${intent}`}
        name="code"
        label={intent === 'enable' ? 'Code from your app' : 'Code from your app, or a recovery code'}
        autoComplete="one-time-code"
        inputMode={intent === 'enable' ? 'numeric' : 'text'}
        maxLength={20}
        required
        errors={errors}
        className="w-64"
      />
      <SubmitButton busyLabel={busyLabel} name="intent" value={intent} tone={tone}>
        {label}
      </SubmitButton>
    </Form>
  );
}

export default function AdminSecurity({ loaderData, actionData }: Route.ComponentProps) {
  const { status, setup } = loaderData;
  const result = actionData as ActionResult | undefined;
  const failed = result && 'message' in result ? result : undefined;
  const done = result && 'done' in result ? result : undefined;
  // The refused form's code error goes once a code is typed (issue 27 item 10), the banner with it.
  const code = useCorrectedErrors(failed?.errors, secondFactorCodeBodySchema);
  const errorsFor = (intent: string) => (failed?.intent === intent ? code.errors : undefined);
  const onChangeFor = (intent: string) => (failed?.intent === intent ? code.onChange : undefined);
  return (
    <AdminLayout title="Sign-in security">
      <div className="max-w-2xl space-y-6">
        {failed && !code.allCorrected ? <FormMessage tone="error">{failed.message}</FormMessage> : null}
        {done ? <FormMessage tone="success">{done.done}</FormMessage> : null}
        {done?.recoveryCodes ? (
          <section aria-labelledby="recovery-codes" className="rounded-lg border border-accent bg-amber-50 p-5">
            <h2 id="recovery-codes" className="font-display text-xl font-bold uppercase">
              Your recovery codes
            </h2>
            <p className="mt-2 text-sm text-gray-800">
              Keep these somewhere safe, away from your phone. Each one signs you in once if you lose your
              authenticator. They are shown only now.
            </p>
            <ul className="mt-3 grid grid-cols-2 gap-2 font-mono text-base sm:grid-cols-3">
              {done.recoveryCodes.map((code) => (
                <li key={code} className="whitespace-nowrap rounded bg-white px-2 py-1 text-center">
                  {code}
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <section aria-labelledby="two-step" className="rounded-lg border border-gray-200 bg-white p-5">
          <h2 id="two-step" className="font-display text-xl font-bold uppercase">
            Two-step sign-in
          </h2>
          {status.enabled ? (
            <>
              <p className="mt-2 text-sm text-gray-800">
                <strong>On.</strong> Every sign-in to this account asks for a code from your authenticator app after the
                password. Recovery codes left: <strong className="tabular">{status.recoveryCodesLeft}</strong>.
              </p>
              <h3 className="mt-5 font-semibold">New recovery codes</h3>
              <CodeForm
                intent="renew"
                label="Make new codes"
                busyLabel="Making…"
                tone="secondary"
                errors={errorsFor('renew')}
                onChange={onChangeFor('renew')}
              />
              <h3 className="mt-5 font-semibold">Turn off</h3>
              <CodeForm
                intent="disable"
                label="Turn off"
                busyLabel="Turning off…"
                tone="danger"
                errors={errorsFor('disable')}
                onChange={onChangeFor('disable')}
              />
            </>
          ) : setup ? (
            <>
              <p className="mt-2 text-sm text-gray-800">
                Scan this code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…), or
                type the key by hand. Then enter the 6-digit code the app shows.
              </p>
              <div className="mt-4 flex flex-wrap items-center gap-5">
                <div
                  role="img"
                  aria-label="QR code for your authenticator app"
                  className="h-48 w-48 rounded border border-gray-200 bg-white p-1"
                  // The SVG is drawn on this server from the otpauth URI (qrcode), never from input.
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: server-made QR code SVG
                  dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
                />
                <p className="text-sm">
                  Key: <code className="break-all rounded bg-gray-100 px-1 py-0.5 font-mono">{setup.secret}</code>
                </p>
              </div>
              <CodeForm
                intent="enable"
                label="Turn on"
                busyLabel="Checking…"
                errors={errorsFor('enable')}
                onChange={onChangeFor('enable')}
              />
            </>
          ) : (
            <>
              <p className="mt-2 text-sm text-gray-800">
                <strong>Off.</strong> A staff account can see every order and change the catalogue: with two-step
                sign-in, a stolen password alone is not enough to sign in.
              </p>
              <Form method="post" className="mt-4">
                <input type="hidden" name="intent" value="setup" />
                <SubmitButton busyLabel="Starting…" name="intent" value="setup">
                  Set up two-step sign-in
                </SubmitButton>
              </Form>
            </>
          )}
        </section>
      </div>
    </AdminLayout>
  );
}

export function ErrorBoundary() {
  return <AdminError failure="Sign-in security could not be loaded. Please try again." />;
}
