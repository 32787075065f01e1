import { BRANDS } from './catalogue-brands.ts';
import { CATEGORIES } from './catalogue-categories.ts';
import type { BrandDef, CategoryDef, Power, SkuStyle, SpecRule, SubcategoryDef } from './catalogue-types.ts';
import { deriveSeed, mulberry32, type Random } from './random.ts';
import { type GeneratedReview, generateReviews, reviewCount } from './review-generator.ts';
import type { ProductView } from './svg-images.ts';

/** Every date in the catalogue counts back from here, so reruns on any day give the same data. */
export const BASE_DATE = Date.UTC(2026, 5, 1);
export const DEFAULT_SEED = 20260601;
const DAY_MS = 86_400_000;
const CATALOGUE_SPAN_DAYS = 730;
/** Categories, subcategories and brands predate every product. */
export const CATALOGUE_START = new Date(BASE_DATE - (CATALOGUE_SPAN_DAYS + 30) * DAY_MS);

// Separate random streams, so adding a review sentence never changes a product's price.
const STREAM_STRUCTURE = 1;
const STREAM_PRODUCT = 2;
const STREAM_REVIEWS = 3;

export interface FlatSubcategory {
  def: SubcategoryDef;
  category: CategoryDef;
  categoryIndex: number;
  /** Position in the flat list of all subcategories, which is also insert order. */
  index: number;
  brandIndexes: readonly number[];
}

export interface GeneratedVariant {
  name: string;
  sku: string;
  priceCents: number;
  stockQuantity: number;
  attributes: Record<string, string>;
}

export interface GeneratedProduct {
  index: number;
  sku: string;
  model: string;
  /** File-name stem for the product's pictures. */
  imageStem: string;
  name: string;
  description: string;
  specifications: Record<string, string>;
  priceCents: number;
  discountPriceCents: number | null;
  stockQuantity: number;
  brandIndex: number;
  subcategory: FlatSubcategory;
  tagLine: string | null;
  isFeatured: boolean;
  isRedemption: boolean;
  isClearance: boolean;
  isActive: boolean;
  weightGrams: number;
  dimensions: string;
  warrantyPeriod: string;
  createdAt: Date;
  updatedAt: Date;
  /** The pictures this product would have of its own, hero first. */
  views: ProductView[];
  /** Alt text for each kind of picture, also used when the files are borrowed. */
  altTexts: Record<ProductView, string>;
  variants: GeneratedVariant[];
  reviews: GeneratedReview[];
  specCard: { title: string; rows: Array<readonly [string, string]> };
}

export function flattenSubcategories(): FlatSubcategory[] {
  const flat: FlatSubcategory[] = [];
  CATEGORIES.forEach((category, categoryIndex) => {
    const brandIndexes = BRANDS.flatMap((brand, i) => (brand.categories.includes(category.slug) ? [i] : []));
    if (brandIndexes.length === 0) throw new Error(`No brand makes ${category.slug}`);
    for (const def of category.subcategories) {
      flat.push({ def, category, categoryIndex, index: flat.length, brandIndexes });
    }
  });
  return flat;
}

