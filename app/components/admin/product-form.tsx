import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { readableFailureMessage } from '../../../contracts/field-errors.ts';
import { PRODUCT_MESSAGES, productInputSchema } from '../../../contracts/product-admin.ts';
import { FormMessage, inputClass } from '../account/form-field.tsx';

export interface ProductFormChoices {
  categories: { id: number; name: string }[];
  subcategories: { id: number; name: string; categoryId: number }[];
  brands: { id: number; name: string }[];
}

export interface ProductFormValues {
  id?: number;
  name: string;
  sku: string;
  description: string;
  tagLine: string;
  brandId: string;
  categoryId: string;
  subcategoryId: string;
  specifications: string;
  price: string;
  discountPrice: string;
  stockQuantity: string;
  weight: string;
  dimensions: string;
  warrantyPeriod: string;
  isFeatured: boolean;
  isActive: boolean;
  variants: { key: string; id?: number; name: string; sku: string; price: string; stockQuantity: string }[];
}

export const EMPTY_PRODUCT: ProductFormValues = {
  name: '',
  sku: '',
  description: '',
  tagLine: '',
  brandId: '',
  categoryId: '',
  subcategoryId: '',
  specifications: '{}',
  price: '',
  discountPrice: '',
  stockQuantity: '0',
  weight: '',
  dimensions: '',
  warrantyPeriod: '',
  isFeatured: false,
  isActive: true,
  variants: [],
};

type Errors = Partial<Record<string, string>>;

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'];

/** The JSON body of POST /api/products or PUT /api/products/:id from the form's text fields. */
function bodyOf(values: ProductFormValues) {
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
  return {
    name: values.name,
    sku: values.sku,
    description: values.description,
    tagLine: values.tagLine,
    brandId: number(values.brandId),
    categoryId: number(values.categoryId),
    subcategoryId: number(values.subcategoryId),
    specifications: values.specifications,
    price: number(values.price),
    discountPrice: number(values.discountPrice),
    stockQuantity: number(values.stockQuantity),
    weight: number(values.weight),
    dimensions: values.dimensions,
    warrantyPeriod: values.warrantyPeriod,
    isFeatured: values.isFeatured,
    isActive: values.isActive,
    images: [],
    variants: values.variants.map((variant) => ({
      ...(variant.id ? { id: variant.id } : {}),
      name: variant.name,
      sku: variant.sku,
      price: number(variant.price),
      stockQuantity: number(variant.stockQuantity),
    })),
  };
}

function errorsFrom(issues: { path: PropertyKey[]; message: string }[]): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || 'form';
    errors[key] ??= issue.message;
  }
  return errors;
}

/**
 * The create-product form of spec §2/§3/§5 (also the edit form): sections Basic Information,
 * Categories (a category enables and fills the subcategory choice), Specifications (JSON),
 * Pricing & Inventory, Shipping & Warranty, Images (several files, previews and count),
 * Product Variants. It posts JSON to the API, then uploads each picture (the first primary).
 */
