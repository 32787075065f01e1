import { data, Link } from 'react-router';
import { parseId } from '../../contracts/params.ts';
import { toProductCardItem } from '../../contracts/product-card.ts';
import { AccountLayout } from '../components/account/account-layout.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { ProductGrid } from '../components/product-grid.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { domainFailureOf } from '../lib/form-errors.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/wishlist';

/** The hearted products of the signed-in shopper (guarded). `{ products }`. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const products = await context.get(shopContext).wishlist.list(viewer.user.id);
  return { products: products.map(toProductCardItem) };
}

/**
 * Where the hearts post: `intent=add|remove` with `productId`, or `intent=merge` with
 * `productIds` (the hearts made before signing in, comma-separated).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(request, context);
  const { wishlist } = context.get(shopContext);
  const form = await readUrlEncodedForm(request, 8 * 1024);
  const intent = form.get('intent');
  const ids = (intent === 'merge' ? (form.get('productIds') ?? '') : (form.get('productId') ?? ''))
    .split(',')
    .map(parseId)
    .filter((id) => id !== null)
    .slice(0, 500);
  if (ids.length === 0 || !['add', 'remove', 'merge'].includes(intent ?? '')) {
    return data({ ok: false, message: 'Unknown product' }, { status: 400 });
  }
  try {
    if (intent === 'remove') await wishlist.remove(viewer.user.id, ids[0] ?? 0);
    else await wishlist.add(viewer.user.id, ids);
  } catch (error) {
    const failure = domainFailureOf(error);
    if (!failure) throw error;
    return data({ ok: false, message: failure.message }, { status: failure.status });
  }
  return { ok: true };
}

export default function WishlistPage({ loaderData }: Route.ComponentProps) {
  const { products } = loaderData;
  return (
    <AccountLayout
      title="Wishlist"
      intro={
        products.length > 0
          ? `${products.length} saved ${products.length === 1 ? 'product' : 'products'}. Tap a heart to take it off.`
          : undefined
      }
    >
      {products.length === 0 ? (
        <div className="rounded-lg border border-dashed border-gray-300 bg-white p-8 text-center">
          <p className="font-display text-2xl font-bold uppercase">Your wishlist is empty</p>
          <p className="mt-2 text-gray-700">Tap the heart on any product to save it here for later.</p>
          <Link
            to="/products"
            className="mt-4 inline-block rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark"
          >
            Browse products
          </Link>
        </div>
      ) : (
        <ProductGrid products={products} layout="with-sidebar" label="Wishlist" />
      )}
    </AccountLayout>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Wishlist" message="We could not load your wishlist. Please try again." />;
}
