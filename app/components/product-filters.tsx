import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { type ListingOptions, type ListingState, listingSearch, RATING_OPTIONS } from '../../contracts/listing.ts';
import { type BrandFacet, loadListingParser } from '../lib/listing.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { SpriteSvg } from './icon-sprite.tsx';
import { PriceRangeFieldset, usePriceBoxesFollowUrl } from './price-range-fieldset.tsx';

interface ProductFiltersProps {
  /** The form's id: the sort select in the toolbar joins the form through it. */
  formId: string;
  /** What the page shows now (from the URL)… */
  state: ListingState;
  /** …and what it will show once the navigation in flight lands, so ticks never flicker back. */
  pendingState: ListingState;
  options: ListingOptions;
  brands: BrandFacet[];
  /** Offered only on /products and /shop. */
  categories?: readonly { id: number; name: string }[];
  /** Called after a change is applied (the phone drawer closes on "Apply"). */
  onApplied?: (source: 'auto' | 'button') => void;
}

/** URLSearchParams from a submitted form, the same pairs a browser would put in a GET URL. */
function formSearchParams(form: HTMLFormElement, submitter: HTMLElement | null): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form, submitter)) {
    if (typeof value === 'string') params.append(key, value);
  }
  return params;
}

const startLoadingParser = () => {
  // A failed download is left to the submit, which tries again and falls back to a plain request.
  loadListingParser().catch(() => {});
};

/** Props that start loading the listing schema as soon as a shopper reaches for a control, so the change need not wait. */
export const loadsListingParser = { onFocus: startLoadingParser, onPointerDown: startLoadingParser };

/**
 * Submit handler of a listing form (filters, or the brand page's sort): reads the form as a
 * browser would for a GET, validates it with the shared schema and navigates to the canonical URL.
 */
export function useListingSubmit(
  options: ListingOptions,
  callbacks: { onInvalid?: (message: string) => void; onApplied?: (submitter: HTMLElement | null) => void } = {},
) {
  const navigate = useNavigate();
  const location = useLocation();
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const params = formSearchParams(event.currentTarget, submitter);
    void loadListingParser().then(
      (parseListingSearch) => {
        const parsed = parseListingSearch(params, options);
        if (!parsed.success) {
          callbacks.onInvalid?.(Object.values(parsed.errors).flat().join(' '));
          return;
        }
        navigate(
          { pathname: location.pathname, search: listingSearch(parsed.state, options) },
          { preventScrollReset: true },
        );
        callbacks.onApplied?.(submitter);
      },
      // Without the schema the page does what a browser without JavaScript does: it asks for
      // the form's URL as it is, and the loader tidies it or answers a bad value with a 400 page.
      () => navigate({ pathname: location.pathname, search: `?${params}` }),
    );
  };
}

/**
 * The listing's filters as a plain GET form: without JavaScript it submits to the same URL
 * and the loader tidies the query; with JavaScript ticks and rating buttons apply at once,
 * price applies on Enter or "Apply", and the URL is written in canonical form directly.
 * Leaving `page` out of the form is what sends every change back to page 1.
 */
