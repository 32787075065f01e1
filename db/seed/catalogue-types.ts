import type { IconKey } from './svg-icons.ts';
import type { WordmarkStyle } from './svg-images.ts';

/** How a product is powered decides its name prefix (18V, 1200W, 52cc …) and some specifications. */
export type Power = 'cordless' | 'corded' | 'petrol' | 'air' | 'none';

export type VariantKind = 'size' | 'boot-size' | 'pack' | 'colour';

/** Either a pick from fixed values or a stepped number with a unit. */
export type SpecRule =
  | { label: string; options: readonly string[] }
  | { label: string; min: number; max: number; step: number; unit: string; prefix?: string };

export interface SubcategoryDef {
  name: string;
  slug: string;
  description: string;
  icon: IconKey;
  /** Letters in the model number, e.g. HD in VX-HD791. */
  code: string;
  /** What a reviewer calls it: "this drill". */
  thing: string;
  nouns: readonly string[];
  /** Repeats weight the draw: ['cordless', 'cordless', 'corded'] is two-thirds cordless. */
  power: readonly Power[];
  /** Size or pack prefix in the name for non-powered goods ("20oz", "8m", "6 Piece"). */
  prefixes?: readonly string[];
  /** Specification the prefix also fills in, e.g. Length for "8m". */
  prefixSpec?: string;
  watts?: readonly [number, number];
  cc?: readonly [number, number];
  /** Dollar range before the brand's tier multiplier. */
  price: readonly [number, number];
  weight: readonly [number, number];
  /** Typical L x W x H in mm; each product varies around it. */
  dims: readonly [number, number, number];
  specs: readonly SpecRule[];
  /** Options beyond the skin-only / kit choice that every cordless tool may get. */
  variants?: VariantKind;
  features: readonly string[];
  uses: readonly string[];
  /** Relative share of products; power tools sell more lines than step stools. */
  share?: number;
}

export interface CategoryDef {
  name: string;
  slug: string;
  description: string;
  /** 'brand' means the brand's own power-tool warranty applies. */
  warranty: 'brand' | readonly string[];
  subcategories: readonly SubcategoryDef[];
}

export type SkuStyle = 'dash' | 'compact' | 'spaced' | 'split' | 'dotted' | 'slash';

export interface BrandDef {
  name: string;
  slug: string;
  /** Two letters that start every model number of the brand. */
  prefix: string;
  colour: string;
  wordmark: WordmarkStyle;
  strapline: string;
  description: string;
  categories: readonly string[];
  /** Battery platform voltages for cordless lines. */
  platforms: readonly string[];
  tier: 'value' | 'trade' | 'premium';
  skuStyle: SkuStyle;
  warrantyYears: number;
  share: number;
}
