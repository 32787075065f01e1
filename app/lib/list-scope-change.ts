import { useLocation, useNavigation } from 'react-router';

/** A category page or a subcategory page: each lists one part of the catalogue. */
const SCOPE_PAGE = /^\/category\/[^/]+(?:\/subcategory\/[^/]+)?\/?$/;

/**
 * Whether a navigation on its way goes to another category or subcategory (a category page, a
 * subcategory page, or the same listing with another `category`). Its list then empties into
 * placeholders while the new one loads (spec-decisions "a list empties while a new category
 * loads"), rather than leaving the old category's products on screen; a filter or a page of
 * the same list keeps them, dimmed.
 */
export function useListScopeChanging(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  const next = navigation.state === 'loading' ? navigation.location : undefined;
  if (!next) return false;
  if (next.pathname !== location.pathname) return SCOPE_PAGE.test(next.pathname);
  const category = (search: string) => new URLSearchParams(search).get('category');
  return category(next.search) !== category(location.search);
}
