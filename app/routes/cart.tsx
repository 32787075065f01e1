import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { centsToDollars, dollarsToCents, formatDollars } from '../../contracts/money.ts';
import type { CartQuote } from '../../contracts/orders.ts';
import { freeDeliveryShortfallCents, priceCart, type ShippingPlan } from '../../contracts/pricing.ts';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { Price } from '../components/price.tsx';
import { type Cart, cartLines, clearCart, removeLine, setLineQuantity, updateCart, useCart } from '../lib/cart.ts';
import { useCartSettled } from '../lib/cart-sync.ts';
import { formatIncGst } from '../lib/price-display.ts';
import { getViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/cart';

const DEFAULT_IMAGE = '/favicon.svg';

/**
 * The cart (spec §2). A signed-in shopper's saved cart is quoted and rendered on the server;
 * a signed-out shopper's lives in the browser and appears after hydration. Either way the
 * browser re-quotes the lines against today's prices and stock (`POST /api/cart/quote`).
 * `{ quote: CartQuote | null, plan }`: the member's plan, as Premium ships free (no free-delivery hint).
 */
export async function loader({ context }: Route.LoaderArgs): Promise<{ quote: CartQuote | null; plan: ShippingPlan }> {
  const viewer = getViewer(context);
  if (!viewer) return { quote: null, plan: null };
  const { cart, memberships } = context.get(shopContext);
  const [saved, plan] = await Promise.all([cart.get(viewer.user.id), memberships.planOf(viewer.user.id)]);
  return { quote: await cart.quote(saved), plan };
}

export function meta() {
  return [{ title: 'Your Cart | Harbour Tools' }, { name: 'robots', content: 'noindex' }];
}

type QuoteLine = CartQuote['lines'][number];

interface ShownLine {
  id: number;
  variantId: number | null;
  variantName: string | null;
  name: string;
  sku: string;
  image: string | null;
  unitPrice: number;
  originalPrice: number;
  quantity: number;
  /** Most the shopper can have now. */
  max: number;
  /** What is counted in the totals: the quantity, or what the shop still has. */
  sellable: number;
  problem: QuoteLine['problem'];
}

/** The browser's cart, re-quoted against today's prices and stock whenever it changes. */
function useQuotedCart(cart: Cart, enabled: boolean): { quote: CartQuote | null; failed: boolean } {
  const [quote, setQuote] = useState<CartQuote | null>(null);
  const [failed, setFailed] = useState(false);
  const key = JSON.stringify(cartLines(cart));
  useEffect(() => {
    if (!enabled) return;
    const items = JSON.parse(key) as ReturnType<typeof cartLines>;
    if (items.length === 0) {
      setQuote({ lines: [], subtotal: 0, taxAmount: 0, total: 0, totalQuantity: 0 });
      return;
    }
    const controller = new AbortController();
    fetch('/api/cart/quote', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
      signal: controller.signal,
    })
      .then(async (response) => {
        if (!response.ok) throw new Error(`quote answered ${response.status}`);
        setQuote((await response.json()) as CartQuote);
        setFailed(false);
      })
      .catch((error: unknown) => {
        if ((error as Error).name !== 'AbortError') setFailed(true);
      });
    return () => controller.abort();
  }, [key, enabled]);
  return { quote, failed };
}

/** A line's identity: the product and the chosen variant. */
function keyOf(line: { productId: number; variantId?: number | null }): string {
  return `${line.productId}:${line.variantId ?? 0}`;
}

function linesFromQuote(quote: CartQuote): ShownLine[] {
  return quote.lines.map((line) => ({
    id: line.productId,
    variantId: line.variantId,
    variantName: line.variantName,
    name: line.name,
    sku: line.sku,
    image: line.imageUrl,
    unitPrice: line.unitPrice,
    originalPrice: line.originalPrice,
    quantity: line.quantity,
    max: line.stockQuantity,
    sellable: line.availableQuantity,
    problem: line.problem,
  }));
}

