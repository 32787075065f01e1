import { data } from 'react-router';
import { parseId } from '../../contracts/params.ts';
import { renderInvoicePdf } from '../../server/domain/invoice.ts';
import { documentMissingPage, pdfDownload } from '../lib/document-response.ts';
import { domainFailureOf } from '../lib/form-errors.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/order-invoice';

/**
 * `/orders/:id/invoice.pdf`: the order's tax invoice for its owner (anyone else: 404). A
 * cancelled order has none: 409 with a page that says so and leads back to the order.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const id = parseId(params.id);
  if (id === null) throw data('Order not found', { status: 404 });
  const { orders, shop } = context.get(shopContext);
  try {
    const invoice = await orders.invoiceOf(viewer.user.id, id);
    return pdfDownload(await renderInvoicePdf(invoice, shop), `${invoice.order.orderNumber}-tax-invoice.pdf`);
  } catch (error) {
    const failure = domainFailureOf(error);
    if (failure?.status === 404) throw data('Order not found', { status: 404 });
    if (failure?.status === 409) {
      return documentMissingPage(409, 'No tax invoice', failure.message, {
        href: `/orders/${id}`,
        label: 'Back to the order',
      });
    }
    throw error;
  }
}
