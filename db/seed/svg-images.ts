import { DETAIL_FOCUS, ICONS, type IconKey } from './svg-icons.ts';

/**
 * Renders the demo pictures. Everything here is a pure function of its arguments, so pictures
 * never consume random numbers and the catalogue data stays identical with or without media.
 */

const FONT = 'Inter, Arial, sans-serif';
const INK = '#1f2933';
const OUTLINE = '#18202b';
const SHADOW = '#0f1a2a';

export interface Paint {
  brand: string;
  dark?: string;
  metal?: string;
  accent?: string;
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Relative luminance, to choose white or dark text on a brand colour. */
function luminance(hex: string): number {
  const channel = (i: number): number => {
    const v = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

export function textOn(hex: string): string {
  // Dark text wins on anything lighter than a mid tone; 0.18 keeps yellows and limes dark-on-colour.
  return luminance(hex) > 0.18 ? INK : '#ffffff';
}

/** Darkens a #rrggbb colour, for stripes and gradients that stay on-brand. */
export function shade(hex: string, factor: number): string {
  const out = [0, 1, 2].map((i) => {
    const v = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16);
    return Math.max(0, Math.min(255, Math.round(v * factor)))
      .toString(16)
      .padStart(2, '0');
  });
  return `#${out.join('')}`;
}

function style(paint: Paint): string {
  return (
    `<style>.b{fill:${paint.brand}}.d{fill:${paint.dark ?? '#2f3a47'}}.m{fill:${paint.metal ?? '#cfd6de'}}` +
    `.w{fill:#fbfcfd}.g{fill:#bcd9e8}.a{fill:${paint.accent ?? '#f6c343'}}.n{fill:none;stroke-width:4}</style>`
  );
}

function icon(key: IconKey, transform: string, strokeWidth = 5): string {
  return `<g transform="${transform}" stroke="${OUTLINE}" stroke-width="${strokeWidth}" stroke-linejoin="round" stroke-linecap="round">${ICONS[key]}</g>`;
}

function svg(width: number, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="${FONT}">${body}</svg>\n`;
}

export type ProductView = 'hero' | 'angle' | 'detail' | 'specs';

export interface ProductPicture {
  view: ProductView;
  icon: IconKey;
  brandName: string;
  brandColour: string;
  model: string;
  /** Shown on the spec card only. */
  specs: ReadonlyArray<readonly [string, string]>;
  specTitle: string;
}

const TILE_BACKGROUND = '#f4f6f8';

/**
 * Largest font size (up to `size`) at which `text` fits `maxWidth`, from an average glyph
 * width in ems. SVG text cannot wrap or measure itself, and the fonts are the browser's.
 */
function fitSize(text: string, size: number, emPerChar: number, maxWidth: number): number {
  const width = text.length * size * emPerChar;
  return width <= maxWidth ? size : Math.max(12, Math.floor((size * maxWidth) / width));
}

function detailTransform(key: IconKey): string {
  const [x, y] = DETAIL_FOCUS[key] ?? [215, 205];
  const zoom = 2.5;
  return `translate(${400 - x * zoom} ${400 - y * zoom}) scale(${zoom})`;
}

/** Square product picture on a light backdrop, like a studio shot on a seamless sweep. */
export function renderProductPicture(picture: ProductPicture): string {
  const paint = style({ brand: picture.brandColour });
  const brand = escapeXml(picture.brandName.toUpperCase());
  const model = escapeXml(picture.model);
  const label =
    `<rect x="48" y="50" width="14" height="14" rx="3" fill="${picture.brandColour}" stroke="${OUTLINE}" stroke-width="2"/>` +
    `<text x="74" y="63" font-size="20" font-weight="700" letter-spacing="2.5" fill="${INK}">${brand}</text>` +
    `<text x="752" y="756" text-anchor="end" font-size="19" letter-spacing="1" fill="#66727f">${model}</text>`;
  const background = `<rect width="800" height="800" fill="${TILE_BACKGROUND}"/>`;
  const floor = (rx: number, y = 604): string =>
    `<ellipse cx="400" cy="${y}" rx="${rx}" ry="24" fill="${SHADOW}" opacity=".10"/>`;

  switch (picture.view) {
    case 'hero':
      return svg(
        800,
        800,
        paint + background + floor(250) + icon(picture.icon, 'translate(115 100) scale(1.425)') + label,
      );
    case 'angle':
      // Mirrored and tilted: reads as the same product seen from its other side.
      return svg(
        800,
        800,
        paint +
          background +
          floor(220, 590) +
          icon(picture.icon, 'translate(655 120) rotate(-6) scale(-1.3 1.3)') +
          label,
      );
    case 'detail':
      return svg(
        800,
        800,
        `${paint + background}<clipPath id="c"><circle cx="400" cy="400" r="300"/></clipPath>` +
          `<circle cx="400" cy="400" r="304" fill="#fff" stroke="#d9dee4" stroke-width="4"/>` +
          `<g clip-path="url(#c)">${icon(picture.icon, detailTransform(picture.icon), 4)}</g>` +
          `<text x="48" y="63" font-size="20" font-weight="700" letter-spacing="2.5" fill="${INK}">DETAIL</text>` +
          `<text x="752" y="756" text-anchor="end" font-size="19" letter-spacing="1" fill="#66727f">${model}</text>`,
      );
    case 'specs': {
      const rows = picture.specs
        .slice(0, 5)
        .map(
          ([name, value], i) =>
            `<text x="430" y="${262 + i * 82}" font-size="19" letter-spacing="1.5" fill="#66727f">${escapeXml(name.toUpperCase())}</text>` +
            `<text x="430" y="${296 + i * 82}" font-size="${fitSize(value, 30, 0.58, 330)}" font-weight="700" fill="${INK}">${escapeXml(value)}</text>`,
        )
        .join('');
      return svg(
        800,
        800,
        paint +
          background +
          `<rect x="400" y="150" width="6" height="500" fill="${picture.brandColour}"/>` +
          `<text x="430" y="200" font-size="30" font-weight="800" fill="${INK}">${escapeXml(picture.specTitle)}</text>` +
          rows +
          `<ellipse cx="210" cy="552" rx="140" ry="16" fill="${SHADOW}" opacity=".10"/>` +
          icon(picture.icon, 'translate(40 220) scale(0.9)', 6) +
          label,
      );
    }
  }
}

const SAFETY_YELLOW = '#ffc20e';

/** Wide category tile: the shop's own navy-to-charcoal with safety-yellow tools. */
export function renderCategoryPicture(icons: readonly IconKey[]): string {
  const [main, second, third] = icons;
  const paint = style({ brand: SAFETY_YELLOW, dark: '#3a4656', metal: '#d9dee5', accent: '#f08c00' });
  return svg(
    1200,
    800,
    paint +
      '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#14233b"/><stop offset="1" stop-color="#2a2f37"/></linearGradient></defs>' +
      '<rect width="1200" height="800" fill="url(#g)"/>' +
      `<path d="M0 700L1200 560V800H0z" fill="#ffffff" opacity=".04"/>` +
      `<ellipse cx="620" cy="668" rx="300" ry="26" fill="#000" opacity=".28"/>` +
      (second ? icon(second, 'translate(90 380) scale(0.78)') : '') +
      (third ? icon(third, 'translate(880 390) scale(0.74)') : '') +
      (main ? icon(main, 'translate(370 150) scale(1.3)') : '') +
      `<rect x="0" y="784" width="1200" height="16" fill="${SAFETY_YELLOW}"/>`,
  );
}

/** Wide subcategory tile: light backdrop so the subcategory grid reads lighter than the category hero. */
export function renderSubcategoryPicture(key: IconKey): string {
  const paint = style({ brand: SAFETY_YELLOW, dark: '#2f3a47', accent: '#f08c00' });
  return svg(
    1200,
    800,
    paint +
      '<rect width="1200" height="800" fill="#eef1f4"/>' +
      '<path d="M0 640H1200V800H0z" fill="#e3e7ec"/>' +
      `<ellipse cx="600" cy="640" rx="280" ry="26" fill="${SHADOW}" opacity=".12"/>` +
      icon(key, 'translate(370 100) scale(1.35)') +
      '<rect x="0" y="0" width="1200" height="14" fill="#14233b"/>',
  );
}

export type WordmarkStyle = 'italic' | 'wide' | 'heavy' | 'serif-caps';

export interface BrandPicture {
  name: string;
  monogram: string;
  colour: string;
  wordmark: WordmarkStyle;
  strapline: string;
}

/** Average glyph advance per style, in ems, letter spacing included. */
const WORDMARK_EM: Record<WordmarkStyle, { scale: number; em: number }> = {
  italic: { scale: 1, em: 0.57 },
  wide: { scale: 0.8, em: 0.8 },
  heavy: { scale: 1, em: 0.6 },
  'serif-caps': { scale: 0.78, em: 0.82 },
};

function wordmark(
  brand: BrandPicture,
  x: number,
  y: number,
  size: number,
  fill: string,
  anchor: 'start' | 'middle',
  maxWidth: number,
): string {
  const caps = brand.wordmark === 'wide' || brand.wordmark === 'serif-caps';
  const text = caps ? brand.name.toUpperCase() : brand.name;
  const { scale, em } = WORDMARK_EM[brand.wordmark];
  const fontSize = fitSize(text, size * scale, em, maxWidth);
  const name = escapeXml(text);
  const common = `x="${x}" y="${y}" text-anchor="${anchor}" fill="${fill}" font-size="${fontSize}"`;
  switch (brand.wordmark) {
    case 'italic':
      return `<text ${common} font-weight="800" font-style="italic" letter-spacing="-1">${name}</text>`;
    case 'wide':
      return `<text ${common} font-weight="700" letter-spacing="${(fontSize * 0.15).toFixed(1)}">${name}</text>`;
    case 'heavy':
      return `<text ${common} font-weight="900" letter-spacing="-2">${name}</text>`;
    case 'serif-caps':
      return `<text ${common} font-weight="600" letter-spacing="${(fontSize * 0.08).toFixed(1)}" font-family="Georgia, 'Times New Roman', serif">${name}</text>`;
  }
}

/** Brand hero banner: the brand's colour, its wordmark and a strapline. */
export function renderBrandBanner(brand: BrandPicture): string {
  const ink = textOn(brand.colour);
  return svg(
    1200,
    600,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${brand.colour}"/><stop offset="1" stop-color="${shade(brand.colour, 0.78)}"/></linearGradient>` +
      `<pattern id="p" width="40" height="40" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="14" height="40" fill="#000" opacity=".05"/></pattern></defs>` +
      '<rect width="1200" height="600" fill="url(#g)"/>' +
      '<rect width="1200" height="600" fill="url(#p)"/>' +
      wordmark(brand, 600, 320, 120, ink, 'middle', 1040) +
      `<rect x="540" y="360" width="120" height="6" rx="3" fill="${ink}" opacity=".8"/>` +
      `<text x="600" y="420" text-anchor="middle" font-size="28" font-weight="600" letter-spacing="6" fill="${ink}" opacity=".85">${escapeXml(brand.strapline.toUpperCase())}</text>`,
  );
}

/** Brand logo for white cards: a monogram badge in the brand colour beside a dark wordmark. */
export function renderBrandLogo(brand: BrandPicture): string {
  const ink = textOn(brand.colour);
  return svg(
    600,
    240,
    '<rect width="600" height="240" fill="#ffffff"/>' +
      `<rect x="32" y="64" width="112" height="112" rx="18" fill="${brand.colour}"/>` +
      `<text x="88" y="138" text-anchor="middle" font-size="46" font-weight="800" fill="${ink}">${escapeXml(brand.monogram)}</text>` +
      wordmark(brand, 170, 140, 62, INK, 'start', 400),
  );
}
