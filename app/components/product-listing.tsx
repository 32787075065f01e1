import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigation } from 'react-router';
import {
  changeListing,
  hasActiveFilters,
  LISTING_PAGE_SIZE,
  type ListingOptions,
  type ListingState,
  listingSearch,
  SORT_LABELS,
} from '../../contracts/listing.ts';
import { formatDollars } from '../../contracts/money.ts';
import type { ProductCardItem } from '../../contracts/product-card.ts';
import { useListScopeChanging } from '../lib/list-scope-change.ts';
import { type ListingData, loadedListingParser, pageRange } from '../lib/listing.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { Pagination } from './pagination.tsx';
import { loadsListingParser, ProductFilters, useListingSubmit } from './product-filters.tsx';
import { FIRST_SCREEN_CARDS, ProductGrid } from './product-grid.tsx';

/** Placeholder cards while another category's list loads: two rows on a desktop. */
const LISTING_SKELETONS = 8;

interface ProductListingProps {
  listing: ListingData;
  options: ListingOptions & { sorts: NonNullable<ListingOptions['sorts']> };
  /** Show the filter column (drawer on a phone); the brand page has sort only. */
  filters?: boolean;
  categories?: readonly { id: number; name: string }[];
  hrefFor?: (product: ProductCardItem) => string;
  /** Shown when the page's scope itself is empty (no filters set). */
  emptyState?: ReactNode;
}

/**
 * A paged, filterable product listing: filters (left column on a desktop, a drawer on a phone),
 * result count and sort, active-filter chips, the grid and the pager. All state is in the URL.
 */
export function ProductListing({
  listing,
  options,
  filters = true,
  categories,
  hrefFor,
  emptyState,
}: ProductListingProps) {
  const { state, products, brands } = listing;
  const location = useLocation();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const formId = useId();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const openerRef = useRef<HTMLButtonElement>(null);
  const sortRef = useRef<HTMLSelectElement>(null);

  // While a navigation to this same listing is in flight, show its choices already (no flicker back).
  // The schema arrives with the first use of the filters; a link followed before that shows them on landing.
  const pendingLocation = navigation.location?.pathname === location.pathname ? navigation.location : undefined;
  const parseListingSearch = loadedListingParser();
  const pendingParsed =
    pendingLocation && parseListingSearch
      ? parseListingSearch(new URLSearchParams(pendingLocation.search), options)
      : undefined;
  const pendingState = pendingParsed?.success ? pendingParsed.state : state;
  const scopeChanging = useListScopeChanging();
  const busy = navigation.state === 'loading' && pendingLocation !== undefined && !scopeChanging;

  // Uncontrolled like the filter inputs (see ProductFilters): follows the URL when it changes by other means.
  const pendingSort = pendingState.sort;
  useEffect(() => {
    if (sortRef.current) sortRef.current.value = pendingSort;
  }, [pendingSort]);

  const hrefWith = (next: ListingState) => `${location.pathname}${listingSearch(next, options)}`;
  const filtered = hasActiveFilters(state);
  const activeCount =
    (state.categoryId !== undefined ? 1 : 0) +
    state.brandIds.length +
    (state.minPrice !== undefined || state.maxPrice !== undefined ? 1 : 0) +
    (state.rating !== undefined ? 1 : 0);
  const { from, to } = pageRange(state.page, LISTING_PAGE_SIZE, products.totalCount);

  const closeDrawer = () => {
    setDrawerOpen(false);
    openerRef.current?.focus();
  };

  return (
    <div className={filters ? 'lg:grid lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-8' : ''}>
      {filters ? (
        <FilterDrawer
          open={drawerOpen}
          onClose={closeDrawer}
          hydrated={hydrated}
          clearHref={filtered ? hrefWith(clearedState(state)) : undefined}
        >
          <ProductFilters
            formId={formId}
            state={state}
            pendingState={pendingState}
            options={options}
            brands={brands}
            categories={categories}
            onApplied={(source) => {
              if (source === 'button') closeDrawer();
            }}
          />
        </FilterDrawer>
      ) : (
        <SortOnlyForm formId={formId} options={options} />
      )}

      <div id="products" className="min-w-0">
        <div className="flex flex-wrap items-center gap-3 border-b border-gray-200 pb-3">
          {filters ? (
            hydrated ? (
              <button
                ref={openerRef}
                type="button"
                aria-expanded={drawerOpen}
                aria-controls="filters"
                onClick={() => setDrawerOpen(true)}
                className="inline-flex flex-1 items-center justify-center gap-2 rounded border border-gray-300 bg-white px-3 py-2 text-sm font-semibold hover:border-navy-700 sm:flex-none lg:hidden"
              >
                <FilterIcon />
                Filters{activeCount ? ` (${activeCount})` : ''}
              </button>
            ) : (
              <a
                href="#filters"
                className="inline-flex flex-1 items-center justify-center gap-2 rounded border border-gray-300 bg-white px-3 py-2 text-sm font-semibold hover:border-navy-700 sm:flex-none lg:hidden"
              >
                <FilterIcon />
                Filters{activeCount ? ` (${activeCount})` : ''}
              </a>
            )
          ) : null}
          <p className="order-first w-full text-sm text-gray-700 sm:order-none sm:mr-auto sm:w-auto" aria-live="polite">
            <strong className="tabular text-ink">{products.totalCount.toLocaleString('en-AU')}</strong>{' '}
            {products.totalCount === 1 ? 'product' : 'products'} found
            {products.totalPages > 1 && from > 0 ? (
              <span className="hidden sm:inline">
                {' '}
                · showing <span className="tabular">{from}</span>–<span className="tabular">{to}</span>
              </span>
            ) : null}
          </p>
          <div className="flex flex-1 items-center gap-2 sm:flex-none">
            <label htmlFor={`${formId}-sort`} className="sr-only text-sm font-semibold text-gray-700 sm:not-sr-only">
              Sort by
            </label>
            <select
              id={`${formId}-sort`}
              name="sort"
              form={formId}
              defaultValue={state.sort}
              ref={sortRef}
              onChange={(event) => event.currentTarget.form?.requestSubmit()}
              {...loadsListingParser}
              className="w-full rounded border border-gray-300 bg-white py-2 pr-8 pl-3 text-sm sm:w-auto"
            >
              {options.sorts.map((sort) => (
                <option key={sort} value={sort}>
                  {SORT_LABELS[sort]}
                </option>
              ))}
            </select>
            <noscript>
              <button
                type="submit"
                form={formId}
                className="rounded bg-navy-900 px-3 py-2 text-sm font-semibold text-white"
              >
                Sort
              </button>
            </noscript>
          </div>
        </div>

        {filtered ? <ActiveFilters state={state} brands={brands} categories={categories} hrefWith={hrefWith} /> : null}

        <div
          aria-busy={busy || scopeChanging}
          className={`mt-5 transition-opacity ${busy ? 'pointer-events-none opacity-60' : ''}`}
        >
          {scopeChanging ? (
            <>
              <p className="sr-only">Loading products…</p>
              <ProductGrid products={[]} skeletons={LISTING_SKELETONS} layout={filters ? 'with-sidebar' : 'wide'} />
            </>
          ) : products.items.length > 0 ? (
            <ProductGrid
              products={products.items}
              hrefFor={hrefFor}
              layout={filters ? 'with-sidebar' : 'wide'}
              label="Products"
              eagerImages={FIRST_SCREEN_CARDS}
            />
          ) : state.page > 1 && products.totalCount > 0 ? (
            <EmptyBox title="There are no more products on this page">
              <Link to={hrefWith({ ...state, page: 1 })} className={primaryButton}>
                Go to the first page
              </Link>
            </EmptyBox>
          ) : filtered ? (
            <EmptyBox title="No products found with current filters">
              <p className="mt-2 text-gray-600">Try a wider price range, a lower rating or fewer brands.</p>
              <Link to={hrefWith(clearedState(state))} className={`${primaryButton} mt-5`}>
                Clear all filters
              </Link>
            </EmptyBox>
          ) : (
            (emptyState ?? (
              <EmptyBox title="No products available">
                <Link to="/products" className={`${primaryButton} mt-5`}>
                  Browse all products
                </Link>
              </EmptyBox>
            ))
          )}
        </div>

        <Pagination
          page={state.page}
          totalPages={products.totalPages}
          hrefFor={(page) => hrefWith({ ...state, page })}
        />
      </div>
    </div>
  );
}

