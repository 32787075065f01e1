/** The shop's sections besides the categories: the header's category bar and the phone menu list them. */
export const SHOP_LINKS = [
  { to: '/shop-by-brand', label: 'Shop by Brand' },
  { to: '/new-arrivals', label: 'New Arrivals' },
  { to: '/deals', label: 'Deals' },
  { to: '/clearance', label: 'Clearance' },
  { to: '/redemption', label: 'Redemption' },
  { to: '/create-your-kit', label: 'Create Your Kit' },
] as const;

/** A category as the navigation needs it. */
export interface CategoryLink {
  id: number;
  name: string;
}

/** Spec §8's text, word for word, wherever the category list did not load (menus, slider). */
export const CATEGORIES_FAILED = 'Failed to fetch categories';

/** The header dropdown shows this many categories before 'View All Categories (N)' (spec §9). */
export const CATEGORY_MENU_LIMIT = 10;

/** Categories in name order (spec §2); the server already sorts, this keeps the menu right whatever the source. */
export function sortCategories<T extends CategoryLink>(categories: readonly T[]): T[] {
  return [...categories].sort((a, b) => a.name.localeCompare(b.name, 'en-AU'));
}
