import { data, Form } from 'react-router';
import { preferencesSchema } from '../../contracts/account.ts';
import { CONTACT_METHOD_LABELS, CONTACT_METHODS } from '../../contracts/account-fields.ts';
import { AccountLayout } from '../components/account/account-layout.tsx';
import { FormMessage, SubmitButton } from '../components/account/form-field.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/preferences';

/** E-mail and contact preferences (spec-decisions "Catalogue and pages"), guarded. `{ preferences }`. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  return { preferences: await context.get(shopContext).preferences.get(viewer.user.id) };
}

type ActionResult = { status: 'saved' | 'failed'; message: string };

/** Saves the three preferences with `PUT /api/preferences`'s schema. Unticked boxes are "no". */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(request, context);
  const form = await readUrlEncodedForm(request, 4 * 1024);
  const parsed = preferencesSchema.safeParse({
    marketingEmails: form.get('marketingEmails') === 'on',
    orderUpdateEmails: form.get('orderUpdateEmails') === 'on',
    preferredContactMethod: form.get('preferredContactMethod') ?? '',
  });
  if (!parsed.success) {
    return data<ActionResult>(
      { status: 'failed', message: parsed.error.issues[0]?.message ?? 'Failed to save preferences' },
      { status: 400 },
    );
  }
  try {
    await context.get(shopContext).preferences.save(viewer.user.id, parsed.data);
  } catch (error) {
    console.error('Saving preferences failed', error);
    return data<ActionResult>({ status: 'failed', message: 'Failed to save preferences' }, { status: 500 });
  }
  return data<ActionResult>({ status: 'saved', message: 'Preferences saved' });
}

export default function PreferencesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { preferences } = loaderData;
  const result = actionData as ActionResult | undefined;
  return (
    <AccountLayout title="Preferences" intro="Choose which e-mails we send you and how we should get in touch.">
      <div className="max-w-2xl space-y-4">
        {result ? (
          <FormMessage tone={result.status === 'saved' ? 'success' : 'error'}>{result.message}</FormMessage>
        ) : null}
        <Form method="post" className="space-y-6 rounded-lg border border-gray-200 bg-white p-5 sm:p-6">
          <fieldset>
            <legend className="font-display text-2xl font-bold uppercase">E-mails</legend>
            <label className="mt-3 flex items-start gap-3">
              <input
                type="checkbox"
                name="orderUpdateEmails"
                defaultChecked={preferences.orderUpdateEmails}
                className="mt-0.5 h-5 w-5 shrink-0 accent-navy-800"
              />
              <span>
                <span className="font-semibold">Order updates</span>
                <span className="block text-sm text-gray-700">Confirmation, dispatch and delivery of your orders.</span>
              </span>
            </label>
            <label className="mt-3 flex items-start gap-3">
              <input
                type="checkbox"
                name="marketingEmails"
                defaultChecked={preferences.marketingEmails}
                className="mt-0.5 h-5 w-5 shrink-0 accent-navy-800"
              />
              <span>
                <span className="font-semibold">Deals and new arrivals</span>
                <span className="block text-sm text-gray-700">
                  At most one e-mail a week. You can stop them at any time.
                </span>
              </span>
            </label>
          </fieldset>
          <fieldset>
            <legend className="font-display text-2xl font-bold uppercase">Preferred contact method</legend>
            <div className="mt-3 space-y-2">
              {CONTACT_METHODS.map((method) => (
                <label key={method} className="flex items-center gap-3">
                  <input
                    type="radio"
                    name="preferredContactMethod"
                    value={method}
                    defaultChecked={preferences.preferredContactMethod === method}
                    className="h-5 w-5 accent-navy-800"
                  />
                  {CONTACT_METHOD_LABELS[method]}
                </label>
              ))}
            </div>
          </fieldset>
          <SubmitButton busyLabel="Saving…">Save Preferences</SubmitButton>
        </Form>
      </div>
    </AccountLayout>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Preferences" message="Failed to fetch preferences" />;
}
