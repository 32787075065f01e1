import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStore } from '../../app/lib/local-store.ts';

/** A browser's localStorage and 'storage' events, enough for the store. */
function fakeWindow() {
  const items = new Map<string, string>();
  const storageListeners: ((event: { key: string | null }) => void)[] = [];
  const win = {
    blocked: false,
    localStorage: {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => {
        if (win.blocked) throw new Error('QuotaExceededError');
        items.set(key, value);
      },
    },
    addEventListener: (type: string, listener: (event: { key: string | null }) => void) => {
      if (type === 'storage') storageListeners.push(listener);
    },
    /** Another tab wrote `key`. */
    otherTabWrites(key: string, value: string) {
      items.set(key, value);
      for (const listener of storageListeners) listener({ key });
    },
    items,
  };
  return win;
}

let win: ReturnType<typeof fakeWindow>;

beforeEach(() => {
  win = fakeWindow();
  (globalThis as { window?: unknown }).window = win;
});

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

function numbersStore() {
  return createLocalStore<number[]>({
    key: 'test.numbers',
    empty: [],
    parse: (stored) => (Array.isArray(stored) ? stored.filter((n): n is number => typeof n === 'number') : []),
    serialize: (numbers) => numbers,
  });
}

describe('createLocalStore', () => {
  it('reads what an earlier visit saved, keeping only clean values', () => {
    win.items.set('test.numbers', JSON.stringify([1, 'two', 3]));
    expect(numbersStore().get()).toEqual([1, 3]);
  });

  it('starts empty when the saved value is not JSON', () => {
    win.items.set('test.numbers', '{not json');
    expect(numbersStore().get()).toEqual([]);
  });

  it('saves each change, and leaves storage alone when a change returns the same value', () => {
    const store = numbersStore();
    store.update((numbers) => [...numbers, 7]);
    expect(win.items.get('test.numbers')).toBe('[7]');
    win.items.set('test.numbers', 'untouched');
    store.update((numbers) => numbers);
    expect(win.items.get('test.numbers')).toBe('untouched');
    expect(store.get()).toEqual([7]);
  });

  it('keeps working for the page when storage refuses to save', () => {
    const store = numbersStore();
    win.blocked = true;
    store.update(() => [1, 2]);
    expect(store.get()).toEqual([1, 2]);
    expect(win.items.has('test.numbers')).toBe(false);
  });

  it('follows a change made in another tab, and ignores other keys', () => {
    const store = numbersStore();
    expect(store.get()).toEqual([]);
    win.otherTabWrites('test.other', '[99]');
    expect(store.get()).toEqual([]);
    win.otherTabWrites('test.numbers', '[4, 5]');
    expect(store.get()).toEqual([4, 5]);
  });

  it('is empty on the server, where there is no window', () => {
    delete (globalThis as { window?: unknown }).window;
    expect(numbersStore().get()).toEqual([]);
  });
});
