import { type KeyboardEvent, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Await, Link } from 'react-router';
import { CATEGORIES_FAILED, CATEGORY_MENU_LIMIT, type CategoryLink, sortCategories } from './shop-links.ts';

export type CategoryList = CategoryLink[] | Promise<CategoryLink[]>;

interface CategoryMenuListProps {
  categories: CategoryLink[];
  /** Whether every category is shown, not only the first ten. */
  expanded: boolean;
  onExpand: () => void;
  /** Called when a category link is followed, so the menu around it can close. */
  onNavigate?: () => void;
  /** Wider layouts list the expanded menu in columns. */
  columns?: boolean;
}

/**
 * The categories in name order: the first ten, then a 'View All Categories (N)'
 * button that reveals the rest in place and moves focus to the first one revealed.
 */
export function CategoryMenuList({
  categories,
  expanded,
  onExpand,
  onNavigate,
  columns = false,
}: CategoryMenuListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const focusAfterExpand = useRef(false);

  useEffect(() => {
    if (!expanded || !focusAfterExpand.current) return;
    focusAfterExpand.current = false;
    listRef.current?.querySelectorAll('a')[CATEGORY_MENU_LIMIT]?.focus();
  }, [expanded]);

  if (categories.length === 0) {
    return <p className="px-4 py-3 text-sm text-gray-600">No categories available</p>;
  }
  const sorted = sortCategories(categories);
  const shown = expanded ? sorted : sorted.slice(0, CATEGORY_MENU_LIMIT);
  return (
    <>
      <ul ref={listRef} className={expanded && columns ? 'gap-x-2 sm:columns-2 lg:columns-3' : ''}>
        {shown.map((category) => (
          <li key={category.id} className="break-inside-avoid">
            <Link
              to={`/category/${category.id}`}
              prefetch="intent"
              onClick={onNavigate}
              className="flex items-center justify-between gap-3 rounded px-4 py-2 text-sm text-ink hover:bg-navy-100 focus-visible:bg-navy-100"
            >
              {category.name}
              <svg
                aria-hidden="true"
                viewBox="0 0 20 20"
                className="h-3.5 w-3.5 shrink-0 text-gray-500"
                fill="currentColor"
              >
                <path d="M7.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 1 1-1.4-1.4L11.6 10 7.3 5.7a1 1 0 0 1 0-1.4z" />
              </svg>
            </Link>
          </li>
        ))}
      </ul>
      {!expanded && sorted.length > CATEGORY_MENU_LIMIT ? (
        <button
          type="button"
          onClick={() => {
            focusAfterExpand.current = true;
            onExpand();
          }}
          className="mx-2 mt-2 mb-1 w-[calc(100%-1rem)] rounded-md bg-navy-900 px-4 py-2.5 text-left text-sm font-semibold text-white hover:bg-navy-700"
        >
          View All Categories ({sorted.length})
        </button>
      ) : null}
    </>
  );
}

/** What the menu shows while the category list is still streaming in. */
export function CategoryMenuLoading() {
  return (
    <p role="status" className="px-4 py-3 text-sm text-gray-600">
      Loading categories...
    </p>
  );
}

/** What the menu shows when the category list could not be loaded: spec §8's text, word for word. */
export function CategoryMenuError() {
  return (
    <p role="alert" className="px-4 py-3 text-sm text-stock-out">
      {CATEGORIES_FAILED}
    </p>
  );
}

/** The list inside a menu, whether the categories have arrived, are still on their way or failed. */
export function CategoryMenuContent(props: Omit<CategoryMenuListProps, 'categories'> & { categories: CategoryList }) {
  const { categories, ...rest } = props;
  return (
    <Suspense fallback={<CategoryMenuLoading />}>
      <Await resolve={categories} errorElement={<CategoryMenuError />}>
        {(list) => <CategoryMenuList categories={list} {...rest} />}
      </Await>
    </Suspense>
  );
}

function focusables(container: HTMLElement | null): HTMLElement[] {
  return container ? [...container.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')] : [];
}

/**
 * The header's "Shop by Category" dropdown: a disclosure button and a panel of links.
 * Keyboard: Enter/Space/ArrowDown open it, arrows/Home/End move through it, Escape
 * closes it and returns focus to the button; leaving it with Tab or a click outside closes it.
 */
export function CategoryMenu({ categories }: { categories: CategoryList }) {
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const focusFirstOnOpen = useRef(false);
  const panelId = useId();

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    setExpanded(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    if (focusFirstOnOpen.current) {
      focusFirstOnOpen.current = false;
      focusables(panelRef.current)[0]?.focus();
    }
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, close]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      close(true);
      return;
    }
    const inButton = event.target === buttonRef.current;
    if (inButton && event.key === 'ArrowDown') {
      event.preventDefault();
      if (open) focusables(panelRef.current)[0]?.focus();
      else {
        focusFirstOnOpen.current = true;
        setOpen(true);
      }
      return;
    }
    if (!open || inButton) return;
    const items = focusables(panelRef.current);
    const index = items.indexOf(document.activeElement as HTMLElement);
    const last = items.length - 1;
    const next =
      event.key === 'ArrowDown'
        ? Math.min(index + 1, last)
        : event.key === 'ArrowUp'
          ? index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    if (next < 0) buttonRef.current?.focus();
    else items[next]?.focus();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the key handler only moves focus between the real controls inside
    <div
      ref={rootRef}
      className="relative"
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (open && !rootRef.current?.contains(event.relatedTarget as Node | null) && event.relatedTarget) close(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => (open ? close(false) : setOpen(true))}
        className="flex h-11 items-center gap-2 bg-accent px-4 text-sm font-bold uppercase tracking-wide text-ink hover:bg-accent-dark"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
          <path d="M3 5h14v2H3zm0 4h14v2H3zm0 4h14v2H3z" />
        </svg>
        Shop by Category
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className={`h-4 w-4 transition-transform ${open ? 'rotate-180' : ''}`}
          fill="currentColor"
        >
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
        </svg>
      </button>
      <div
        ref={panelRef}
        id={panelId}
        hidden={!open}
        className={`absolute left-0 top-full z-40 max-h-[70vh] overflow-y-auto rounded-b-lg border border-gray-200 bg-white py-2 text-ink shadow-xl ${
          expanded ? 'w-[min(52rem,calc(100vw-2rem))]' : 'w-72'
        }`}
      >
        <CategoryMenuContent
          categories={categories}
          expanded={expanded}
          onExpand={() => setExpanded(true)}
          onNavigate={() => close(false)}
          columns
        />
      </div>
    </div>
  );
}