export function ProductForm({
  choices,
  initial,
  onSaved,
}: {
  choices: ProductFormChoices;
  initial: ProductFormValues;
  onSaved?: (id: number) => void;
}) {
  const editing = initial.id !== undefined;
  const [values, setValues] = useState<ProductFormValues>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string; productId?: number } | null>(
    null,
  );
  const formId = useId();
  /** The created product as the shop stored it, fetched again after its pictures went up (spec §2 /upload). */
  const [created, setCreated] = useState<CreatedProduct | null>(null);

  const previews = useMemo(() => files.map((file) => ({ name: file.name, url: URL.createObjectURL(file) })), [files]);
  useEffect(
    () => () => {
      for (const preview of previews) URL.revokeObjectURL(preview.url);
    },
    [previews],
  );

  const subcategories = choices.subcategories.filter(
    (subcategory) => String(subcategory.categoryId) === values.categoryId,
  );
  /**
   * A field's error goes as soon as its value passes (not at the next submit), as the shop's
   * other forms' errors do once the shopper puts them right; none is added while typing.
   */
  const clearIfCorrected = (next: ProductFormValues, field: string) =>
    setErrors((current) => {
      if (!current[field]) return current;
      const parsed = productInputSchema.safeParse(bodyOf(next));
      if (!parsed.success && errorsFrom(parsed.error.issues)[field]) return current;
      const { [field]: _corrected, ...rest } = current;
      return rest;
    });
  const set =
    <K extends keyof ProductFormValues>(key: K) =>
    (value: ProductFormValues[K]) => {
      const next = { ...values, [key]: value };
      setValues(next);
      clearIfCorrected(next, key);
    };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const body = bodyOf(values);
    const parsed = productInputSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(errorsFrom(parsed.error.issues));
      setOutcome({ tone: 'error', message: 'Please check the highlighted fields.' });
      return;
    }
    setBusy(true);
    setErrors({});
    setOutcome(null);
    setCreated(null);
    try {
      const response = await fetch(editing ? `/api/products/${initial.id}` : '/api/products', {
        method: editing ? 'PUT' : 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const result = (await response.json().catch(() => ({}))) as {
        id?: number;
        message?: string;
        errors?: Record<string, string[]>;
      };
      if (!response.ok || !result.id) {
        setErrors(Object.fromEntries(Object.entries(result.errors ?? {}).map(([key, messages]) => [key, messages[0]])));
        setOutcome({
          tone: 'error',
          message: result.message ? readableFailureMessage(result.message, result.errors) : PRODUCT_MESSAGES.failed,
        });
        return;
      }
      const productId = result.id;
      for (const [index, file] of files.entries()) {
        const upload = new FormData();
        upload.append('productId', String(productId));
        upload.append('altText', values.name);
        upload.append('isPrimary', String(index === 0 && !editing));
        upload.append('file', file);
        const uploaded = await fetch('/api/products/images', { method: 'POST', body: upload });
        if (!uploaded.ok) {
          const failure = (await uploaded.json().catch(() => ({}))) as { message?: string };
          setOutcome({
            tone: 'error',
            message: `${PRODUCT_MESSAGES.imageFailed}: ${failure.message ?? file.name}`,
            productId,
          });
          return;
        }
      }
      setFiles([]);
      setOutcome({
        tone: 'success',
        message: editing ? PRODUCT_MESSAGES.updated : PRODUCT_MESSAGES.created,
        productId,
      });
      if (!editing) {
        setValues(EMPTY_PRODUCT);
        setCreated(await fetchCreated(productId));
      }
      onSaved?.(productId);
    } catch {
      setOutcome({ tone: 'error', message: PRODUCT_MESSAGES.failed });
    } finally {
      setBusy(false);
    }
  };

  const text = (
    key: keyof ProductFormValues & string,
    label: string,
    options: {
      required?: boolean;
      type?: string;
      step?: string;
      min?: string;
      hint?: string;
      wide?: boolean;
      maxLength?: number;
    } = {},
  ) => (
    <div className={options.wide ? 'sm:col-span-2' : undefined}>
      <label htmlFor={`${formId}-${key}`} className="block text-sm font-semibold">
        {label}
        {options.required ? (
          <span aria-hidden="true" className="text-sale">
            {' '}
            *
          </span>
        ) : (
          <span className="font-normal text-gray-600"> (optional)</span>
        )}
      </label>
      {options.hint ? <p className="text-xs text-gray-600">{options.hint}</p> : null}
      <input
        id={`${formId}-${key}`}
        name={key}
        type={options.type ?? 'text'}
        step={options.step}
        min={options.min}
        maxLength={options.maxLength}
        value={values[key] as string}
        onChange={(event) => set(key)(event.target.value as never)}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${formId}-${key}-error` : undefined}
        aria-required={options.required ? true : undefined}
        className={inputClass(Boolean(errors[key]))}
      />
      {errors[key] ? (
        <p id={`${formId}-${key}-error`} className="mt-1 text-sm font-semibold text-sale">
          {errors[key]}
        </p>
      ) : null}
    </div>
  );

  const select = (
    key: 'brandId' | 'categoryId' | 'subcategoryId',
    label: string,
    options: { id: number; name: string }[],
    disabled = false,
  ) => (
    <div>
      <label htmlFor={`${formId}-${key}`} className="block text-sm font-semibold">
        {label}
        <span aria-hidden="true" className="text-sale">
          {' '}
          *
        </span>
      </label>
      <select
        id={`${formId}-${key}`}
        name={key}
        value={values[key]}
        disabled={disabled}
        onChange={(event) => {
          const next = {
            ...values,
            [key]: event.target.value,
            ...(key === 'categoryId' ? { subcategoryId: '' } : {}),
          };
          setValues(next);
          clearIfCorrected(next, key);
        }}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${formId}-${key}-error` : undefined}
        className={inputClass(Boolean(errors[key]))}
      >
        <option value="">{disabled ? 'Choose a category first' : `Choose a ${label.toLowerCase()}`}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </select>
      {errors[key] ? (
        <p id={`${formId}-${key}-error`} className="mt-1 text-sm font-semibold text-sale">
          {errors[key]}
        </p>
      ) : null}
    </div>
  );

  const section = 'rounded-lg border border-gray-200 bg-white p-5';
  const legend = 'font-display text-xl font-bold uppercase';

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {outcome ? (
        <FormMessage tone={outcome.tone}>
          {outcome.message}{' '}
          {outcome.productId ? (
            <>
              <Link to={`/product/${outcome.productId}`} className="underline">
                View product
              </Link>{' '}
              ·{' '}
              <Link to={`/admin/products/${outcome.productId}`} className="underline">
                Edit
              </Link>
            </>
          ) : null}
        </FormMessage>
      ) : null}
      {created ? <CreatedPictures product={created} /> : null}
      <fieldset className={`${section} grid gap-4 sm:grid-cols-2`}>
        <legend className={legend}>Basic Information</legend>
        {text('name', 'Product name', { required: true, maxLength: 200, wide: true })}
        {text('sku', 'SKU', { required: true, maxLength: 64 })}
        {text('tagLine', 'Tag line', { maxLength: 200 })}
        <div className="sm:col-span-2">
          <label htmlFor={`${formId}-description`} className="block text-sm font-semibold">
            Description
            <span aria-hidden="true" className="text-sale">
              {' '}
              *
            </span>
          </label>
          <p className="text-xs text-gray-600">One paragraph per line.</p>
          <textarea
            id={`${formId}-description`}
            rows={5}
            value={values.description}
            onChange={(event) => set('description')(event.target.value)}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errors.description ? `${formId}-description-error` : undefined}
            className={inputClass(Boolean(errors.description))}
          />
          {errors.description ? (
            <p id={`${formId}-description-error`} className="mt-1 text-sm font-semibold text-sale">
              {errors.description}
            </p>
          ) : null}
        </div>
      </fieldset>
      <fieldset className={`${section} grid gap-4 sm:grid-cols-3`}>
        <legend className={legend}>Categories</legend>
        {select('brandId', 'Brand', choices.brands)}
        {select('categoryId', 'Category', choices.categories)}
        {select('subcategoryId', 'Subcategory', subcategories, values.categoryId === '')}
      </fieldset>
      <fieldset className={section}>
        <legend className={legend}>Specifications</legend>
        <label htmlFor={`${formId}-specifications`} className="block text-sm font-semibold">
          Specifications (JSON)
        </label>
        <p className="text-xs text-gray-600">
          Names and values in the order they should show, e.g. {'{"Voltage": "18 V", "Chuck": "13 mm"}'}
        </p>
        <textarea
          id={`${formId}-specifications`}
          rows={5}
          spellCheck={false}
          value={values.specifications}
          onChange={(event) => set('specifications')(event.target.value)}
          aria-invalid={errors.specifications ? true : undefined}
          aria-describedby={errors.specifications ? `${formId}-specifications-error` : undefined}
          className={`${inputClass(Boolean(errors.specifications))} font-mono text-sm`}
        />
        {errors.specifications ? (
          <p id={`${formId}-specifications-error`} className="mt-1 text-sm font-semibold text-sale">
            {errors.specifications}
          </p>
        ) : null}
      </fieldset>
      <fieldset className={`${section} grid gap-4 sm:grid-cols-3`}>
        <legend className={legend}>Pricing &amp; Inventory</legend>
        {text('price', 'Price ($, excl. GST)', { required: true, type: 'number', step: '0.01', min: '0' })}
        {text('discountPrice', 'Discount price ($)', { type: 'number', step: '0.01', min: '0' })}
        {text('stockQuantity', 'Stock quantity', { required: true, type: 'number', step: '1', min: '0' })}
        <label className="flex items-center gap-3 text-sm font-semibold">
          <input
            type="checkbox"
            checked={values.isFeatured}
            onChange={(event) => set('isFeatured')(event.target.checked)}
            className="h-5 w-5 accent-navy-800"
          />
          Featured
        </label>
        <label className="flex items-center gap-3 text-sm font-semibold">
          <input
            type="checkbox"
            checked={values.isActive}
            onChange={(event) => set('isActive')(event.target.checked)}
            className="h-5 w-5 accent-navy-800"
          />
          Active (shown in the shop)
        </label>
      </fieldset>
      <fieldset className={`${section} grid gap-4 sm:grid-cols-3`}>
        <legend className={legend}>Shipping &amp; Warranty</legend>
        {text('weight', 'Weight (kg)', { type: 'number', step: '0.01', min: '0' })}
        {text('dimensions', 'Dimensions (LxWxH)', { maxLength: 100, hint: 'e.g. 30 x 20 x 10 cm' })}
        {text('warrantyPeriod', 'Warranty period', { maxLength: 100, hint: 'e.g. 5 years' })}
      </fieldset>
      <fieldset className={section}>
        <legend className={legend}>Images</legend>
        <label htmlFor={`${formId}-images`} className="block text-sm font-semibold">
          Pictures (JPEG, PNG, WebP or AVIF, up to 10 MB each){editing ? '' : '; the first becomes the main picture'}
        </label>
        <input
          id={`${formId}-images`}
          type="file"
          multiple
          accept={IMAGE_TYPES.join(',')}
          onChange={(event) =>
            setFiles([...(event.target.files ?? [])].filter((file) => IMAGE_TYPES.includes(file.type)))
          }
          className="mt-2 block text-sm"
        />
        <p className="mt-2 text-sm text-gray-700" aria-live="polite">
          {files.length === 0
            ? 'No pictures chosen'
            : `${files.length} ${files.length === 1 ? 'picture' : 'pictures'} chosen`}
        </p>
        {previews.length > 0 ? (
          <ul className="mt-3 flex flex-wrap gap-3">
            {previews.map((preview) => (
              <li key={preview.url}>
                <img
                  src={preview.url}
                  alt={`Preview of ${preview.name}`}
                  className="h-24 w-24 rounded border border-gray-200 object-cover"
                />
              </li>
            ))}
          </ul>
        ) : null}
      </fieldset>
      <fieldset className={section}>
        <legend className={legend}>Product Variants</legend>
        {values.variants.length === 0 ? (
          <p className="text-sm text-gray-700">No variants: the product is sold as it is.</p>
        ) : null}
        <ul className="space-y-3">
          {values.variants.map((variant, index) => {
            const setVariant = (field: 'name' | 'sku' | 'price' | 'stockQuantity', value: string) => {
              const next = {
                ...values,
                variants: values.variants.map((candidate) =>
                  candidate.key === variant.key ? { ...candidate, [field]: value } : candidate,
                ),
              };
              setValues(next);
              clearIfCorrected(next, `variants.${index}.${field}`);
            };
            const fieldError = (field: string) => errors[`variants.${index}.${field}`];
            return (
              <li
                key={variant.key}
                className="grid gap-3 rounded border border-gray-200 p-3 sm:grid-cols-[1fr_1fr_8rem_7rem_auto] sm:items-end"
              >
                {(['name', 'sku', 'price', 'stockQuantity'] as const).map((field) => (
                  <div key={field}>
                    <label
                      htmlFor={`${formId}-variant-${variant.key}-${field}`}
                      className="block text-xs font-semibold"
                    >
                      {`Variant ${index + 1} ${field === 'stockQuantity' ? 'stock' : field === 'sku' ? 'SKU' : field}`}
                    </label>
                    <input
                      id={`${formId}-variant-${variant.key}-${field}`}
                      type={field === 'price' || field === 'stockQuantity' ? 'number' : 'text'}
                      step={field === 'price' ? '0.01' : field === 'stockQuantity' ? '1' : undefined}
                      min={field === 'price' || field === 'stockQuantity' ? '0' : undefined}
                      value={variant[field]}
                      onChange={(event) => setVariant(field, event.target.value)}
                      aria-invalid={fieldError(field) ? true : undefined}
                      aria-describedby={
                        fieldError(field) ? `${formId}-variant-${variant.key}-${field}-error` : undefined
                      }
                      className={inputClass(Boolean(fieldError(field)))}
                    />
                    {fieldError(field) ? (
                      <p
                        id={`${formId}-variant-${variant.key}-${field}-error`}
                        className="mt-1 text-xs font-semibold text-sale"
                      >
                        {fieldError(field)}
                      </p>
                    ) : null}
                  </div>
                ))}
                <button
                  type="button"
                  onClick={() =>
                    setValues((current) => ({
                      ...current,
                      variants: current.variants.filter((candidate) => candidate.key !== variant.key),
                    }))
                  }
                  className="rounded border border-sale px-3 py-2.5 text-sm font-semibold text-sale hover:bg-red-50"
                >
                  Remove<span className="sr-only"> variant {index + 1}</span>
                </button>
              </li>
            );
          })}
        </ul>
        {errors.variants ? <p className="mt-2 text-sm font-semibold text-sale">{errors.variants}</p> : null}
        <button
          type="button"
          onClick={() =>
            setValues((current) => ({
              ...current,
              variants: [
                ...current.variants,
                { key: crypto.randomUUID(), name: '', sku: '', price: '', stockQuantity: '0' },
              ],
            }))
          }
          className="mt-3 rounded border border-navy-800 px-4 py-2 text-sm font-semibold text-navy-800 hover:bg-navy-100"
        >
          Add Variant
        </button>
      </fieldset>
      <button
        type="submit"
        disabled={busy}
        className="rounded bg-accent px-8 py-3 font-bold uppercase tracking-wide text-ink hover:bg-accent-dark disabled:cursor-wait disabled:opacity-70"
      >
        {editing ? (busy ? 'Saving Product...' : 'Save Product') : busy ? 'Creating Product...' : 'Create Product'}
      </button>
    </form>
  );
}

