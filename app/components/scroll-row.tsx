import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';

/** Arrows appear once the row can scroll more than this many pixels that way (spec §9). */
export const SCROLL_ARROW_THRESHOLD = 10;
/** One arrow click scrolls this far (spec §9). */
export const SCROLL_STEP = 300;

/** Which arrows a horizontally scrolling row needs at its current position. */
export function arrowsFor(position: { scrollLeft: number; scrollWidth: number; clientWidth: number }): {
  left: boolean;
  right: boolean;
} {
  const { scrollLeft, scrollWidth, clientWidth } = position;
  return {
    left: scrollLeft > SCROLL_ARROW_THRESHOLD,
    right: scrollLeft + clientWidth < scrollWidth - SCROLL_ARROW_THRESHOLD,
  };
}

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

interface ScrollRowProps {
  /** Names the list and its arrows: "categories" gives "Scroll categories right". */
  label: string;
  /** The row's <li> items. */
  children: ReactNode;
  className?: string;
}

/**
 * A horizontally scrolling list with left/right arrows that show only when there
 * is more to see that way. Touch and trackpads scroll it directly; the arrows are
 * for mice and keyboards. The server renders no arrows: they need a measured row.
 */
export function ScrollRow({ label, children, className = '' }: ScrollRowProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const leftRef = useRef<HTMLButtonElement>(null);
  const rightRef = useRef<HTMLButtonElement>(null);
  const [arrows, setArrows] = useState({ left: false, right: false });

  const measure = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    const next = arrowsFor(list);
    setArrows((current) => (current.left === next.left && current.right === next.right ? current : next));
  }, []);

  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    measure();
    list.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    return () => {
      list.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, [measure]);

  const scroll = (direction: -1 | 1) => {
    const list = listRef.current;
    if (!list) return;
    // An arrow that disappears under the keyboard focus would drop focus onto the page: hand it to the other arrow.
    const target = list.scrollLeft + direction * SCROLL_STEP;
    const willShow = arrowsFor({ ...measurable(list), scrollLeft: target });
    if (direction === 1 && !willShow.right && document.activeElement === rightRef.current) leftRef.current?.focus();
    if (direction === -1 && !willShow.left && document.activeElement === leftRef.current) rightRef.current?.focus();
    list.scrollBy({ left: direction * SCROLL_STEP, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  };

  const arrowClass =
    'absolute top-1/2 z-10 flex h-11 w-11 -translate-y-1/2 items-center justify-center rounded-full border border-gray-300 bg-white text-ink shadow-md transition hover:bg-accent disabled:hidden';
  return (
    <div className={`relative ${className}`}>
      <ul
        ref={listRef}
        aria-label={label.charAt(0).toUpperCase() + label.slice(1)}
        className="scrollbar-none flex snap-x snap-mandatory scroll-px-1 gap-4 overflow-x-auto px-1 pt-1 pb-3 md:snap-none"
      >
        {children}
      </ul>
      {/* Disabled rather than unmounted, so focus handed to the other arrow has somewhere to land. */}
      <button
        ref={leftRef}
        type="button"
        aria-label={`Scroll ${label} left`}
        disabled={!arrows.left}
        onClick={() => scroll(-1)}
        className={`${arrowClass} -left-2 sm:-left-4`}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
          <path d="M12.7 4.3a1 1 0 0 1 0 1.4L8.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4l-5-5a1 1 0 0 1 0-1.4l5-5a1 1 0 0 1 1.4 0z" />
        </svg>
      </button>
      <button
        ref={rightRef}
        type="button"
        aria-label={`Scroll ${label} right`}
        disabled={!arrows.right}
        onClick={() => scroll(1)}
        className={`${arrowClass} -right-2 sm:-right-4`}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
          <path d="M7.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 1 1-1.4-1.4L11.6 10 7.3 5.7a1 1 0 0 1 0-1.4z" />
        </svg>
      </button>
    </div>
  );
}

function measurable(list: HTMLElement) {
  return { scrollLeft: list.scrollLeft, scrollWidth: list.scrollWidth, clientWidth: list.clientWidth };
}
