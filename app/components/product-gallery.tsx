import { type KeyboardEvent, useRef, useState } from 'react';
import type { Image } from '../../contracts/catalog.ts';

interface ProductGalleryProps {
  images: Image[];
  productName: string;
}

/** The main picture: the page's full width on a phone, half of the 1280 px page from 1024 px up. */
const MAIN_IMAGE_SIZES = '(min-width: 1024px) 620px, 100vw';
/** Five thumbnails share the gallery's width. */
const THUMBNAIL_SIZES = '(min-width: 1024px) 120px, 20vw';

function altFor(image: Image, productName: string, index: number, total: number): string {
  if (image.altText?.trim()) return image.altText;
  return total > 1 ? `${productName}, view ${index + 1} of ${total}` : productName;
}

/**
 * The main picture with a row of thumbnails. Thumbnails are buttons: Tab reaches
 * the chosen one, arrow keys, Home and End move between them (one tab stop, as
 * in a toolbar), and Enter/Space or a click shows that picture.
 */
export function ProductGallery({ images, productName }: ProductGalleryProps) {
  const [selected, setSelected] = useState(0);
  const thumbnails = useRef<(HTMLButtonElement | null)[]>([]);
  const current = images[Math.min(selected, images.length - 1)];

  const moveTo = (index: number) => {
    const next = (index + images.length) % images.length;
    setSelected(next);
    thumbnails.current[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowDown: index + 1,
      ArrowLeft: index - 1,
      ArrowUp: index - 1,
      Home: 0,
      End: images.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    moveTo(target);
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="relative aspect-square overflow-hidden rounded-lg border border-gray-200 bg-white">
        {current ? (
          <img
            key={current.imageUrl}
            src={current.imageUrl}
            // Uploaded pictures come in WebP sizes; seeded ones are single SVGs without a srcset.
            srcSet={current.srcset}
            sizes={current.srcset ? MAIN_IMAGE_SIZES : undefined}
            alt={altFor(current, productName, selected, images.length)}
            width={800}
            height={800}
            // The main picture is the page's largest element: fetch it first.
            fetchPriority={selected === 0 ? 'high' : 'auto'}
            decoding="async"
            className="h-full w-full object-contain p-4"
            data-testid="gallery-main-image"
          />
        ) : (
          <div className="flex h-full items-center justify-center text-gray-600">
            <span>No picture available</span>
          </div>
        )}
      </div>
      {images.length > 1 ? (
        <div
          role="toolbar"
          aria-label="Product pictures"
          aria-orientation="horizontal"
          className="grid grid-cols-5 gap-2"
        >
          {images.map((image, index) => (
            <button
              key={image.id ?? image.imageUrl}
              ref={(element) => {
                thumbnails.current[index] = element;
              }}
              type="button"
              tabIndex={index === selected ? 0 : -1}
              aria-pressed={index === selected}
              aria-label={`Show picture ${index + 1} of ${images.length}`}
              onClick={() => setSelected(index)}
              onKeyDown={(event) => onKeyDown(event, index)}
              className={`aspect-square overflow-hidden rounded-md border-2 bg-white p-1 transition-colors ${
                index === selected ? 'border-navy-700' : 'border-gray-200 hover:border-gray-400'
              }`}
            >
              <img
                src={image.imageUrl}
                srcSet={image.srcset}
                sizes={image.srcset ? THUMBNAIL_SIZES : undefined}
                alt=""
                width={120}
                height={120}
                loading="lazy"
                decoding="async"
                className="h-full w-full object-contain"
              />
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
