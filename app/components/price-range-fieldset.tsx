import { type Ref, type RefObject, useEffect, useRef } from 'react';

/**
 * Keeps the price boxes on the URL's prices when the URL changes by other means (Back, a chip,
 * "Clear all") and calls `onReset`. Not on the first run: the server already drew the URL's
 * prices, and a shopper who typed while the page hydrated would lose what they typed.
 */
export function usePriceBoxesFollowUrl(
  minRef: RefObject<HTMLInputElement | null>,
  maxRef: RefObject<HTMLInputElement | null>,
  minPrice: number | undefined,
  maxPrice: number | undefined,
  onReset: () => void,
): void {
  const shown = useRef(`${minPrice}:${maxPrice}`);
  // biome-ignore lint/correctness/useExhaustiveDependencies: onReset is a fresh closure each render; only the prices matter.
  useEffect(() => {
    const prices = `${minPrice}:${maxPrice}`;
    if (shown.current === prices) return;
    shown.current = prices;
    if (minRef.current) minRef.current.value = minPrice?.toString() ?? '';
    if (maxRef.current) maxRef.current.value = maxPrice?.toString() ?? '';
    onReset();
  }, [minPrice, maxPrice]);
}

interface PriceRangeFieldsetProps {
  legend: string;
  /** Prefix for the inputs' ids, unique on the page. */
  ids: string;
  minPrice: number | undefined;
  maxPrice: number | undefined;
  error: string | null | undefined;
  minRef?: Ref<HTMLInputElement>;
  maxRef?: Ref<HTMLInputElement>;
}

/** Min and max price boxes with an Apply button, as every filter sidebar shows them. Submits minPrice/maxPrice. */
export function PriceRangeFieldset({
  legend,
  ids,
  minPrice,
  maxPrice,
  error,
  minRef,
  maxRef,
}: PriceRangeFieldsetProps) {
  const bounds = [
    { key: 'min', name: 'minPrice', label: 'Min price', placeholder: '0', value: minPrice, ref: minRef },
    { key: 'max', name: 'maxPrice', label: 'Max price', placeholder: 'Any', value: maxPrice, ref: maxRef },
  ];
  return (
    <fieldset>
      <legend className="font-display text-lg font-bold uppercase tracking-wide">{legend}</legend>
      <div className="mt-2 flex items-end gap-2">
        {bounds.map((bound, index) => (
          <div key={bound.key} className="contents">
            {index > 0 ? (
              <span aria-hidden="true" className="pb-2 text-gray-500">
                –
              </span>
            ) : null}
            <div className="min-w-0 flex-1">
              <label htmlFor={`${ids}-${bound.key}`} className="block text-xs font-semibold text-gray-700">
                {bound.label}
              </label>
              <div className="relative mt-1">
                <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-2 flex items-center">
                  $
                </span>
                <input
                  ref={bound.ref}
                  id={`${ids}-${bound.key}`}
                  name={bound.name}
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step="0.01"
                  placeholder={bound.placeholder}
                  defaultValue={bound.value ?? ''}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${ids}-error` : undefined}
                  className="tabular block w-full rounded border border-gray-300 py-2 pr-2 pl-6 text-sm"
                />
              </div>
            </div>
          </div>
        ))}
        <button
          type="submit"
          className="shrink-0 rounded bg-navy-900 px-3 py-2 text-sm font-semibold text-white hover:bg-navy-700"
        >
          Apply
        </button>
      </div>
      {/* The API's minPrice/maxPrice are the spec's ex-GST prices; cards headline inc GST, so say which. */}
      <p className="mt-1 text-xs text-gray-600">Prices before GST</p>
      {error ? (
        <p id={`${ids}-error`} role="alert" className="mt-2 text-sm font-semibold text-sale">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