/** Thousands separators without relying on the runtime's locale data. */
function groupThousands(value: number, decimals: number): string {
  const [whole = '0', fraction] = value.toFixed(decimals).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${grouped}.${fraction}` : grouped;
}

function specValue(rng: Random, rule: SpecRule): string {
  if ('options' in rule) return rng.pick(rule.options);
  const steps = Math.round((rule.max - rule.min) / rule.step);
  const value = rule.min + rng.int(0, steps) * rule.step;
  const decimals = rule.step < 1 ? (String(rule.step).split('.')[1]?.length ?? 1) : 0;
  return `${rule.prefix ?? ''}${groupThousands(value, decimals)}${rule.unit}`;
}

/** Shop prices end the way real ones do: $9.95, $39.95, $129, $1,499. */
export function shelfPriceCents(dollars: number): number {
  if (dollars < 10) return Math.max(195, Math.floor(dollars) * 100 + 95);
  if (dollars < 50) return Math.round(dollars / 5) * 500 - 5;
  if (dollars < 1000) return (Math.round(dollars / 10) * 10 - 1) * 100;
  return (Math.round(dollars / 50) * 50 - 1) * 100;
}

function discountedCents(priceCents: number, fraction: number): number {
  let cents = shelfPriceCents((priceCents * (1 - fraction)) / 100);
  if (cents >= priceCents) cents = priceCents > 2000 ? priceCents - 500 : Math.round(priceCents * 0.8);
  return Math.max(1, cents);
}

function formatWeight(grams: number): string {
  return grams >= 1000 ? `${(grams / 1000).toFixed(1)} kg` : `${grams} g`;
}

function skuFor(style: SkuStyle, prefix: string, code: string, num: number, suffix: string): string {
  switch (style) {
    case 'dash':
      return `${prefix}-${code}${num}-${suffix}`;
    case 'compact':
      return `${prefix}${code}${num}${suffix}`;
    case 'spaced':
      return `${prefix} ${code}${num} ${suffix}`;
    case 'split':
      return `${prefix}-${code}-${num}${suffix}`;
    case 'dotted':
      return `${prefix}.${code}${num}.${suffix}`;
    case 'slash':
      return `${prefix}${code} ${num}/${suffix}`;
  }
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const TIER_PRICE = { value: 0.8, trade: 1, premium: 1.25 } as const;
const TIER_RANK = { premium: 0, trade: 1, value: 2 } as const;
const POWER_PRICE: Readonly<Record<Power, number>> = { cordless: 1, corded: 0.85, petrol: 1.15, air: 0.9, none: 1 };
const KIT_ADDON_DOLLARS: Readonly<Record<string, number>> = { '12V': 149, '18V': 249, '36V': 399 };
const KIT_BATTERIES: Readonly<Record<string, string>> = { '12V': '2 x 2.0Ah', '18V': '2 x 5.0Ah', '36V': '2 x 4.0Ah' };

const PITCH: Readonly<Record<BrandDef['tier'], readonly string[]>> = {
  premium: ['made for professionals who expect precision', 'engineered for trades who work to fine tolerances'],
  trade: ['built for tradies who use their tools every day', 'made to handle a full day on site, every day'],
  value: [
    'a dependable choice for home projects and weekend jobs',
    'built for DIYers who want solid results without the trade price',
  ],
};

const GENERAL_TAGS = ['Trade favourite', 'Best seller', 'Staff pick', 'Built tough', 'Great value'] as const;

type Packaging = 'skin' | 'kit' | 'options' | null;

/**
 * Produces products one at a time. Each product draws from its own random stream (seeded by
 * its index), so product N is the same whatever the batch size; only model-number clashes
 * depend on earlier products, and those are resolved in a fixed order.
 */
export function createProductGenerator(seed: number) {
  const subcategories = flattenSubcategories();
  const structure = mulberry32(deriveSeed(seed, STREAM_STRUCTURE, 0));
  // The first products cover every subcategory once, so even a small catalogue fills every page.
  const coverOrder = structure.shuffle(subcategories.map((s) => s.index));
  const shares = subcategories.map((s) => s.def.share ?? 1);
  const usedModels = new Set<string>();
  const usedSkus = new Set<string>();
  const usedStems = new Set<string>();

  function modelNumber(rng: Random, brand: BrandDef, code: string): number {
    for (let attempt = 0; attempt < 40; attempt++) {
      const num = attempt < 30 ? rng.int(100, 999) : rng.int(1000, 9999);
      const key = `${brand.prefix}-${code}${num}`;
      if (!usedModels.has(key)) {
        usedModels.add(key);
        return num;
      }
    }
    for (let num = 10000; ; num++) {
      const key = `${brand.prefix}-${code}${num}`;
      if (!usedModels.has(key)) {
        usedModels.add(key);
        return num;
      }
    }
  }

  function uniqueSku(candidate: string): string {
    let sku = candidate;
    for (let n = 2; usedSkus.has(sku); n++) sku = `${candidate}${n}`;
    usedSkus.add(sku);
    return sku;
  }

  function next(index: number): GeneratedProduct {
    const rng = mulberry32(deriveSeed(seed, STREAM_PRODUCT, index));
    const subcategory =
      index < coverOrder.length
        ? (subcategories[coverOrder[index] ?? 0] as FlatSubcategory)
        : rng.weighted(subcategories, shares);
    const { def, category } = subcategory;
    const brandIndex = rng.weighted(
      subcategory.brandIndexes,
      subcategory.brandIndexes.map((i) => BRANDS[i]?.share ?? 1),
    );
    const brand = BRANDS[brandIndex] as BrandDef;

    const power = rng.pick(def.power);
    const voltage = power === 'cordless' ? (brand.platforms.length ? rng.pick(brand.platforms) : '18V') : null;
    const watts = power === 'corded' && def.watts ? Math.round(rng.int(def.watts[0], def.watts[1]) / 10) * 10 : null;
    const cc = power === 'petrol' && def.cc ? rng.int(def.cc[0], def.cc[1]) : null;
    const prefix = def.prefixes ? rng.pick(def.prefixes) : null;
    const noun = rng.pick(def.nouns);
    const isTool = power === 'cordless' && category.slug !== 'batteries-chargers';
    const brushless = isTool && !noun.includes('Brushless') && rng.chance(0.55);
    const adjective = isTool
      ? brushless
        ? 'Brushless'
        : rng.pick(['', '', 'Compact', 'Heavy Duty'])
      : power === 'corded'
        ? rng.pick(['', '', '', 'Heavy Duty'])
        : '';
    const packaging: Packaging = isTool ? rng.weighted(['skin', 'kit', 'options'] as const, [40, 25, 35]) : null;

    const num = modelNumber(rng, brand, def.code);
    const model = `${brand.prefix}-${def.code}${num}`;
    const suffix = packaging === 'skin' ? '0' : packaging === 'kit' ? 'K' : rng.pick(['A', 'B', 'C', 'S', 'T', 'X']);
    const sku = uniqueSku(skuFor(brand.skuStyle, brand.prefix, def.code, num, suffix));
    let imageStem = slugify(sku);
    for (let n = 2; usedStems.has(imageStem); n++) imageStem = `${slugify(sku)}-${n}`;
    usedStems.add(imageStem);

    const typeName = [
      voltage,
      watts ? `${watts}W` : null,
      cc ? `${cc}cc` : null,
      prefix,
      adjective && !noun.includes(adjective) && !noun.startsWith('Compact') ? adjective : null,
      packaging === 'kit' ? `${noun} Kit` : noun,
    ]
      .filter(Boolean)
      .join(' ');
    const name = `${brand.name} ${typeName} ${model}${packaging === 'skin' ? ' (Skin Only)' : ''}`;

    // Price: log-uniform across the subcategory's range, shifted by brand tier and power source.
    const [low, high] = def.price;
    const baseDollars =
      Math.exp(Math.log(low) + rng.next() * (Math.log(high) - Math.log(low))) *
      TIER_PRICE[brand.tier] *
      POWER_PRICE[power];
    const kitAddon = voltage ? (KIT_ADDON_DOLLARS[voltage] ?? 249) : 0;
    const priceCents = shelfPriceCents(baseDollars + (packaging === 'kit' ? kitAddon : 0));

    const createdAt = new Date(
      BASE_DATE - Math.floor((rng.next() * CATALOGUE_SPAN_DAYS * DAY_MS) / 1000) * 1000 - DAY_MS / 2,
    );
    const ageMs = BASE_DATE - createdAt.getTime();
    const updatedAt = new Date(createdAt.getTime() + Math.floor((rng.next() * ageMs) / 1000) * 1000);
    const ageDays = ageMs / DAY_MS;

    const isActive = !rng.chance(0.01);
    const isClearance = rng.chance(0.06);
    const isFeatured = isActive && rng.chance(0.08);
    const isRedemption = isActive && rng.chance(0.05);
    const discounted = isClearance ? rng.chance(0.85) : rng.chance(0.17);
    const discountPriceCents = discounted
      ? discountedCents(priceCents, isClearance ? 0.2 + rng.next() * 0.3 : 0.1 + rng.next() * 0.25)
      : null;

    const stockRoll = rng.next();
    const stockQuantity =
      stockRoll < 0.05 ? 0 : stockRoll < 0.15 ? rng.int(1, 5) : 6 + Math.floor(244 * rng.next() ** 2);

    const weightGrams = (() => {
      const g = rng.int(def.weight[0], def.weight[1]);
      return g >= 1000 ? Math.round(g / 10) * 10 : Math.round(g / 5) * 5;
    })();
    const dimensions = def.dims
      .map((d) => Math.max(5, Math.round((d * (0.85 + rng.next() * 0.3)) / 5) * 5))
      .join(' x ');
    const warrantyPeriod =
      category.warranty === 'brand'
        ? power === 'petrol'
          ? `${Math.min(brand.warrantyYears, 3)} years`
          : `${brand.warrantyYears} years`
        : (category.warranty[Math.min(TIER_RANK[brand.tier], category.warranty.length - 1)] ?? '12 months');

    const specifications: Record<string, string> = { Model: model };
    if (voltage) {
      specifications.Voltage = voltage;
      specifications['Battery Platform'] = `${brand.name} ${voltage}`;
      if (isTool) specifications.Motor = brushless ? 'Brushless' : 'Brushed';
      if (packaging) {
        specifications['Battery Included'] =
          packaging === 'skin'
            ? 'No (skin only)'
            : packaging === 'kit'
              ? (KIT_BATTERIES[voltage] ?? '2 x 5.0Ah')
              : 'Depends on option';
      }
    }
    if (watts) {
      specifications.Power = `${groupThousands(watts, 0)} W`;
      specifications.Voltage = '240V';
      specifications['Cord Length'] = rng.pick(['2.5 m', '3 m', '4 m']);
    }
    if (cc) {
      specifications.Engine = `${cc} cc`;
      specifications.Fuel = cc < 100 ? '2-stroke mix (25:1)' : 'Unleaded petrol (4-stroke)';
    }
    if (power === 'air') {
      specifications['Air Inlet'] = '1/4" BSP';
      specifications['Working Pressure'] = '90 PSI';
    }
    if (prefix && def.prefixSpec) specifications[def.prefixSpec] = prefix;
    for (const rule of def.specs) specifications[rule.label] = specValue(rng, rule);
    specifications.Weight = formatWeight(weightGrams);

    const features = rng.shuffle(def.features);
    const uses = rng.shuffle(def.uses);
    const shortName = typeName;
    const paragraphs: string[] = [];
    paragraphs.push(
      rng.chance(0.5)
        ? `The ${brand.name} ${shortName} is ${rng.pick(PITCH[brand.tier])}. ${features[0] ?? ''}`
        : `Meet the ${brand.name} ${shortName}, ${rng.pick(PITCH[brand.tier])}. ${features[0] ?? ''}`,
    );
    const powerLine =
      isTool && voltage
        ? `It runs on the ${brand.name} ${voltage} battery platform, so one battery fits every tool in the range.${brushless ? ' The brushless motor runs cooler and gets more work from every charge.' : ''}`
        : watts
          ? `A ${groupThousands(watts, 0)} W motor gives steady power from any 240V outlet, with no batteries to charge.`
          : cc
            ? `The ${cc} cc engine starts easily with a primer bulb and an easy-pull recoil starter.`
            : power === 'air'
              ? 'It runs from any compressor that supplies 90 PSI, through a standard 1/4" BSP inlet.'
              : '';
    paragraphs.push([features[1], features[2], powerLine].filter(Boolean).join(' '));
    const packagingLine =
      packaging === 'skin'
        ? 'Supplied skin only: battery and charger sold separately.'
        : packaging === 'kit'
          ? `Supplied as a kit with ${KIT_BATTERIES[voltage ?? '18V']} batteries, a charger and a carry bag.`
          : packaging === 'options'
            ? `Choose skin only if you already own ${brand.name} batteries, or the kit to get started.`
            : '';
    const [firstUse = '', secondUse = ''] = uses;
    const usesLine =
      firstUse.includes(' and ') || secondUse.includes(' and ')
        ? `Ideal for ${firstUse}, as well as ${secondUse}.`
        : `Ideal for ${firstUse} and ${secondUse}.`;
    paragraphs.push(packagingLine ? `${usesLine} ${packagingLine}` : usesLine);
    if (rng.chance(0.6)) {
      const cover =
        warrantyPeriod === 'Lifetime'
          ? 'a lifetime'
          : `a ${warrantyPeriod.replace(/ years?$/, '-year').replace(/ months?$/, '-month')}`;
      paragraphs.push(`Backed by ${cover} ${brand.name} warranty and supported by our team at the Sydney store.`);
    }

    let tagLine: string | null = null;
    const tagRoll = rng.next();
    if (isClearance && tagRoll < 0.7) tagLine = 'Clearance';
    else if (ageDays < 45 && tagRoll < 0.8) tagLine = 'New release';
    else if (tagRoll < 0.45) {
      const candidates: string[] = [...GENERAL_TAGS];
      if (brushless) candidates.push('Brushless power', 'Brushless power');
      if (packaging === 'kit') candidates.push('Kit deal', 'Kit deal');
      if (discountPriceCents !== null) candidates.push('Hot price');
      if (brand.tier === 'premium') candidates.push('Pro grade');
      if (weightGrams < 2000 && isTool) candidates.push('Compact & light');
      tagLine = rng.pick(candidates);
    }

    const variantSku = (code: string): string => uniqueSku(`${sku}${brand.skuStyle === 'spaced' ? ' ' : '-'}${code}`);
    const variantStock = (): number => (stockQuantity === 0 ? 0 : rng.chance(0.08) ? 0 : rng.int(1, 60));
    const variants: GeneratedVariant[] = [];
    if (packaging === 'options' && voltage) {
      const batteries = KIT_BATTERIES[voltage] ?? '2 x 5.0Ah';
      variants.push(
        {
          name: 'Skin only',
          sku: variantSku('0'),
          priceCents,
          stockQuantity: variantStock(),
          attributes: { Option: 'Skin only' },
        },
        {
          name: `Kit with ${batteries} batteries`,
          sku: variantSku('K2'),
          priceCents: shelfPriceCents(priceCents / 100 + kitAddon),
          stockQuantity: variantStock(),
          attributes: { Option: 'Kit', Batteries: batteries },
        },
      );
    } else if (def.variants === 'size' && rng.chance(0.6)) {
      for (const size of ['S', 'M', 'L', 'XL', '2XL']) {
        variants.push({
          name: `Size ${size}`,
          sku: variantSku(size),
          priceCents,
          stockQuantity: variantStock(),
          attributes: { Size: size },
        });
      }
    } else if (def.variants === 'boot-size' && rng.chance(0.6)) {
      for (let size = 7; size <= 13; size++) {
        variants.push({
          name: `Size ${size}`,
          sku: variantSku(`${size}`),
          priceCents,
          stockQuantity: variantStock(),
          attributes: { Size: `UK ${size}` },
        });
      }
    } else if (def.variants === 'pack' && rng.chance(0.3)) {
      variants.push(
        {
          name: 'Handy pack',
          sku: variantSku('HP'),
          priceCents,
          stockQuantity: variantStock(),
          attributes: { Pack: 'Handy pack' },
        },
        {
          name: 'Trade pack (x5)',
          sku: variantSku('TP'),
          priceCents: shelfPriceCents((priceCents * 4.2) / 100),
          stockQuantity: variantStock(),
          attributes: { Pack: 'Trade pack (x5)' },
        },
      );
    } else if (def.variants === 'colour' && rng.chance(0.5)) {
      for (const colour of ['White', 'Yellow', 'Orange', 'Blue']) {
        variants.push({
          name: colour,
          sku: variantSku(colour.slice(0, 2).toUpperCase()),
          priceCents,
          stockQuantity: variantStock(),
          attributes: { Colour: colour },
        });
      }
    }
    // A product with options is in stock when any option is, so its own count is their sum.
    const totalStock = variants.length ? variants.reduce((sum, v) => sum + v.stockQuantity, 0) : stockQuantity;

    const extraViews = rng.int(1, 3);
    const views: ProductView[] = ['hero'];
    const optional: ProductView[] = ['angle', 'detail', 'specs'];
    const chosen = new Set(rng.shuffle(optional).slice(0, extraViews));
    for (const view of optional) if (chosen.has(view)) views.push(view);
    const altTexts: Record<ProductView, string> = {
      hero: name,
      angle: `${name}, side view`,
      detail: `${name}, close-up detail`,
      specs:
        packaging === 'kit' || packaging === 'options' ? `${name}, what's in the box` : `${name}, key specifications`,
    };
    const specCard =
      packaging === 'kit' || packaging === 'options'
        ? {
            title: "What's in the box",
            rows: [
              ['Tool', `${def.code}${num} ${def.thing}`] as const,
              ['Batteries', packaging === 'kit' ? (KIT_BATTERIES[voltage ?? '18V'] ?? '') : 'Kit option only'] as const,
              ['Charger', packaging === 'kit' ? 'Rapid charger' : 'Kit option only'] as const,
              ['Carry Bag', 'Included'] as const,
            ],
          }
        : {
            title: 'Key specs',
            rows: Object.entries(specifications)
              .filter(([key]) => key !== 'Model' && key !== 'Battery Platform')
              .slice(0, 4)
              .map(([key, value]) => [key, value] as const),
          };

    const reviewRng = mulberry32(deriveSeed(seed, STREAM_REVIEWS, index));
    const quality = reviewRng.next();
    const reviews = generateReviews(reviewRng, {
      count: reviewCount(reviewRng, ageDays),
      quality,
      thing: def.thing,
      uses: def.uses,
      from: createdAt.getTime(),
      to: BASE_DATE,
    });

    return {
      index,
      sku,
      model,
      imageStem,
      name,
      description: paragraphs.join('\n'),
      specifications,
      priceCents,
      discountPriceCents,
      stockQuantity: totalStock,
      brandIndex,
      subcategory,
      tagLine,
      isFeatured,
      isRedemption,
      isClearance,
      isActive,
      weightGrams,
      dimensions: `${dimensions} mm`,
      warrantyPeriod,
      createdAt,
      updatedAt,
      views,
      altTexts,
      variants,
      reviews,
      specCard,
    };
  }

  return { subcategories, next };
}
