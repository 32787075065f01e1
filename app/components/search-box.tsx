import { type FormEvent, type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Form, useLocation, useNavigate } from 'react-router';
import type { Suggestion } from '../../contracts/search.ts';
import { MIN_SUGGESTION_TERM_LENGTH, SUGGESTION_DEBOUNCE_MS, searchHref } from '../../contracts/search-links.ts';

type Status = 'idle' | 'loading' | 'ready' | 'error';

/** Where choosing a suggestion goes (spec §2): a product opens, a brand or category shows its page. */
export function suggestionHref(suggestion: Suggestion): string {
  switch (suggestion.type) {
    case 'Product':
      return `/product/${suggestion.referenceId}`;
    case 'Brand':
      return `/brand/${suggestion.referenceId}`;
    case 'Category':
      return `/category/${suggestion.referenceId}`;
  }
}

/** The spec allows upper- or lower-case keys in suggestions; this reads either. */
function readSuggestion(raw: Record<string, unknown>): Suggestion | null {
  const pick = (key: string) => raw[key] ?? raw[key[0]!.toUpperCase() + key.slice(1)];
  const type = pick('type');
  const value = pick('value');
  const referenceId = Number(pick('referenceId'));
  if ((type !== 'Product' && type !== 'Brand' && type !== 'Category') || typeof value !== 'string') return null;
  if (!Number.isInteger(referenceId)) return null;
  return { type, value, category: String(pick('category') ?? ''), referenceId };
}

function termFromLocation(pathname: string, search: string): string {
  return pathname === '/search' ? (new URLSearchParams(search).get('term') ?? '') : '';
}

const TYPE_LABEL: Record<Suggestion['type'], string> = { Product: 'Product', Brand: 'Brand', Category: 'Category' };

/**
 * The header's product search with a suggestions dropdown (spec §2, §4, §5, §8, §9):
 * suggestions from 2 characters after a 300 ms pause, the previous request aborted when
 * the term changes, arrow keys / Enter / Escape, closes on outside click, selection or
 * clear. Submitting opens /search?term=; an empty term does nothing. Without JavaScript
 * it is a plain GET form to /search.
 */