interface CreatedProduct {
  name: string;
  images: { id?: number; imageUrl: string; isPrimary: boolean; altText?: string }[];
}

/** The product just created, read back from the shop; null when that read fails (the links still lead to it). */
async function fetchCreated(productId: number): Promise<CreatedProduct | null> {
  try {
    const response = await fetch(`/api/products/${productId}`);
    return response.ok ? ((await response.json()) as CreatedProduct) : null;
  } catch {
    return null;
  }
}

/** The created product's pictures as stored (the sizes the shop made), primary first, so the owner sees what went up. */
function CreatedPictures({ product }: { product: CreatedProduct }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-gray-200 bg-white p-5">
      <h2 id={headingId} className="font-display text-xl font-bold uppercase">
        Uploaded pictures
      </h2>
      {product.images.length === 0 ? (
        <p className="mt-2 text-sm text-gray-700">{product.name} has no pictures yet.</p>
      ) : (
        <ul className="mt-3 flex flex-wrap gap-3">
          {product.images.map((image) => (
            <li key={image.id ?? image.imageUrl} className="w-28 text-center text-xs">
              <img
                src={image.imageUrl}
                alt={image.altText || product.name}
                width={112}
                height={112}
                className="h-28 w-28 rounded border border-gray-200 bg-white object-contain"
              />
              {image.isPrimary ? <span className="mt-1 block font-semibold">Primary</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