function linesFromCart(cart: Cart, quote: CartQuote | null): ShownLine[] {
  const quoted = new Map(quote?.lines.map((line) => [keyOf(line), line]) ?? []);
  return cart.items.map((item) => {
    const line = quoted.get(keyOf({ productId: item.id, variantId: item.variantId }));
    return {
      id: item.id,
      variantId: item.variantId ?? null,
      variantName: line?.variantName ?? item.variantName ?? null,
      name: line?.name ?? item.name,
      sku: line?.sku ?? item.sku,
      image: line?.imageUrl ?? item.image,
      unitPrice: line?.unitPrice ?? item.price,
      originalPrice: line?.originalPrice ?? item.originalPrice,
      quantity: item.quantity,
      max: line ? line.stockQuantity : item.maxQuantity,
      sellable: line ? Math.min(item.quantity, line.stockQuantity) : item.quantity,
      problem: line && line.quantity === item.quantity ? line.problem : null,
    };
  });
}

export default function CartPage({ loaderData }: Route.ComponentProps) {
  const cart = useCart();
  const settled = useCartSettled();
  const signedIn = loaderData.quote !== null;
  // Until this page's cart is in step with the account, show what the server rendered.
  const live = settled || !signedIn;
  const { quote, failed } = useQuotedCart(cart, live);
  const lines = live ? linesFromCart(cart, quote) : linesFromQuote(loaderData.quote!);
  const totals = useMemo(
    () => priceCart(lines.map((line) => ({ unitPriceCents: dollarsToCents(line.unitPrice), quantity: line.sellable }))),
    [lines],
  );
  const loading = !signedIn && !settled;

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-10">
      <Breadcrumb items={[{ label: 'Cart' }]} />
      <h1 className="mt-4 font-display text-4xl font-bold uppercase">Your Cart</h1>
      {loading ? (
        <div aria-busy="true" className="mt-6 h-48 animate-pulse rounded-lg bg-gray-100" />
      ) : lines.length === 0 ? (
        <EmptyCart />
      ) : (
        <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
          <section aria-label="Cart items" className="rounded-lg border border-gray-200 bg-white">
            {failed ? (
              <p role="alert" className="border-b border-gray-200 bg-red-50 px-4 py-3 text-sm font-semibold">
                Today’s prices could not be checked. Please check your connection; prices are confirmed at checkout.
              </p>
            ) : null}
            <table className="w-full text-sm">
              <thead className="hidden border-b border-gray-200 text-left text-xs uppercase tracking-wide text-gray-600 sm:table-header-group">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Product
                  </th>
                  <th scope="col" className="px-2 py-3 text-right font-semibold">
                    Price (inc GST)
                  </th>
                  <th scope="col" className="px-2 py-3 text-center font-semibold">
                    Quantity
                  </th>
                  <th scope="col" className="px-2 py-3 text-right font-semibold">
                    Total (ex GST)
                  </th>
                  <th scope="col" className="px-4 py-3">
                    <span className="sr-only">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-200">
                {lines.map((line) => (
                  <CartRow
                    key={keyOf({ productId: line.id, variantId: line.variantId })}
                    line={line}
                    interactive={live}
                  />
                ))}
              </tbody>
            </table>
            <div className="flex flex-wrap items-center justify-between gap-3 border-t border-gray-200 px-4 py-3">
              <Link to="/products" className="text-sm font-semibold text-navy-800 underline underline-offset-2">
                Continue Shopping
              </Link>
              <button
                type="button"
                disabled={!live}
                onClick={() => updateCart(() => clearCart())}
                className="rounded border border-sale px-4 py-2 text-sm font-semibold text-sale hover:bg-red-50 disabled:opacity-60"
              >
                Clear Cart
              </button>
            </div>
          </section>
          <OrderSummary
            totals={totals}
            quantity={lines.reduce((sum, line) => sum + line.sellable, 0)}
            plan={loaderData.plan}
          />
        </div>
      )}
    </div>
  );
}

function EmptyCart() {
  return (
    <div className="mt-6 rounded-lg border border-dashed border-gray-300 bg-white p-10 text-center">
      <p className="font-display text-3xl font-bold uppercase">Your Cart is Empty</p>
      <p className="mt-2 text-gray-700">Find the tools for your next job and add them here.</p>
      <Link
        to="/products"
        className="mt-5 inline-block rounded bg-accent px-6 py-3 font-semibold text-ink hover:bg-accent-dark"
      >
        Continue Shopping
      </Link>
    </div>
  );
}

