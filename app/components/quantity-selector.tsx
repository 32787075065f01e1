import { useId, useState } from 'react';
import { clampQuantity } from '../lib/product-page.ts';

interface QuantitySelectorProps {
  value: number;
  /** The most the shopper may choose (available stock); below 1 disables the selector. */
  max: number;
  onChange: (quantity: number) => void;
}

/**
 * − / number / + with the value held within 1..max (spec §5). Typing past the
 * stock snaps to the stock; an emptied box is allowed while typing and becomes 1
 * when the shopper leaves it.
 */
export function QuantitySelector({ value, max, onChange }: QuantitySelectorProps) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const disabled = max < 1;
  const buttonClass =
    'flex h-12 w-12 items-center justify-center text-xl font-bold text-navy-900 hover:bg-gray-100 disabled:cursor-not-allowed disabled:text-gray-400 disabled:hover:bg-transparent';

  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold text-gray-700">
        Quantity
      </label>
      <div className="inline-flex items-stretch overflow-hidden rounded-md border border-gray-300 bg-white">
        <button
          type="button"
          aria-label="Decrease quantity"
          aria-controls={id}
          disabled={disabled || value <= 1}
          onClick={() => onChange(clampQuantity(value - 1, max))}
          className={buttonClass}
        >
          <span aria-hidden="true">−</span>
        </button>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={1}
          max={Math.max(1, max)}
          step={1}
          disabled={disabled}
          value={draft ?? String(value)}
          onChange={(event) => {
            const text = event.target.value;
            if (text.trim() === '') {
              setDraft('');
              return;
            }
            const next = clampQuantity(Number(text), max);
            setDraft(null);
            onChange(next);
          }}
          onBlur={() => {
            if (draft !== null) {
              setDraft(null);
              onChange(clampQuantity(Number.NaN, max));
            }
          }}
          className="tabular w-16 border-x border-gray-300 text-center text-lg font-semibold [appearance:textfield] disabled:bg-gray-100 disabled:text-gray-500 [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none"
        />
        <button
          type="button"
          aria-label="Increase quantity"
          aria-controls={id}
          disabled={disabled || value >= max}
          onClick={() => onChange(clampQuantity(value + 1, max))}
          className={buttonClass}
        >
          <span aria-hidden="true">+</span>
        </button>
      </div>
    </div>
  );
}
