/** What a category tile shows when the category has no picture at all (spec §3 "else a default image"). */
export const DEFAULT_CATEGORY_PICTURE = '/category-placeholder.svg';

interface CategoryPictures {
  imageUrl: string | null;
  images?: readonly { imageUrl: string; isPrimary: boolean }[] | undefined;
}

/** Spec §3: a category's picture is its primary image, else its first, else `imageUrl`, else the default. */
export function categoryPictureUrl(category: CategoryPictures): string {
  const images = category.images ?? [];
  const chosen = images.find((image) => image.isPrimary)?.imageUrl ?? images[0]?.imageUrl ?? category.imageUrl;
  return chosen?.trim() ? chosen : DEFAULT_CATEGORY_PICTURE;
}
