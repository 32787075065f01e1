import { data } from 'react-router';
import { parseId } from '../../contracts/params.ts';
import { renderInvoicePdf } from '../../server/domain/invoice.ts';
import { domainFailureOf } from '../lib/form-errors.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/order-invoice';

/** `/orders/:id/invoice.pdf`: the order's tax invoice for its owner (anyone else: 404). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const id = parseId(params.id);
  if (id === null) throw data('Order not found', { status: 404 });
  const { orders, shop } = context.get(shopContext);
  try {
    const order = await orders.getOrder(viewer.user.id, id);
    const pdf = await renderInvoicePdf(order, shop);
    return new Response(new Uint8Array(pdf), {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${order.orderNumber}-tax-invoice.pdf"`,
        'Cache-Control': 'private, no-store',
      },
    });
  } catch (error) {
    if (domainFailureOf(error)?.status === 404) throw data('Order not found', { status: 404 });
    throw error;
  }
}
