import { data } from 'react-router';
import { shipOrderSchema } from '../../contracts/fulfilment.ts';
import type { Viewer } from '../../contracts/page-request.ts';
import { parseId } from '../../contracts/params.ts';
import type { ShopServices } from '../../server/services.ts';
import { domainFailureOf } from './form-errors.ts';
import { actorOf } from './session.server.ts';

export type FulfilmentResult = { ok: boolean; message: string; errors?: Partial<Record<string, string[]>> };

/**
 * The admin order page's fulfilment posts (issue 22): `intent=ship` (with `carrier`,
 * `trackingNumber`), `ready-to-collect`, `collected`, each with `orderId`. Null for any other
 * intent (the back office's own moves). A refused step is shown, not thrown.
 */
export async function handleFulfilmentAction(
  form: URLSearchParams,
  viewer: Viewer,
  fulfilment: ShopServices['fulfilment'],
): Promise<ReturnType<typeof data<FulfilmentResult>> | null> {
  const intent = form.get('intent');
  if (intent !== 'ship' && intent !== 'ready-to-collect' && intent !== 'collected') return null;
  const orderId = parseId(form.get('orderId'));
  if (orderId === null) throw data('Unknown record', { status: 400 });
  try {
    if (intent === 'ship') {
      const parsed = shipOrderSchema.safeParse({
        carrier: form.get('carrier') ?? undefined,
        trackingNumber: form.get('trackingNumber') ?? '',
      });
      if (!parsed.success) {
        const errors: Partial<Record<string, string[]>> = {};
        for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= [issue.message];
        return data({ ok: false, message: 'Please check the shipment details', errors }, { status: 400 });
      }
      await fulfilment.ship(orderId, parsed.data, actorOf(viewer));
      return data({ ok: true, message: 'Marked shipped. The customer has been e-mailed the tracking details.' });
    }
    if (intent === 'ready-to-collect') {
      await fulfilment.readyToCollect(orderId, actorOf(viewer));
      return data({ ok: true, message: 'Marked ready to collect. The customer has been e-mailed.' });
    }
    await fulfilment.collected(orderId, actorOf(viewer));
    return data({ ok: true, message: 'Marked collected: the order is complete.' });
  } catch (error) {
    const failure = domainFailureOf(error);
    if (!failure) throw error;
    return data({ ok: false, message: failure.message }, { status: failure.status });
  }
}
