import { useEffect } from 'react';
import { data, Form, isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { formatDollars } from '../../contracts/money.ts';
import { ORDER_MESSAGES, type Order, returnRequestSchema } from '../../contracts/orders.ts';
import { parseId } from '../../contracts/params.ts';
import { RETURN_WINDOW_DAYS } from '../../contracts/points.ts';
import { formatSydneyDay, formatSydneyMoment } from '../../contracts/sydney-dates.ts';
import { AccountLayout } from '../components/account/account-layout.tsx';
import { FormMessage, SubmitButton } from '../components/account/form-field.tsx';
import { OrderRefunds, refundSentence } from '../components/order-refunds.tsx';
import { OrderStatusBadge } from '../components/order-status-badge.tsx';
import { OrderTimeline } from '../components/order-timeline.tsx';
import { PostalAddress } from '../components/postal-address.tsx';
import { pullSavedCart } from '../lib/cart-sync.ts';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { domainFailureOf } from '../lib/form-errors.ts';
import { formatHours } from '../lib/opening-hours.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/order';

const DEFAULT_IMAGE = '/placeholder-product.svg';

function orderIdOf(params: { id?: string }): number {
  // A malformed id can never be an order: the same 'Order Not Found' as a missing one.
  const id = parseId(params.id);
  if (id === null) throw data(ORDER_MESSAGES.notFound, { status: 404 });
  return id;
}

/** One of the shopper's orders (spec §2, guarded); another shopper's or a missing one is 'Order Not Found'. `{ order }`. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  try {
    const { orders, shop } = context.get(shopContext);
    const id = orderIdOf(params);
    const [order, returnWindow] = await Promise.all([
      orders.getOrder(viewer.user.id, id),
      orders.returnWindow(viewer.user.id, id),
    ]);
    // A click & collect order says where to collect it and when the store is open (SHOP_HOURS).
    const store =
      order.fulfilment === 'collect'
        ? { name: shop.name, address: shop.address, phone: shop.phone, openingHours: shop.openingHours }
        : null;
    return { order, returnWindow, store };
  } catch (error) {
    if (domainFailureOf(error)?.status === 404) throw data(ORDER_MESSAGES.notFound, { status: 404 });
    throw error;
  }
}

type ActionResult =
  | { intent: 'reorder'; ok: true; added: string[]; unavailable: string[] }
  | { intent: 'cancel' | 'return'; ok: true; message: string }
  | { intent: string; ok: false; message: string };

/**
 * `intent=cancel` (Pending/Processing: stock back, refund), `intent=return` (Succeeded only:
 * a reason and a quantity per line), `intent=reorder` (available lines into the saved cart).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = requireViewer(request, context);
  const orderId = orderIdOf(params);
  const { orders } = context.get(shopContext);
  const form = await readUrlEncodedForm(request, 16 * 1024);
  const intent = form.get('intent') ?? '';
  try {
    if (intent === 'cancel') {
      const order = await orders.cancelOrder(orderId, { userId: viewer.user.id });
      return data<ActionResult>({
        intent,
        ok: true,
        message:
          order.pointsSpent > 0
            ? 'Order cancelled. Your points have been returned.'
            : order.paymentStatus === 'Refunded'
              ? 'Order cancelled. Your payment has been refunded in full.'
              : 'Order cancelled.',
      });
    }
    if (intent === 'reorder') {
      const result = await orders.reorder(viewer.user.id, orderId);
      return data<ActionResult>({ intent, ok: true, ...result });
    }
    if (intent === 'return') {
      // The ticked lines (`item`), each with its quantity (`qty-<line id>`, 1 … what was bought).
      const items = form
        .getAll('item')
        .map((id) => ({ orderItemId: Number(id), quantity: Number(form.get(`qty-${id}`)) }))
        .filter((item) => Number.isInteger(item.quantity) && item.quantity > 0);
      const parsed = returnRequestSchema.safeParse({ reason: form.get('reason') ?? '', items });
      if (!parsed.success) {
        return data<ActionResult>(
          { intent, ok: false, message: parsed.error.issues[0]?.message ?? 'Please check the return form' },
          { status: 400 },
        );
      }
      await orders.requestReturn(viewer.user.id, orderId, parsed.data);
      return data<ActionResult>({
        intent,
        ok: true,
        message: 'Return requested. We will e-mail you once we have looked at it.',
      });
    }
  } catch (error) {
    const failure = domainFailureOf(error);
    if (failure?.status === 404) throw data(ORDER_MESSAGES.notFound, { status: 404 });
    if (!failure) throw error;
    return data<ActionResult>({ intent, ok: false, message: failure.message }, { status: failure.status });
  }
  throw data('Unknown action', { status: 400 });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: loaderData ? `Order ${loaderData.order.orderNumber} | Harbour Tools` : 'Order | Harbour Tools' },
    { name: 'robots', content: 'noindex' },
  ];
}

export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, returnWindow, store } = loaderData;
  const result = actionData as ActionResult | undefined;
  const canCancel = order.status === 'Pending' || order.status === 'Processing';
  const canReturn = order.status === 'Succeeded' && order.returnStatus === null && returnWindow.open;
  // Past the return window the shop still mends faulty goods (consumer guarantees have no time limit).
  const windowPassed = order.status === 'Succeeded' && order.returnStatus === null && !returnWindow.open;

  useEffect(() => {
    // The reordered lines are in the account's saved cart: bring this browser's cart up to date.
    if (result?.intent === 'reorder' && result.ok) void pullSavedCart().catch(() => {});
  }, [result]);

  return (
    <AccountLayout
      title={`Order ${order.orderNumber}`}
      intro={<>Placed on {formatSydneyMoment(new Date(order.createdAt))}</>}
      actions={<OrderStatusBadge status={order.status} />}
    >
      <div className="space-y-6">
        {result ? <ActionOutcome result={result} /> : null}
        {order.returnStatus ? (
          <p
            className="rounded border-l-4 border-accent bg-white p-4 text-sm font-semibold"
            data-testid="return-status"
          >
            {order.returnStatus === 'Requested'
              ? 'Return requested'
              : order.returnStatus === 'Approved'
                ? 'Returned'
                : 'Return request declined'}
          </p>
        ) : null}

        <section
          aria-labelledby="order-details"
          className="grid gap-4 rounded-lg border border-gray-200 bg-white p-5 sm:grid-cols-2 sm:p-6"
        >
          <h2 id="order-details" className="sr-only">
            Order details
          </h2>
          <dl className="grid grid-cols-[9rem_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">
            <dt className="font-semibold text-gray-600">Order ID</dt>
            <dd>{order.id}</dd>
            <dt className="font-semibold text-gray-600">Order number</dt>
            <dd>{order.orderNumber}</dd>
            <dt className="font-semibold text-gray-600">Transaction ID</dt>
            <dd className="break-all">{order.transactionId ?? '—'}</dd>
            <dt className="font-semibold text-gray-600">Payment status</dt>
            <dd data-testid="payment-status">
              {order.paymentStatus}
              {refundSentence(order) ? <span className="block text-gray-700">{refundSentence(order)}</span> : null}
            </dd>
            <dt className="font-semibold text-gray-600">Paid with</dt>
            <dd>
              {order.pointsSpent > 0
                ? `${order.pointsSpent.toLocaleString('en-AU')} points`
                : order.cardLast4
                  ? `${order.cardBrand ?? 'Card'} ending ${order.cardLast4}`
                  : '—'}
            </dd>
          </dl>
          {store ? (
            <CollectFrom store={store} order={order} />
          ) : (
            <div>
              <h3 className="text-sm font-bold uppercase tracking-wide text-gray-600">Shipping address</h3>
              {order.shippingAddress ? (
                <PostalAddress address={order.shippingAddress} className="mt-1 text-sm not-italic leading-relaxed" />
              ) : (
                <p className="mt-1 text-sm text-gray-700">No shipping information available</p>
              )}
              {order.contactPhone ? (
                <p className="mt-1 text-sm text-gray-700">Courier contact phone: {order.contactPhone}</p>
              ) : null}
            </div>
          )}
        </section>

        <OrderTimeline order={order} />

        <OrderRefunds order={order} />

        <section aria-labelledby="order-items" className="rounded-lg border border-gray-200 bg-white">
          <h2 id="order-items" className="px-5 pt-5 font-display text-2xl font-bold uppercase">
            Items
          </h2>
          <div className="sm:overflow-x-auto">
            <table className="stacked-table mt-3 w-full text-sm sm:min-w-[32rem]">
              <thead className="border-b border-gray-200 text-left text-xs uppercase tracking-wide text-gray-600">
                <tr>
                  <th scope="col" className="px-5 py-2">
                    Product
                  </th>
                  {/* The invoice's columns: ex GST, the spec's unit price; the totals below carry the GST. */}
                  <th scope="col" className="px-2 py-2 text-right">
                    Price (ex GST)
                  </th>
                  <th scope="col" className="px-2 py-2 text-right">
                    Quantity
                  </th>
                  <th scope="col" className="px-5 py-2 text-right">
                    Total (ex GST)
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100">
                {order.items.map((item) => (
                  <tr key={item.id}>
                    <td className="stacked-table-lead px-5 py-3">
                      <div className="flex items-center gap-3">
                        <img
                          src={item.imageUrl ?? DEFAULT_IMAGE}
                          alt=""
                          width={56}
                          height={56}
                          className="h-14 w-14 shrink-0 rounded border border-gray-200 bg-white object-contain"
                          onError={(event) => {
                            event.currentTarget.src = DEFAULT_IMAGE;
                          }}
                        />
                        <span>
                          <Link to={`/product/${item.productId}`} className="font-semibold hover:underline">
                            {item.productName}
                          </Link>
                          {item.variantName ? (
                            <span className="block text-sm text-gray-800">{item.variantName}</span>
                          ) : null}
                          <span className="block text-xs text-gray-600">SKU {item.sku}</span>
                        </span>
                      </div>
                    </td>
                    <td data-label="Price (ex GST)" className="tabular px-2 py-3 text-right">
                      <span>{formatDollars(item.unitPrice)}</span>
                    </td>
                    <td data-label="Quantity" className="tabular px-2 py-3 text-right">
                      <span>{item.quantity}</span>
                    </td>
                    <td data-label="Total (ex GST)" className="tabular px-5 py-3 text-right font-semibold">
                      <span>{formatDollars(item.lineTotal)}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <dl className="tabular ml-auto max-w-xs space-y-1 px-5 py-4 text-sm">
            <div className="flex justify-between">
              <dt>Subtotal</dt>
              <dd data-testid="order-subtotal">{formatDollars(order.subtotal)}</dd>
            </div>
            <div className="flex justify-between">
              <dt>{order.gstFreeExport ? 'GST' : 'GST (10%)'}</dt>
              <dd data-testid="order-gst">
                {order.gstFreeExport ? 'GST-free export' : formatDollars(order.taxAmount)}
              </dd>
            </div>
            <div className="flex justify-between">
              <dt>{order.fulfilment === 'collect' ? 'Click & collect' : 'Shipping'}</dt>
              <dd data-testid="order-shipping">
                {order.shippingCost === 0 ? 'Free' : formatDollars(order.shippingCost)}
              </dd>
            </div>
            {order.shippingTaxAmount > 0 ? (
              <div className="flex justify-end text-xs text-gray-600">
                <dt className="sr-only">Delivery GST</dt>
                <dd data-testid="order-shipping-gst">includes GST of {formatDollars(order.shippingTaxAmount)}</dd>
              </div>
            ) : null}
            <div className="flex justify-between border-t border-gray-200 pt-2 text-base font-bold">
              <dt>Total</dt>
              <dd data-testid="order-grand-total">{formatDollars(order.total)}</dd>
            </div>
            {order.totalTaxAmount > 0 ? (
              <div className="flex justify-between text-xs text-gray-600">
                <dt>GST included in the total</dt>
                <dd data-testid="order-total-gst">{formatDollars(order.totalTaxAmount)}</dd>
              </div>
            ) : null}
          </dl>
        </section>

        <section aria-labelledby="order-actions" className="rounded-lg border border-gray-200 bg-white p-5 sm:p-6">
          <h2 id="order-actions" className="font-display text-2xl font-bold uppercase">
            Actions
          </h2>
          <div className="mt-4 flex flex-wrap gap-3">
            {/* A cancelled order has no tax invoice; its refund is on the adjustment note above. */}
            {order.status === 'Cancelled' ? null : (
              <a
                href={`/orders/${order.id}/invoice.pdf`}
                download={`${order.orderNumber}-tax-invoice.pdf`}
                className="rounded bg-accent px-6 py-3 font-semibold text-ink hover:bg-accent-dark"
              >
                Download Invoice
              </a>
            )}
            <Form method="post" preventScrollReset>
              <SubmitButton name="intent" value="reorder" tone="secondary" busyLabel="Adding to cart…">
                Reorder Items
              </SubmitButton>
            </Form>
            <Link
              to={`/contact?order=${encodeURIComponent(order.orderNumber)}`}
              className="rounded border border-navy-800 px-6 py-3 font-semibold text-navy-800 hover:bg-navy-100"
            >
              Contact Support
            </Link>
            {canCancel ? (
              <Form
                method="post"
                preventScrollReset
                onSubmit={(event) => {
                  const question =
                    order.pointsSpent > 0
                      ? 'Cancel this order? Your points will be returned.'
                      : 'Cancel this order? Your payment will be refunded in full.';
                  if (!window.confirm(question)) event.preventDefault();
                }}
              >
                <SubmitButton name="intent" value="cancel" tone="danger" busyLabel="Cancelling…">
                  Cancel Order
                </SubmitButton>
              </Form>
            ) : null}
          </div>
          {canReturn ? <ReturnForm order={order} returnsUntil={returnWindow.returnsUntil} /> : null}
          {windowPassed ? (
            <p
              className="mt-5 rounded border-l-4 border-accent bg-gray-50 p-4 text-sm"
              data-testid="return-window-passed"
            >
              {returnWindow.returnsUntil
                ? `Returns are accepted within ${RETURN_WINDOW_DAYS} days of delivery or collection; for this order that time ended on ${formatSydneyDay(new Date(returnWindow.returnsUntil))}.`
                : `Returns are accepted within ${RETURN_WINDOW_DAYS} days of delivery or collection.`}{' '}
              If something is faulty, use Contact Support and we will put it right: your consumer guarantee rights have
              no {RETURN_WINDOW_DAYS}-day limit.
            </p>
          ) : null}
        </section>
      </div>
    </AccountLayout>
  );
}

function ActionOutcome({ result }: { result: ActionResult }) {
  if (!result.ok) return <FormMessage tone="error">{result.message}</FormMessage>;
  if (result.intent === 'reorder' && 'added' in result) {
    return (
      <FormMessage tone={result.added.length > 0 ? 'success' : 'error'}>
        {result.added.length > 0
          ? `Added to your cart at today’s prices: ${result.added.join(', ')}.`
          : 'None of these items can be bought right now.'}
        {result.unavailable.length > 0 ? ` Not available: ${result.unavailable.join(', ')}.` : ''}{' '}
        {result.added.length > 0 ? (
          <Link to="/cart" className="underline">
            Go to your cart
          </Link>
        ) : null}
      </FormMessage>
    );
  }
  return <FormMessage tone="success">{'message' in result ? result.message : ''}</FormMessage>;
}

function ReturnForm({ order, returnsUntil }: { order: Order; returnsUntil: string | null }) {
  return (
    <details className="mt-5 rounded border border-gray-200 p-4">
      <summary className="cursor-pointer font-semibold text-navy-800">Initiate Return</summary>
      <Form method="post" preventScrollReset className="mt-4 space-y-4">
        {returnsUntil ? (
          <p className="text-sm text-gray-700">Returns are accepted until {formatSydneyDay(new Date(returnsUntil))}.</p>
        ) : null}
        <fieldset>
          <legend className="text-sm font-semibold">What are you returning?</legend>
          <ul className="mt-2 space-y-2">
            {order.items.map((item) => {
              const name = `${item.productName}${item.variantName ? ` (${item.variantName})` : ''}`;
              return (
                <li key={item.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-sm">
                  <label className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      name="item"
                      value={item.id}
                      defaultChecked
                      className="size-4 accent-navy-800"
                    />
                    <span>
                      <span className="sr-only">Return </span>
                      {name}
                    </span>
                  </label>
                  {/* What a line is returned in: 1 up to what was bought; leaving a line out is its box, not a 0. */}
                  <span className="flex items-center gap-2">
                    <label htmlFor={`return-qty-${item.id}`}>
                      Quantity<span className="sr-only"> of {name} to return</span>
                    </label>
                    <select
                      id={`return-qty-${item.id}`}
                      name={`qty-${item.id}`}
                      defaultValue={String(item.quantity)}
                      className="rounded border border-gray-400 px-2 py-1.5"
                    >
                      {Array.from({ length: item.quantity }, (_, index) => (
                        <option key={index + 1} value={index + 1}>
                          {index + 1}
                        </option>
                      ))}
                    </select>
                  </span>
                </li>
              );
            })}
          </ul>
        </fieldset>
        <div>
          <label htmlFor="return-reason" className="block text-sm font-semibold">
            Reason for the return
          </label>
          <textarea
            id="return-reason"
            name="reason"
            rows={3}
            maxLength={1000}
            required
            className="mt-1 block w-full rounded border border-gray-400 px-3 py-2"
          />
        </div>
        <SubmitButton name="intent" value="return" busyLabel="Sending…">
          Request Return
        </SubmitButton>
      </Form>
    </details>
  );
}

type Store = NonNullable<Route.ComponentProps['loaderData']['store']>;

/** Where a click & collect order waits, when the store is open and what to bring. */
function CollectFrom({ store, order }: { store: Store; order: Order }) {
  const { address } = store;
  const collected = Boolean(order.fulfilmentRecord?.collectedAt);
  return (
    <div data-testid="collect-from">
      <h3 className="text-sm font-bold uppercase tracking-wide text-gray-600">Click &amp; collect</h3>
      <p className="mt-1 text-sm leading-relaxed">
        {store.name}
        <br />
        {address.street}
        <br />
        {`${address.suburb} ${address.state} ${address.postcode}`}
      </p>
      <p className="mt-2 text-sm text-gray-700">
        {store.openingHours.map((entry) => `${entry.label} ${formatHours(entry)}`).join(' · ')}
      </p>
      {collected || order.status === 'Cancelled' ? null : (
        <p className="mt-2 text-sm">
          Bring your order number (<strong>{order.orderNumber}</strong>) and photo ID.{' '}
          {order.fulfilmentRecord?.readyAt ? 'Your order is ready.' : 'We will e-mail you when it is ready.'}
        </p>
      )}
      {order.contactPhone ? <p className="mt-1 text-sm text-gray-700">Contact phone: {order.contactPhone}</p> : null}
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 text-center">
      <title>{`${missing ? 'Order Not Found' : 'Error Loading Order'} | Harbour Tools`}</title>
      <meta name="robots" content="noindex" />
      <h1 className="font-display text-3xl font-bold uppercase">
        {missing ? 'Order Not Found' : 'Error Loading Order'}
      </h1>
      <p role="alert" className="mt-3 text-gray-700">
        {missing ? 'The requested order could not be found' : 'Failed to load order details'}
      </p>
      <Link
        to="/orders"
        className="mt-6 inline-block rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark"
      >
        Back to My Orders
      </Link>
    </section>
  );
}