export const primaryButton =
  'inline-block rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark focus-visible:outline-navy-900';

/** Filters off, sort kept: what "Clear all" leads to. */
function clearedState(state: ListingState): ListingState {
  return changeListing(state, {
    categoryId: undefined,
    brandIds: [],
    minPrice: undefined,
    maxPrice: undefined,
    rating: undefined,
  });
}

export function EmptyBox({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-gray-300 bg-gray-50 px-6 py-14 text-center">
      <h2 className="font-display text-2xl font-bold uppercase">{title}</h2>
      {children}
    </div>
  );
}

/** The brand page has no filter column, but its sort select still needs a form to submit through. */
function SortOnlyForm({ formId, options }: { formId: string; options: ListingOptions }) {
  const location = useLocation();
  const handleSubmit = useListingSubmit(options);
  return <form id={formId} method="get" action={location.pathname} onSubmit={handleSubmit} hidden />;
}

/** Removable chips for each active filter: one click (or Enter) takes that filter off. */
function ActiveFilters({
  state,
  brands,
  categories,
  hrefWith,
}: {
  state: ListingState;
  brands: ListingData['brands'];
  categories?: readonly { id: number; name: string }[];
  hrefWith: (state: ListingState) => string;
}) {
  const chips: { key: string; label: string; href: string }[] = [];
  if (state.categoryId !== undefined) {
    const name = categories?.find((category) => category.id === state.categoryId)?.name ?? 'Category';
    chips.push({ key: 'category', label: name, href: hrefWith(changeListing(state, { categoryId: undefined })) });
  }
  for (const id of state.brandIds) {
    const name = brands.find((brand) => brand.id === id)?.name ?? `Brand ${id}`;
    chips.push({
      key: `brand-${id}`,
      label: name,
      href: hrefWith(changeListing(state, { brandIds: state.brandIds.filter((other) => other !== id) })),
    });
  }
  if (state.minPrice !== undefined || state.maxPrice !== undefined) {
    const label =
      state.minPrice !== undefined && state.maxPrice !== undefined
        ? `${formatDollars(state.minPrice)} – ${formatDollars(state.maxPrice)}`
        : state.minPrice !== undefined
          ? `From ${formatDollars(state.minPrice)}`
          : `Up to ${formatDollars(state.maxPrice ?? 0)}`;
    chips.push({
      key: 'price',
      label,
      href: hrefWith(changeListing(state, { minPrice: undefined, maxPrice: undefined })),
    });
  }
  if (state.rating !== undefined) {
    chips.push({
      key: 'rating',
      label: `${state.rating} stars & up`,
      href: hrefWith(changeListing(state, { rating: undefined })),
    });
  }
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      <span className="sr-only">Active filters:</span>
      <ul className="contents">
        {chips.map((chip) => (
          <li key={chip.key}>
            <Link
              to={chip.href}
              preventScrollReset
              className="inline-flex items-center gap-1.5 rounded-full border border-navy-700 bg-navy-100 px-3 py-1 text-sm font-medium text-navy-900 hover:bg-white"
            >
              {chip.label}
              <span aria-hidden="true">×</span>
              <span className="sr-only">(remove filter)</span>
            </Link>
          </li>
        ))}
      </ul>
      <Link
        to={hrefWith(clearedState(state))}
        preventScrollReset
        className="text-sm font-semibold text-navy-700 underline"
      >
        Clear all
      </Link>
    </div>
  );
}