function CartRow({ line, interactive }: { line: ShownLine; interactive: boolean }) {
  const onSale = line.originalPrice > line.unitPrice;
  const problemTone = line.problem?.kind === 'price_changed' ? 'text-stock-low' : 'text-sale';
  return (
    <tr className="grid grid-cols-[4.5rem_minmax(0,1fr)_auto] gap-x-3 px-4 py-4 sm:table-row sm:px-0">
      <td className="row-span-3 sm:table-cell sm:py-4 sm:pl-4">
        <div className="flex items-start gap-3">
          <img
            src={line.image ?? DEFAULT_IMAGE}
            alt=""
            width={72}
            height={72}
            className="h-18 w-18 shrink-0 rounded border border-gray-200 bg-white object-contain"
            onError={(event) => {
              event.currentTarget.src = DEFAULT_IMAGE;
            }}
          />
          <div className="hidden min-w-0 sm:block">
            <LineName line={line} problemTone={problemTone} />
          </div>
        </div>
      </td>
      <td className="col-span-2 sm:hidden">
        <LineName line={line} problemTone={problemTone} />
      </td>
      <td className="text-sm sm:table-cell sm:px-2 sm:py-4 sm:text-right">
        <span className="sr-only sm:hidden">Price </span>
        {/* The unit price inc GST, the ex-GST figure under it (spec-decisions "Money"). */}
        <Price exGst={line.unitPrice} size="line" onSale={onSale} align="end-from-sm" />
        {onSale ? (
          <s className="tabular block text-xs text-gray-500">
            <span className="sr-only">Was </span>
            {formatIncGst(line.originalPrice)}
          </s>
        ) : null}
      </td>
      <td className="sm:table-cell sm:px-2 sm:py-4 sm:text-center">
        <Stepper line={line} interactive={interactive} />
      </td>
      <td className="tabular col-start-2 font-semibold sm:table-cell sm:px-2 sm:py-4 sm:text-right">
        {/* On a phone the column header is hidden: the line says what the figure is. */}
        <span className="whitespace-nowrap">
          <span className="font-normal text-gray-600 sm:hidden">Total </span>
          {formatDollars(centsToDollars(dollarsToCents(line.unitPrice) * line.sellable))}
          {/* The spec's line total is ex GST; the Order Summary adds GST once for the order. */}
          <span className="ml-1 text-xs font-normal text-gray-600 sm:ml-0 sm:block">ex GST</span>
        </span>
      </td>
      <td className="col-start-3 text-right sm:table-cell sm:py-4 sm:pr-4">
        <button
          type="button"
          disabled={!interactive}
          aria-label={`Remove ${line.name}`}
          onClick={() => updateCart((current) => removeLine(current, line.id, line.variantId))}
          className="rounded p-2 text-gray-600 hover:bg-red-50 hover:text-sale disabled:opacity-50"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-5 w-5"
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
          >
            <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
          </svg>
        </button>
      </td>
    </tr>
  );
}

function LineName({ line, problemTone }: { line: ShownLine; problemTone: string }) {
  return (
    <>
      <Link to={`/product/${line.id}`} className="line-clamp-2 font-semibold text-ink hover:underline">
        {line.name}
      </Link>
      {line.variantName ? <p className="text-sm text-gray-800">{line.variantName}</p> : null}
      <p className="text-xs text-gray-600">SKU {line.sku}</p>
      {line.problem ? (
        <p className={`mt-1 text-sm font-semibold ${problemTone}`} data-testid="cart-line-problem">
          {line.problem.kind === 'price_changed'
            ? // The API's message quotes ex-GST prices; the shopper compares with the inc-GST headline.
              `Price changed from ${formatIncGst(line.problem.from)} to ${formatIncGst(line.problem.to)} (inc GST)`
            : line.problem.message}
        </p>
      ) : null}
    </>
  );
}

