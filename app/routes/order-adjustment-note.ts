import { data } from 'react-router';
import { adjustmentNoteNumberSchema, ORDER_MESSAGES } from '../../contracts/orders.ts';
import { parseId } from '../../contracts/params.ts';
import { renderAdjustmentNotePdf } from '../../server/domain/invoice.ts';
import { pdfDownload } from '../lib/document-response.ts';
import { domainFailureOf } from '../lib/form-errors.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/order-adjustment-note';

/**
 * `/orders/:id/adjustment-notes/:noteNumber.pdf`: a refund's adjustment note for the order's
 * owner and the shop's staff; anyone else, a missing order or another order's note: 404.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const id = parseId(params.id);
  const noteNumber = adjustmentNoteNumberSchema.safeParse(params.noteNumber);
  if (id === null || !noteNumber.success) throw data(ORDER_MESSAGES.adjustmentNoteNotFound, { status: 404 });
  const { orders, shop } = context.get(shopContext);
  try {
    const { order, note } = await orders.adjustmentNoteOf(
      { userId: viewer.user.id, staff: viewer.user.role === 'admin' },
      id,
      noteNumber.data,
    );
    return pdfDownload(
      await renderAdjustmentNotePdf(order, note, shop),
      `${note.noteNumber}-adjustment-note-${order.orderNumber}.pdf`,
    );
  } catch (error) {
    if (domainFailureOf(error)?.status === 404) throw data(ORDER_MESSAGES.adjustmentNoteNotFound, { status: 404 });
    throw error;
  }
}
