import { RetryButton } from './retry-button.tsx';

interface SectionErrorProps {
  /** The spec §8 text for this load, word for word. */
  message: string;
  /** The spec says 'Retry' on some pages and 'Try Again' on others. */
  retryLabel?: string;
  className?: string;
}

/** A part of a page whose data did not load: the spec's text and a way to ask again, in its place. */
export function SectionError({ message, retryLabel = 'Try Again', className = '' }: SectionErrorProps) {
  return (
    <div role="alert" className={`rounded-lg border border-red-200 bg-red-50 px-6 py-8 text-center ${className}`}>
      <p className="font-semibold text-stock-out">{message}</p>
      <RetryButton label={retryLabel} className="mt-4" />
    </div>
  );
}
