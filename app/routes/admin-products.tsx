import { data, Form, Link } from 'react-router';
import { formatDollars } from '../../contracts/money.ts';
import { parseId } from '../../contracts/params.ts';
import { stockFormValueSchema } from '../../contracts/product-admin.ts';
import { FormMessage, inputClass, SubmitButton } from '../components/account/form-field.tsx';
import { AdminError, AdminLayout } from '../components/admin/admin-layout.tsx';
import { CsvImport } from '../components/admin/csv-import.tsx';
import { PageLinks } from '../components/page-links.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { domainFailureOf } from '../lib/form-errors.ts';
import { pageUrl } from '../lib/page-url.ts';
import { actorOf, requireAdmin } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/admin-products';

/** Every product, active or not, searchable by name or SKU (`?q=`, `?page=`). Admin only. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  const url = pageUrl(request);
  const q = (url.searchParams.get('q') ?? '').slice(0, 200);
  const page = Math.min(10_000, Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1));
  return { ...(await context.get(shopContext).catalogAdmin.listProducts({ q, page })), q };
}

type ActionResult = { ok: boolean; message: string };

/** `intent=activate|deactivate` or `intent=stock` with `stockQuantity`, for `productId`. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireAdmin(request, context);
  const form = await readUrlEncodedForm(request, 4 * 1024);
  const id = parseId(form.get('productId'));
  if (id === null) throw data('Unknown product', { status: 400 });
  const { catalogAdmin } = context.get(shopContext);
  try {
    const intent = form.get('intent');
    if (intent === 'activate' || intent === 'deactivate') {
      await catalogAdmin.setActive(id, intent === 'activate', actorOf(viewer));
      return data<ActionResult>({
        ok: true,
        message: intent === 'activate' ? 'Product shown in the shop.' : 'Product hidden from the shop.',
      });
    }
    if (intent === 'stock') {
      const stock = stockFormValueSchema.safeParse(form.get('stockQuantity'));
      if (!stock.success) {
        return data<ActionResult>({ ok: false, message: stock.error.issues[0]!.message }, { status: 400 });
      }
      await catalogAdmin.setStock(id, stock.data, actorOf(viewer));
      return data<ActionResult>({ ok: true, message: `Stock set to ${stock.data}.` });
    }
  } catch (error) {
    const failure = domainFailureOf(error);
    if (!failure) throw error;
    return data<ActionResult>({ ok: false, message: failure.message }, { status: failure.status });
  }
  throw data('Unknown action', { status: 400 });
}

export default function AdminProducts({ loaderData, actionData }: Route.ComponentProps) {
  const { items, q, page, totalPages, totalCount } = loaderData;
  const result = actionData as ActionResult | undefined;
  const pageLink = (target: number) => `?${new URLSearchParams({ ...(q ? { q } : {}), page: String(target) })}`;
  return (
    <AdminLayout
      title="Products"
      actions={
        <div className="flex flex-wrap gap-2">
          <a
            href="/api/admin/products/export.csv"
            className="rounded border border-navy-800 px-4 py-2.5 font-semibold text-navy-800 hover:bg-navy-100"
          >
            Export CSV
          </a>
          <Link to="/upload" className="rounded bg-accent px-4 py-2.5 font-semibold text-ink hover:bg-accent-dark">
            Create Product
          </Link>
        </div>
      }
    >
      <Form method="get" className="flex flex-wrap items-end gap-3 rounded-lg border border-gray-200 bg-white p-4">
        <div className="min-w-64 flex-1">
          <label htmlFor="admin-products-q" className="block text-sm font-semibold">
            Name or SKU
          </label>
          <input id="admin-products-q" name="q" defaultValue={q} className={inputClass(false)} />
        </div>
        <button type="submit" className="rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark">
          Search
        </button>
      </Form>
      <CsvImport />
      {result ? (
        <div className="mt-4">
          <FormMessage tone={result.ok ? 'success' : 'error'}>{result.message}</FormMessage>
        </div>
      ) : null}
      <p className="mt-4 text-sm text-gray-700">{totalCount} products</p>
      {/* relative: the rows' visually hidden labels are positioned absolutely; without a positioned
          scroll box they escape it and widen the whole page on a phone. */}
      <div className="relative mt-2 rounded-lg border border-gray-200 bg-white sm:overflow-x-auto">
        <table className="stacked-table w-full text-sm sm:min-w-[56rem]">
          <thead className="border-b border-gray-200 text-left text-xs uppercase tracking-wide text-gray-600">
            <tr>
              <th scope="col" className="px-4 py-3">
                Name
              </th>
              <th scope="col" className="px-2 py-3">
                SKU
              </th>
              <th scope="col" className="px-2 py-3">
                Category
              </th>
              <th scope="col" className="px-2 py-3">
                Brand
              </th>
              <th scope="col" className="px-2 py-3 text-right">
                Price
              </th>
              <th scope="col" className="px-2 py-3">
                Stock
              </th>
              <th scope="col" className="px-4 py-3">
                Shown
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {items.map((product) => (
              <tr key={product.id} className={product.isActive ? undefined : 'bg-gray-50 text-gray-600'}>
                <td className="stacked-table-lead px-4 py-2">
                  <Link to={`/admin/products/${product.id}`} className="font-semibold text-navy-800 hover:underline">
                    {product.name}
                  </Link>
                </td>
                <td data-label="SKU" className="px-2 py-2">
                  <span>{product.sku}</span>
                </td>
                <td data-label="Category" className="px-2 py-2">
                  <span>{product.category}</span>
                </td>
                <td data-label="Brand" className="px-2 py-2">
                  <span>{product.brand}</span>
                </td>
                <td data-label="Price" className="tabular px-2 py-2 text-right">
                  <span>
                    {formatDollars(product.discountPrice ?? product.price)}
                    {product.discountPrice !== null ? (
                      <s className="ml-1 text-xs text-gray-500">{formatDollars(product.price)}</s>
                    ) : null}
                  </span>
                </td>
                <td data-label="Stock" className="px-2 py-2">
                  <Form method="post" preventScrollReset className="flex items-center gap-1">
                    <input type="hidden" name="productId" value={product.id} />
                    <label className="sr-only" htmlFor={`stock-${product.id}`}>
                      Stock of {product.name}
                    </label>
                    <input
                      id={`stock-${product.id}`}
                      name="stockQuantity"
                      type="number"
                      min={0}
                      step={1}
                      required
                      defaultValue={product.stockQuantity}
                      className="w-20 rounded border border-gray-400 px-2 py-1"
                    />
                    <SubmitButton name="intent" value="stock" tone="secondary" size="sm" busyLabel="…">
                      Set
                    </SubmitButton>
                  </Form>
                </td>
                <td data-label="Shown" className="px-4 py-2">
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="productId" value={product.id} />
                    <SubmitButton
                      name="intent"
                      value={product.isActive ? 'deactivate' : 'activate'}
                      tone="secondary"
                      size="sm"
                      busyLabel="…"
                    >
                      {product.isActive ? 'Hide' : 'Show'}
                    </SubmitButton>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <PageLinks page={page} totalPages={totalPages} hrefFor={pageLink} />
    </AdminLayout>
  );
}

export function ErrorBoundary() {
  return <AdminError failure="The products could not be loaded. Please try again." />;
}
