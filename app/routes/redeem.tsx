import { data, redirect } from 'react-router';
import { redemptionSchema } from '../../contracts/membership-input.ts';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { domainFailureOf } from '../lib/form-errors.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/redeem';

/** A GET of /redeem has nothing to show: back to the redemption list. */
export function loader() {
  return redirect('/redemption');
}

/**
 * Redeems `productId` × `quantity` with points, shipped to the shopper's default address
 * (`POST /api/redemptions`' rules). Success goes to the new order; a problem comes back as
 * `{ message }` for the product page to show.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(request, context);
  const form = await readUrlEncodedForm(request, 2 * 1024);
  const { addresses, orders } = context.get(shopContext);
  const saved = await addresses.list(viewer.user.id);
  const address = saved.find((candidate) => candidate.isDefault) ?? saved[0];
  if (!address) return data({ message: 'Add a delivery address first, then redeem.' }, { status: 400 });
  const parsed = redemptionSchema.safeParse({
    productId: Number(form.get('productId')),
    quantity: Number(form.get('quantity') ?? '1'),
    shippingAddress: address,
  });
  if (!parsed.success) return data({ message: parsed.error.issues[0]?.message ?? 'Unknown product' }, { status: 400 });
  try {
    const order = await orders.redeem(viewer.user.id, viewer.user.email, parsed.data);
    return redirect(`/orders/${order.id}`);
  } catch (error) {
    const failure = domainFailureOf(error);
    if (!failure) throw error;
    return data({ message: failure.message }, { status: failure.status });
  }
}
