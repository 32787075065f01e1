import { useId, useState } from 'react';
import { DESCRIPTION_PREVIEW_PARAGRAPHS, descriptionParagraphs } from '../lib/product-page.ts';

/** A description longer than this (in characters) is folded even when it is one paragraph. */
const LONG_PARAGRAPH = 420;

/**
 * The description as paragraphs, folded to its opening with 'Read More' /
 * 'Show Less'. The whole text is in the server's HTML (folded parts are only
 * hidden), so search engines and find-in-page still see it.
 */
export function ProductDescription({ description }: { description: string }) {
  const id = useId();
  const [expanded, setExpanded] = useState(false);
  const paragraphs = descriptionParagraphs(description);
  if (paragraphs.length === 0) {
    return <p className="text-gray-700">The manufacturer has not supplied a description for this product yet.</p>;
  }
  const preview = paragraphs.slice(0, DESCRIPTION_PREVIEW_PARAGRAPHS);
  const rest = paragraphs.slice(DESCRIPTION_PREVIEW_PARAGRAPHS);
  const longOpening = preview.join(' ').length > LONG_PARAGRAPH;
  const foldable = rest.length > 0 || longOpening;

  return (
    <div>
      <div id={id} className="space-y-3 leading-relaxed text-gray-800">
        {preview.map((paragraph, index) => (
          <p key={index} className={foldable && !expanded && longOpening ? 'line-clamp-4' : undefined}>
            {paragraph}
          </p>
        ))}
        {rest.length > 0 ? (
          <div hidden={!expanded} className="space-y-3" data-testid="description-more">
            {rest.map((paragraph, index) => (
              <p key={index}>{paragraph}</p>
            ))}
          </div>
        ) : null}
      </div>
      {foldable ? (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((open) => !open)}
          className="mt-3 inline-flex items-center gap-1 font-semibold text-navy-700 underline-offset-2 hover:underline"
        >
          {expanded ? 'Show Less' : 'Read More'}
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className={`h-4 w-4 fill-current transition-transform ${expanded ? 'rotate-180' : ''}`}
          >
            <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
          </svg>
        </button>
      ) : null}
    </div>
  );
}
