import { type FormEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Facet, SearchQuery } from '../../contracts/search.ts';
import { searchHref } from '../../contracts/search-links.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { PriceRangeFieldset, usePriceBoxesFollowUrl } from './price-range-fieldset.tsx';

/** The filters a shopper can set on /search; the term and sort ride along unchanged. */
export type SearchFilterState = Pick<
  SearchQuery,
  'term' | 'sortBy' | 'categoryId' | 'brandId' | 'minPrice' | 'maxPrice'
>;

export function hasFilters(state: SearchFilterState): boolean {
  return (
    state.categoryId !== undefined ||
    state.brandId !== undefined ||
    state.minPrice !== undefined ||
    state.maxPrice !== undefined
  );
}

/** The query with every filter removed: same term, same sort, page 1. */
export function clearedFilters(state: SearchFilterState): string {
  return searchHref({ term: state.term, sortBy: state.sortBy });
}

interface SearchFiltersProps {
  /** The form's id: the toolbar's sort select joins it through `form=`. */
  formId: string;
  state: SearchFilterState;
  categories: Facet[];
  brands: Facet[];
  /** Called after a change is applied (the phone drawer closes on "Show results"). */
  onApplied?: () => void;
}

/** Reads a typed price: '' is "no limit", anything else must be a non-negative number. */
function readPrice(value: string): { ok: true; value: number | undefined } | { ok: false } {
  const trimmed = value.trim();
  if (trimmed === '') return { ok: true, value: undefined };
  const number = Number(trimmed);
  return Number.isFinite(number) && number >= 0 ? { ok: true, value: number } : { ok: false };
}

function FacetList({
  legend,
  name,
  facets,
  selectedId,
  onToggle,
}: {
  legend: string;
  name: 'categoryId' | 'brandId';
  facets: Facet[];
  selectedId: number | undefined;
  onToggle: (id: number | undefined) => void;
}) {
  return (
    <fieldset>
      <legend className="font-display text-lg font-bold uppercase tracking-wide">{legend}</legend>
      {facets.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600">None for this search</p>
      ) : (
        <ul className="mt-2 max-h-72 space-y-0.5 overflow-y-auto pr-1">
          {facets.map((facet) => {
            const checked = facet.id === selectedId;
            return (
              <li key={facet.id}>
                <label className="flex cursor-pointer items-center gap-2.5 rounded px-1 py-1.5 text-sm hover:bg-gray-50">
                  <input
                    type="checkbox"
                    name={name}
                    value={facet.id}
                    checked={checked}
                    // One at a time (spec §2): ticking another replaces the choice, ticking it again clears it.
                    onChange={() => onToggle(checked ? undefined : facet.id)}
                    className="h-4 w-4 rounded border-gray-400 accent-navy-900"
                  />
                  <span className="flex-1">{facet.name}</span>
                  <span className="tabular text-xs text-gray-600">
                    <span className="sr-only">, </span>({facet.productCount.toLocaleString('en-AU')}
                    <span className="sr-only"> products</span>)
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}

/**
 * The /search sidebar (spec §2): Categories and Brands with counts for the current query
 * (one of each at a time, tick again to clear), Price Range, and Clear All Filters. Every
 * change goes into the URL and back to page 1. Without JavaScript it is a GET form with
 * an Apply button.
 */
export function SearchFilters({ formId, state, categories, brands, onApplied }: SearchFiltersProps) {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const ids = useId();
  const minRef = useRef<HTMLInputElement>(null);
  const maxRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);

  // Typed prices are left alone while the shopper edits; a new URL (Back, "Clear all") resets them.
  usePriceBoxesFollowUrl(minRef, maxRef, state.minPrice, state.maxPrice, () => setError(null));

  function go(next: SearchFilterState): void {
    // Leaving `page` out sends every filter change back to page 1.
    navigate(searchHref(next), { preventScrollReset: true });
    onApplied?.();
  }

  function applyPrices(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const min = readPrice(minRef.current?.value ?? '');
    const max = readPrice(maxRef.current?.value ?? '');
    if (!min.ok || !max.ok) {
      setError('Enter prices as positive numbers, e.g. 49.95.');
      return;
    }
    if (min.value !== undefined && max.value !== undefined && min.value > max.value) {
      setError('The maximum price must not be below the minimum.');
      return;
    }
    setError(null);
    const form = event.currentTarget;
    const sort = form.elements.namedItem('sortBy');
    const sortBy = sort instanceof HTMLSelectElement ? (sort.value as SearchQuery['sortBy']) : state.sortBy;
    go({ ...state, sortBy, minPrice: min.value, maxPrice: max.value });
  }

  return (
    <form
      id={formId}
      method="get"
      action="/search"
      onSubmit={applyPrices}
      noValidate
      className="divide-y divide-gray-200"
    >
      <input type="hidden" name="term" value={state.term} />
      <div className="flex items-center justify-between gap-3 pb-4">
        <h2 className="font-display text-xl font-bold uppercase tracking-wide">Filters</h2>
        <button
          type="button"
          onClick={() => go({ term: state.term, sortBy: state.sortBy })}
          disabled={!hasFilters(state)}
          className="rounded border border-navy-900 px-3 py-1.5 text-sm font-semibold text-navy-900 hover:bg-navy-100 disabled:cursor-not-allowed disabled:border-gray-300 disabled:text-gray-500 disabled:hover:bg-transparent"
        >
          Clear All Filters
        </button>
      </div>

      <div className="py-5">
        <FacetList
          legend="Categories"
          name="categoryId"
          facets={categories}
          selectedId={state.categoryId}
          onToggle={(categoryId) => go({ ...state, categoryId })}
        />
      </div>

      <div className="py-5">
        <FacetList
          legend="Brands"
          name="brandId"
          facets={brands}
          selectedId={state.brandId}
          onToggle={(brandId) => go({ ...state, brandId })}
        />
      </div>

      <div className="py-5">
        <PriceRangeFieldset
          legend="Price Range"
          ids={ids}
          minPrice={state.minPrice}
          maxPrice={state.maxPrice}
          error={error}
          minRef={minRef}
          maxRef={maxRef}
        />
      </div>

      {hydrated ? null : (
        // Without JavaScript, ticks and the sort need a button to take effect.
        <div className="pt-5">
          <button
            type="submit"
            className="w-full rounded bg-accent px-4 py-3 font-semibold text-ink hover:bg-accent-dark"
          >
            Apply filters
          </button>
        </div>
      )}
    </form>
  );
}
