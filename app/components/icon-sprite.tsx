/*
 * The icons a page repeats, drawn once: every product card carries a row of stars (twice,
 * grey under gold), a heart and a cart, and a listing of sixty cards carried sixty copies of
 * each path. The root layout renders <IconSprite /> once per page; an icon is then an <svg>
 * holding one <use>, which takes its fill and stroke from that <svg>.
 */

/** One star in a 20 × 20 box. */
const STAR_PATH = 'M10 1.5l2.6 5.3 5.9.9-4.2 4.1 1 5.8L10 14.9l-5.3 2.7 1-5.8L1.5 7.7l5.9-.9z';

const HEART_PATH =
  'M12 20.5s-7.5-4.6-9.3-9.2C1.5 8.1 3.6 4.5 7.2 4.5c2 0 3.5 1.1 4.8 2.9 1.3-1.8 2.8-2.9 4.8-2.9 3.6 0 5.7 3.6 4.5 6.8-1.8 4.6-9.3 9.2-9.3 9.2z';

const CART_PATH = 'M3 4h2.2l2.1 10.2a1.5 1.5 0 0 0 1.5 1.2h8.4a1.5 1.5 0 0 0 1.5-1.1L20.5 8H6.1M9.5 20h.01M17 20h.01';

const CHECK_PATH = 'M5 12.5l4.5 4.5L19 7.5';

/** The sprite's icons and the viewBox each is drawn in (an icon's <svg> uses the same one). */
export const SPRITE_ICONS = {
  star: '0 0 20 20',
  /** Five stars side by side, 20 units apart. */
  stars: '0 0 100 20',
  heart: '0 0 24 24',
  cart: '0 0 24 24',
  check: '0 0 24 24',
} as const;

export type SpriteIcon = keyof typeof SPRITE_ICONS;

const symbolId = (icon: SpriteIcon) => `icon-${icon}`;

/** What a <use> points at to draw a sprite icon (for an <svg> that places several). */
export const spriteHref = (icon: SpriteIcon) => `#${symbolId(icon)}`;

/** Every sprite icon as a <symbol>, hidden; rendered once by the root layout. */
export function IconSprite() {
  return (
    <svg aria-hidden="true" className="hidden" width="0" height="0">
      <symbol id={symbolId('star')} viewBox={SPRITE_ICONS.star}>
        <path d={STAR_PATH} />
      </symbol>
      <symbol id={symbolId('stars')} viewBox={SPRITE_ICONS.stars}>
        {[0, 1, 2, 3, 4].map((index) => (
          <path key={index} d={STAR_PATH} transform={index ? `translate(${index * 20} 0)` : undefined} />
        ))}
      </symbol>
      <symbol id={symbolId('heart')} viewBox={SPRITE_ICONS.heart}>
        <path d={HEART_PATH} />
      </symbol>
      <symbol id={symbolId('cart')} viewBox={SPRITE_ICONS.cart}>
        <path d={CART_PATH} strokeLinecap="round" strokeLinejoin="round" />
      </symbol>
      <symbol id={symbolId('check')} viewBox={SPRITE_ICONS.check}>
        <path d={CHECK_PATH} strokeLinecap="round" strokeLinejoin="round" />
      </symbol>
    </svg>
  );
}

/** A sprite icon, decorative (`aria-hidden`); fill and stroke come from the props, as on any <svg>. */
export function SpriteSvg({ icon, ...props }: { icon: SpriteIcon } & React.SVGProps<SVGSVGElement>) {
  return (
    <svg aria-hidden="true" viewBox={SPRITE_ICONS[icon]} {...props}>
      <use href={spriteHref(icon)} />
    </svg>
  );
}