export function SearchBox() {
  const location = useLocation();
  const navigate = useNavigate();
  const id = useId();
  const inputId = `${id}-input`;
  const listboxId = `${id}-listbox`;
  const [term, setTerm] = useState(() => termFromLocation(location.pathname, location.search));
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<Status>('idle');
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  /** The term the shown suggestions (or the error) belong to. */
  const [answeredTerm, setAnsweredTerm] = useState('');
  const [active, setActive] = useState(-1);
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const timerRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const requestRef = useRef<AbortController | null>(null);

  const cancelPending = useCallback((): void => {
    clearTimeout(timerRef.current);
    requestRef.current?.abort();
    requestRef.current = null;
  }, []);

  const close = useCallback((): void => {
    setOpen(false);
    setActive(-1);
  }, []);

  async function load(trimmed: string): Promise<void> {
    const controller = new AbortController();
    requestRef.current = controller;
    setStatus('loading');
    try {
      const response = await fetch(`/api/search/autocomplete?term=${encodeURIComponent(trimmed)}`, {
        signal: controller.signal,
        headers: { accept: 'application/json' },
      });
      if (!response.ok) throw new Error(`API error: ${response.status} ${response.statusText}`);
      const body = (await response.json()) as unknown;
      const list = Array.isArray(body)
        ? body.flatMap((item) => {
            const suggestion = readSuggestion(item as Record<string, unknown>);
            return suggestion ? [suggestion] : [];
          })
        : [];
      setSuggestions(list);
      setAnsweredTerm(trimmed);
      setActive(-1);
      setStatus('ready');
    } catch (error) {
      if (controller.signal.aborted) return;
      console.warn('Autocomplete failed:', (error as Error).message);
      setSuggestions([]);
      setAnsweredTerm(trimmed);
      setActive(-1);
      setStatus('error');
    } finally {
      if (requestRef.current === controller) requestRef.current = null;
    }
  }

  function changeTerm(next: string): void {
    setTerm(next);
    cancelPending();
    const trimmed = next.trim();
    if (trimmed.length < MIN_SUGGESTION_TERM_LENGTH) {
      setSuggestions([]);
      setAnsweredTerm('');
      setStatus('idle');
      close();
      return;
    }
    setOpen(true);
    timerRef.current = setTimeout(() => void load(trimmed), SUGGESTION_DEBOUNCE_MS);
  }

  function choose(suggestion: Suggestion): void {
    cancelPending();
    close();
    navigate(suggestionHref(suggestion));
  }

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const trimmed = term.trim().replace(/\s+/g, ' ');
    if (!trimmed) return;
    cancelPending();
    close();
    navigate(searchHref({ term: trimmed }));
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
    const count = suggestions.length;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) {
          if (term.trim().length >= MIN_SUGGESTION_TERM_LENGTH) {
            setOpen(true);
            if (answeredTerm !== term.trim()) changeTerm(term);
          }
          return;
        }
        if (count > 0) setActive((current) => (current + 1) % count);
        return;
      case 'ArrowUp':
        event.preventDefault();
        if (open && count > 0) setActive((current) => (current <= 0 ? count - 1 : current - 1));
        return;
      case 'Enter':
        if (open && active >= 0 && suggestions[active]) {
          event.preventDefault();
          choose(suggestions[active]);
        }
        return;
      case 'Escape':
        if (open) {
          event.preventDefault();
          close();
        } else if (term) {
          event.preventDefault();
          changeTerm('');
        }
        return;
      case 'Tab':
        close();
        return;
    }
  }

  // Close on a click or tap anywhere outside the box.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, close]);

  // A navigation (a chosen suggestion, the back button) closes the box; on /search the box shows the page's term.
  useEffect(() => {
    cancelPending();
    close();
    setTerm(termFromLocation(location.pathname, location.search));
  }, [location.pathname, location.search, cancelPending, close]);

  useEffect(() => () => cancelPending(), [cancelPending]);

  const trimmed = term.trim();
  const waiting = status === 'loading' || answeredTerm !== trimmed;
  let message: string | null = null;
  if (status === 'error' && answeredTerm === trimmed) message = 'Failed to load suggestions. Please try again.';
  else if (suggestions.length === 0 && waiting) message = 'Loading suggestions...';
  else if (suggestions.length === 0) message = `No suggestions found for "${answeredTerm}"`;
  const showList = open && suggestions.length > 0 && status !== 'error';
  const activeId = showList && active >= 0 ? `${id}-option-${active}` : undefined;

  return (
    <div ref={rootRef} className="relative w-full">
      <Form method="get" action="/search" role="search" className="flex w-full" onSubmit={submit}>
        <label htmlFor={inputId} className="sr-only">
          Search products
        </label>
        <div className="relative min-w-0 flex-1">
          <input
            ref={inputRef}
            id={inputId}
            name="term"
            type="search"
            value={term}
            onChange={(event) => changeTerm(event.target.value)}
            onKeyDown={onKeyDown}
            onFocus={() => {
              if (trimmed.length >= MIN_SUGGESTION_TERM_LENGTH && answeredTerm === trimmed) setOpen(true);
            }}
            placeholder="Search drills, saws, model numbers…"
            autoComplete="off"
            spellCheck={false}
            maxLength={100}
            role="combobox"
            aria-expanded={open}
            aria-controls={listboxId}
            aria-autocomplete="list"
            aria-activedescendant={activeId}
            className="h-11 w-full rounded-l-md border-0 bg-white py-2.5 pr-10 pl-4 text-ink placeholder:text-gray-500 [&::-webkit-search-cancel-button]:appearance-none"
          />
          {term ? (
            <button
              type="button"
              onClick={() => {
                changeTerm('');
                inputRef.current?.focus();
              }}
              className="absolute inset-y-0 right-0 flex w-10 items-center justify-center text-gray-600 hover:text-ink"
              aria-label="Clear search"
            >
              <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
                <path d="M4.3 4.3a1 1 0 0 1 1.4 0L10 8.6l4.3-4.3a1 1 0 1 1 1.4 1.4L11.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4L10 11.4l-4.3 4.3a1 1 0 0 1-1.4-1.4L8.6 10 4.3 5.7a1 1 0 0 1 0-1.4z" />
              </svg>
            </button>
          ) : null}
        </div>
        <button
          type="submit"
          className="flex h-11 items-center gap-2 rounded-r-md bg-accent px-4 font-semibold text-ink hover:bg-accent-dark sm:px-5"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-5 w-5"
            fill="none"
            stroke="currentColor"
            strokeWidth={2.2}
          >
            <circle cx="10.5" cy="10.5" r="6.5" />
            <path d="m15.5 15.5 5 5" strokeLinecap="round" />
          </svg>
          <span className="sr-only sm:not-sr-only">Search</span>
        </button>
      </Form>

      <div
        className={`absolute inset-x-0 top-full z-40 mt-1 overflow-hidden rounded-md border border-gray-200 bg-white text-ink shadow-xl ${open ? '' : 'hidden'}`}
      >
        <p role="status" aria-live="polite" className={message && open ? 'px-4 py-3 text-sm text-gray-700' : 'sr-only'}>
          {open ? (message ?? `${suggestions.length} suggestions available`) : ''}
        </p>
        <div
          id={listboxId}
          role="listbox"
          aria-label="Search suggestions"
          aria-busy={waiting}
          className={showList ? 'max-h-[70vh] overflow-y-auto py-1' : 'hidden'}
        >
          {showList
            ? suggestions.map((suggestion, index) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: in the combobox pattern the input owns the keyboard
                <div
                  key={`${suggestion.type}-${suggestion.referenceId}`}
                  id={`${id}-option-${index}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={index === active}
                  onPointerDown={(event) => event.preventDefault()}
                  onClick={() => choose(suggestion)}
                  onMouseMove={() => {
                    if (active !== index) setActive(index);
                  }}
                  className={`flex cursor-pointer items-center gap-3 px-4 py-2 text-sm ${index === active ? 'bg-navy-100' : ''}`}
                >
                  <span
                    className={`w-[4.5rem] shrink-0 rounded px-1.5 py-0.5 text-center text-[0.65rem] font-bold uppercase tracking-wide ${
                      suggestion.type === 'Product' ? 'bg-gray-100 text-gray-700' : 'bg-accent text-ink'
                    }`}
                  >
                    {TYPE_LABEL[suggestion.type]}
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="line-clamp-2 font-medium sm:line-clamp-1">{suggestion.value}</span>
                    {suggestion.type === 'Product' ? (
                      <span className="block truncate text-xs text-gray-600">in {suggestion.category}</span>
                    ) : null}
                  </span>
                </div>
              ))
            : null}
        </div>
      </div>
    </div>
  );
}
