import { data, useRevalidator } from 'react-router';
import { parseId } from '../../contracts/params.ts';
import { AdminError, AdminLayout } from '../components/admin/admin-layout.tsx';
import { ProductForm, type ProductFormValues } from '../components/admin/product-form.tsx';
import { domainFailureOf } from '../lib/form-errors.ts';
import { requireAdmin } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/admin-product';

/** Edit a product with the create form and schema; manage its pictures. Admin only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  const id = parseId(params.id);
  if (id === null) throw data('Not found', { status: 404 });
  const { catalogAdmin } = context.get(shopContext);
  try {
    const [product, choices] = await Promise.all([catalogAdmin.getProductForEdit(id), catalogAdmin.formChoices()]);
    return { product, choices };
  } catch (error) {
    if (domainFailureOf(error)?.status === 404) throw data('Not found', { status: 404 });
    throw error;
  }
}

export default function AdminProduct({ loaderData }: Route.ComponentProps) {
  const { product, choices } = loaderData;
  const revalidator = useRevalidator();
  const initial: ProductFormValues = {
    id: product.id,
    name: product.name,
    sku: product.sku,
    description: product.description,
    tagLine: product.tagLine ?? '',
    brandId: String(product.brandId),
    categoryId: String(product.categoryId),
    subcategoryId: String(product.subcategoryId),
    specifications: product.specifications,
    price: String(product.price),
    discountPrice: product.discountPrice === null ? '' : String(product.discountPrice),
    stockQuantity: String(product.stockQuantity),
    weight: product.weight === null ? '' : String(product.weight),
    dimensions: product.dimensions ?? '',
    warrantyPeriod: product.warrantyPeriod ?? '',
    isFeatured: product.isFeatured,
    isActive: product.isActive,
    variants: product.variants.map((variant) => ({
      key: String(variant.id),
      id: variant.id,
      name: variant.name,
      sku: variant.sku,
      price: variant.price === null ? '' : String(variant.price),
      stockQuantity: String(variant.stockQuantity),
    })),
  };
  const pictureAction = async (url: string, method: 'DELETE' | 'POST') => {
    await fetch(url, { method });
    revalidator.revalidate();
  };
  /** Moves a picture one place earlier in the gallery (the main picture always shows first). */
  const moveEarlier = async (index: number) => {
    const ids = product.images.map((image) => image.id);
    [ids[index - 1], ids[index]] = [ids[index]!, ids[index - 1]!];
    await fetch(`/api/products/${product.id}/images/order`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ imageIds: ids }),
    });
    revalidator.revalidate();
  };
  return (
    <AdminLayout title={`Edit ${product.name}`}>
      <section aria-labelledby="pictures" className="mb-5 rounded-lg border border-gray-200 bg-white p-5">
        <h2 id="pictures" className="font-display text-xl font-bold uppercase">
          Pictures
        </h2>
        {product.images.length === 0 ? (
          <p className="mt-2 text-sm text-gray-700">No pictures yet: add some below.</p>
        ) : null}
        <ul className="mt-3 flex flex-wrap gap-4">
          {product.images.map((image, index) => (
            <li key={image.id} className="w-36 text-sm">
              <img
                src={image.imageUrl}
                alt={image.altText}
                className="h-36 w-36 rounded border border-gray-200 bg-white object-contain"
              />
              {image.isPrimary ? (
                <p className="mt-1 font-semibold">Main picture</p>
              ) : (
                <button
                  type="button"
                  onClick={() => pictureAction(`/api/products/${product.id}/images/${image.id}/primary`, 'POST')}
                  // Each picture has these buttons: the name says which picture (and keeps the visible words).
                  aria-label={`Make main: picture ${index + 1}`}
                  className="mt-1 font-semibold text-navy-800 underline"
                >
                  Make main
                </button>
              )}
              <button
                type="button"
                onClick={() => {
                  if (window.confirm('Delete this picture?'))
                    void pictureAction(`/api/products/${product.id}/images/${image.id}`, 'DELETE');
                }}
                aria-label={`Delete picture ${index + 1}`}
                className="mt-1 block font-semibold text-sale underline"
              >
                Delete
              </button>
              {index > 0 && !image.isPrimary ? (
                <button
                  type="button"
                  onClick={() => void moveEarlier(index)}
                  aria-label={`Move earlier: picture ${index + 1}`}
                  className="mt-1 block font-semibold text-navy-800 underline"
                >
                  Move earlier
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
      <ProductForm key={product.id} choices={choices} initial={initial} onSaved={() => revalidator.revalidate()} />
    </AdminLayout>
  );
}

export function ErrorBoundary() {
  return <AdminError failure="This product could not be loaded. Please try again." />;
}
