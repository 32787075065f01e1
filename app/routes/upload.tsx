import { AdminError, AdminLayout } from '../components/admin/admin-layout.tsx';
import { EMPTY_PRODUCT, ProductForm } from '../components/admin/product-form.tsx';
import { requireAdmin } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/upload';

/** The create-product form (spec §2 `/upload`), for the shop's staff only. `{ choices }`. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  return { choices: await context.get(shopContext).catalogAdmin.formChoices() };
}

export default function UploadPage({ loaderData }: Route.ComponentProps) {
  return (
    <AdminLayout title="Create Product">
      <ProductForm choices={loaderData.choices} initial={EMPTY_PRODUCT} />
    </AdminLayout>
  );
}

export function ErrorBoundary() {
  return <AdminError failure="The product form could not be loaded. Please try again." />;
}