/**
 * Left column on a desktop; on a phone a drawer. Without JavaScript the drawer opens through
 * `#filters` (:target); with it, a real modal dialog: focus moves in, Tab stays in, Escape closes.
 */
function FilterDrawer({
  open,
  onClose,
  hydrated,
  clearHref,
  children,
}: {
  open: boolean;
  onClose: () => void;
  hydrated: boolean;
  /** "Clear all" in the panel's header, when any filter is set. */
  clearHref?: string;
  children: ReactNode;
}) {
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();

  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    closeRef.current?.focus();
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const desktop = window.matchMedia('(min-width: 64rem)');
    const onResize = () => {
      if (desktop.matches) onCloseRef.current();
    };
    // Escape closes; Tab and Shift+Tab wrap around inside the panel, as in any modal dialog.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab' || !panelRef.current) return;
      const focusable = [
        ...panelRef.current.querySelectorAll<HTMLElement>(
          'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select',
        ),
      ].filter((element) => element.offsetParent !== null);
      const first = focusable[0];
      const last = focusable.at(-1);
      const outside = !panelRef.current.contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === first || outside)) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && (document.activeElement === last || outside)) {
        event.preventDefault();
        first?.focus();
      }
    };
    desktop.addEventListener('change', onResize);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.body.style.overflow = previousOverflow;
      desktop.removeEventListener('change', onResize);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const dialogProps = open ? { role: 'dialog', 'aria-modal': true, 'aria-labelledby': headingId } : {};

  return (
    <aside
      id="filters"
      aria-labelledby={headingId}
      className={`${open ? 'flex' : 'hidden target:flex'} fixed inset-0 z-50 lg:static lg:z-auto lg:block`}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the backdrop is a mouse convenience; the Close button is the keyboard path */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: as above */}
      <div className="absolute inset-0 bg-navy-950/60 lg:hidden" onClick={onClose} />
      <div
        ref={panelRef}
        {...dialogProps}
        className="relative ml-auto flex h-full w-[min(22rem,88vw)] flex-col overflow-y-auto bg-white p-5 shadow-2xl lg:ml-0 lg:h-auto lg:w-auto lg:overflow-visible lg:p-0 lg:shadow-none"
      >
        <div className="mb-4 flex items-center justify-between border-b border-gray-200 pb-3">
          <h2 id={headingId} className="font-display text-2xl font-bold uppercase">
            Filters
          </h2>
          {clearHref ? (
            <Link
              to={clearHref}
              preventScrollReset
              className="mr-3 ml-auto text-sm font-semibold text-navy-700 underline lg:mr-0"
            >
              Clear all
            </Link>
          ) : null}
          {hydrated ? (
            <button
              ref={closeRef}
              type="button"
              onClick={onClose}
              className="rounded p-2 text-2xl leading-none lg:hidden"
              aria-label="Close filters"
            >
              ×
            </button>
          ) : (
            <a href="#products" className="rounded p-2 text-2xl leading-none lg:hidden" aria-label="Close filters">
              ×
            </a>
          )}
        </div>
        {children}
      </div>
    </aside>
  );
}

function FilterIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
      <path d="M2 4h16v2H2zm3 5h10v2H5zm3 5h4v2H8z" />
    </svg>
  );
}