/** − quantity +: never above what the shop has; minus at 1 removes the line (spec §4). */
function Stepper({ line, interactive }: { line: ShownLine; interactive: boolean }) {
  const buttonClass =
    'flex h-10 w-10 items-center justify-center text-lg font-bold text-navy-900 hover:bg-gray-100 disabled:cursor-not-allowed disabled:text-gray-400';
  return (
    <div className="inline-flex items-stretch overflow-hidden rounded-md border border-gray-300 bg-white">
      <button
        type="button"
        disabled={!interactive}
        aria-label={line.quantity === 1 ? `Remove ${line.name}` : `One fewer ${line.name}`}
        onClick={() => updateCart((current) => setLineQuantity(current, line.id, line.quantity - 1, line.variantId))}
        className={buttonClass}
      >
        <span aria-hidden="true">−</span>
      </button>
      <output
        className="tabular flex w-10 items-center justify-center text-base font-semibold"
        aria-label={`Quantity of ${line.name}`}
      >
        {line.quantity}
      </output>
      <button
        type="button"
        disabled={!interactive || line.quantity >= line.max}
        aria-label={`One more ${line.name}`}
        onClick={() => updateCart((current) => setLineQuantity(current, line.id, line.quantity + 1, line.variantId))}
        className={buttonClass}
      >
        <span aria-hidden="true">+</span>
      </button>
    </div>
  );
}

function OrderSummary({
  totals,
  quantity,
  plan,
}: {
  totals: ReturnType<typeof priceCart>;
  quantity: number;
  plan: ShippingPlan;
}) {
  // The threshold is on the ex-GST subtotal (spec-decisions "Money"); Premium ships free, so no hint.
  const shortfall = quantity > 0 ? freeDeliveryShortfallCents(totals.subtotalCents, plan) : 0;
  return (
    <aside
      aria-labelledby="order-summary"
      className="rounded-lg border border-gray-200 bg-white p-5 lg:sticky lg:top-4"
    >
      <h2 id="order-summary" className="font-display text-2xl font-bold uppercase">
        Order Summary
      </h2>
      <dl className="tabular mt-4 space-y-2 text-sm">
        <div className="flex justify-between">
          <dt>
            Subtotal ({quantity} {quantity === 1 ? 'item' : 'items'})
          </dt>
          <dd data-testid="cart-subtotal">{formatDollars(centsToDollars(totals.subtotalCents))}</dd>
        </div>
        <div className="flex justify-between">
          <dt>Shipping</dt>
          <dd className="text-gray-700">Calculated at checkout</dd>
        </div>
        <div className="flex justify-between">
          <dt>GST (10%)</dt>
          <dd data-testid="cart-gst">{formatDollars(centsToDollars(totals.gstCents))}</dd>
        </div>
        <div className="flex justify-between border-t border-gray-200 pt-3 text-lg font-bold">
          <dt>Total</dt>
          <dd data-testid="cart-total">{formatDollars(centsToDollars(totals.totalCents))}</dd>
        </div>
      </dl>
      {shortfall > 0 ? (
        <p
          className="mt-4 rounded border border-accent bg-accent/15 px-3 py-2 text-sm font-semibold text-ink"
          data-testid="free-delivery-hint"
        >
          Add <span className="tabular">{formatDollars(centsToDollars(shortfall))}</span> more (before GST) for free
          delivery
        </p>
      ) : null}
      {quantity > 0 ? (
        <Link
          to="/checkout"
          className="mt-5 block rounded bg-accent px-6 py-3 text-center font-bold uppercase tracking-wide text-ink hover:bg-accent-dark"
        >
          Proceed to Checkout
        </Link>
      ) : (
        <p className="mt-5 rounded bg-gray-100 px-4 py-3 text-center text-sm font-semibold text-gray-700">
          Nothing in your cart can be bought right now.
        </p>
      )}
      <Link
        to="/products"
        className="mt-3 block text-center text-sm font-semibold text-navy-800 underline underline-offset-2"
      >
        Continue Shopping
      </Link>
    </aside>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Your Cart" message="We could not load your cart. Please try again." />;
}
