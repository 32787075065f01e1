import { useSyncExternalStore } from 'react';

export interface LocalStore<T> {
  /** The value now, outside React (the server's is `empty`). */
  get(): T;
  /** Applies a change, saves it and tells every subscriber; a change that returns the same value is no change. */
  update(change: (value: T) => T): void;
  /** Calls `listener` after every change (this tab's or another's); returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Part of the value in a component. The server renders the empty value's part. */
  useSelected<S>(select: (value: T) => S): S;
}

/**
 * A value kept in this browser's localStorage (the cart, the wishlist), shared by every
 * component on the page and kept in step across tabs. Storage that is full or blocked
 * leaves the value working for this page view; what cannot be read back is `empty`.
 * `parse` gets the stored JSON and must return `empty` or a clean value.
 */
export function createLocalStore<T>(options: {
  key: string;
  empty: T;
  parse: (stored: unknown) => T;
  serialize: (value: T) => unknown;
}): LocalStore<T> {
  const listeners = new Set<() => void>();
  let current = options.empty;
  let loaded = false;

  const notify = () => {
    for (const listener of listeners) listener();
  };

  const read = (): T => {
    try {
      const raw = window.localStorage.getItem(options.key);
      return raw ? options.parse(JSON.parse(raw)) : options.empty;
    } catch {
      return options.empty;
    }
  };

  const ensureLoaded = () => {
    if (loaded || typeof window === 'undefined') return;
    loaded = true;
    current = read();
    window.addEventListener('storage', (event) => {
      if (event.key !== options.key) return;
      current = read();
      notify();
    });
  };

  const subscribe = (listener: () => void) => {
    ensureLoaded();
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  const snapshot = () => {
    ensureLoaded();
    return current;
  };

  return {
    get: snapshot,
    subscribe,
    update(change) {
      ensureLoaded();
      const next = change(current);
      if (next === current) return;
      current = next;
      try {
        window.localStorage.setItem(options.key, JSON.stringify(options.serialize(next)));
      } catch {
        // Storage full or blocked: the value still works for this page view.
      }
      notify();
    },
    useSelected(select) {
      return useSyncExternalStore(
        subscribe,
        () => select(snapshot()),
        () => select(options.empty),
      );
    },
  };
}
