import { data } from 'react-router';
import type { Viewer } from '../../contracts/page-request.ts';
import { parseId } from '../../contracts/params.ts';
import type { ShopServices } from '../../server/services.ts';
import { domainFailureOf } from './form-errors.ts';
import { actorOf } from './session.server.ts';

const STATUSES = ['Pending', 'Processing', 'Succeeded', 'Cancelled'] as const;

export type BackOfficeResult = { ok: boolean; message: string };

/**
 * The back office's form posts: `intent=move` (with `orderId`, `status`), `approve-return`,
 * `reject-return` (with `returnId`, `reason`). A refused move is shown, not thrown.
 */
export async function handleBackOfficeAction(
  form: URLSearchParams,
  viewer: Viewer,
  backOffice: ShopServices['backOffice'],
): Promise<ReturnType<typeof data<BackOfficeResult>>> {
  const intent = form.get('intent');
  const idOf = (name: string) => {
    const id = parseId(form.get(name));
    if (id === null) throw data('Unknown record', { status: 400 });
    return id;
  };
  try {
    if (intent === 'move') {
      const status = STATUSES.find((value) => value === form.get('status'));
      if (!status) throw data('Unknown status', { status: 400 });
      await backOffice.moveOrder(idOf('orderId'), status, actorOf(viewer));
      return data({ ok: true, message: `Order moved to ${status}. The customer has been e-mailed.` });
    }
    if (intent === 'approve-return') {
      await backOffice.approveReturn(idOf('returnId'), actorOf(viewer));
      return data({
        ok: true,
        message: 'Return approved: stock is back and the refund is on its way. The customer has been e-mailed.',
      });
    }
    if (intent === 'reject-return') {
      const reason = (form.get('reason') ?? '').trim().slice(0, 1000);
      if (!reason) return data({ ok: false, message: 'Please give the customer a reason' }, { status: 400 });
      await backOffice.rejectReturn(idOf('returnId'), reason, actorOf(viewer));
      return data({ ok: true, message: 'Return rejected. The customer has been e-mailed the reason.' });
    }
  } catch (error) {
    const failure = domainFailureOf(error);
    if (!failure) throw error;
    return data({ ok: false, message: failure.message }, { status: failure.status });
  }
  throw data('Unknown action', { status: 400 });
}