export function ProductFilters({
  formId,
  state,
  pendingState,
  options,
  brands,
  categories,
  onApplied,
}: ProductFiltersProps) {
  const location = useLocation();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const minRef = useRef<HTMLInputElement>(null);
  const maxRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const ids = useId();

  // Typed prices are left alone while the shopper edits; a new URL (Back, "Clear all") resets them.
  usePriceBoxesFollowUrl(minRef, maxRef, state.minPrice, state.maxPrice, () => setError(null));

  // Ticks and the category are uncontrolled, so a click shows at once and focus stays put; they follow
  // the URL (or the navigation on its way) whenever it changes by other means: a chip, "Clear all", Back.
  const pendingBrands = pendingState.brandIds.join(',');
  const pendingCategory = pendingState.categoryId;
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const chosen = new Set(pendingBrands.split(','));
    for (const box of form.querySelectorAll<HTMLInputElement>('input[name="brand"]'))
      box.checked = chosen.has(box.value);
    const category = form.querySelector<HTMLSelectElement>('select[name="category"]');
    if (category) category.value = pendingCategory?.toString() ?? '';
  }, [pendingBrands, pendingCategory]);

  const handleSubmit = useListingSubmit(options, {
    onInvalid: setError,
    onApplied: (submitter) => {
      setError(null);
      onApplied?.(submitter?.dataset.apply === 'close' ? 'button' : 'auto');
    },
  });

  const autoSubmit = () => formRef.current?.requestSubmit();
  const activeRating = pendingState.rating;

  return (
    <form
      ref={formRef}
      id={formId}
      method="get"
      action={location.pathname}
      onSubmit={handleSubmit}
      noValidate
      className="divide-y divide-gray-200"
      {...loadsListingParser}
    >
      {categories ? (
        <div className="pb-5">
          <label htmlFor={`${ids}-category`} className="font-display text-lg font-bold uppercase tracking-wide">
            Category
          </label>
          <select
            id={`${ids}-category`}
            name="category"
            defaultValue={state.categoryId?.toString() ?? ''}
            onChange={autoSubmit}
            className="mt-2 block w-full rounded border border-gray-300 bg-white px-3 py-2 text-sm"
          >
            <option value="">All categories</option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}

      <div className={categories ? 'py-5' : 'pb-5'}>
        <PriceRangeFieldset
          legend="Price"
          ids={ids}
          minPrice={state.minPrice}
          maxPrice={state.maxPrice}
          error={error}
          minRef={minRef}
          maxRef={maxRef}
        />
      </div>

      <div className="py-5">
        <fieldset>
          <legend className="font-display text-lg font-bold uppercase tracking-wide">Customer rating</legend>
          {/* The current rating rides along with every submit; a pressed rating button's value comes after it and wins. */}
          <input type="hidden" name="rating" value={pendingState.rating ?? ''} />
          <div className="mt-2 grid grid-cols-2 gap-2">
            {RATING_OPTIONS.map((rating) => {
              const active = activeRating === rating;
              return (
                <button
                  key={rating}
                  type="submit"
                  name="rating"
                  value={active ? '' : String(rating)}
                  aria-pressed={active}
                  className={`flex items-center justify-center gap-1 rounded border px-2 py-2 text-sm font-semibold transition-colors ${
                    active
                      ? 'border-navy-900 bg-navy-900 text-white'
                      : 'border-gray-300 bg-white text-ink hover:border-navy-700'
                  }`}
                >
                  {/* Read as "4 stars & up": the star picture stands for the word. */}
                  <span className="tabular">{rating}</span>
                  <span className="sr-only"> stars</span>
                  <SpriteSvg icon="star" className="h-4 w-4 fill-star" />
                  <span> &amp; up</span>
                </button>
              );
            })}
          </div>
        </fieldset>
      </div>

      {brands.length > 0 ? (
        <div className="py-5">
          <fieldset>
            <legend className="font-display text-lg font-bold uppercase tracking-wide">Brand</legend>
            <ul className="mt-2 max-h-80 space-y-0.5 overflow-y-auto pr-1">
              {brands.map((brand) => {
                return (
                  <li key={brand.id}>
                    <label
                      className={`flex items-center gap-2.5 rounded px-1 py-1.5 text-sm ${
                        brand.disabled ? 'cursor-not-allowed text-gray-500' : 'cursor-pointer hover:bg-gray-50'
                      }`}
                    >
                      <input
                        type="checkbox"
                        name="brand"
                        value={brand.id}
                        defaultChecked={brand.selected}
                        disabled={brand.disabled}
                        onChange={autoSubmit}
                        className="h-4 w-4 rounded border-gray-400 accent-navy-900"
                      />
                      <span className="flex-1">{brand.name}</span>
                      <span className="tabular text-xs text-gray-600">
                        <span className="sr-only">, </span>({brand.count}
                        <span className="sr-only"> products</span>)
                      </span>
                    </label>
                  </li>
                );
              })}
            </ul>
          </fieldset>
        </div>
      ) : null}

      {/* Before JavaScript runs (or without it) ticks need a button; after, they apply as they change. */}
      <div className={hydrated ? 'pt-5 lg:hidden' : 'pt-5'}>
        <button
          type="submit"
          data-apply="close"
          className="w-full rounded bg-accent px-4 py-3 font-semibold text-ink hover:bg-accent-dark"
        >
          {hydrated ? 'Show results' : 'Apply filters'}
        </button>
      </div>
    </form>
  );
}
