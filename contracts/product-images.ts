import { z } from 'zod';

/*
 * Product pictures (spec §7 `POST /api/products/images`, the back office's reorder / delete /
 * set-primary): limits, messages and response shapes shared by the API, the upload form and tests.
 */

export const PICTURE_LIMITS = {
  /** Bytes of one uploaded file. */
  maxBytes: 10 * 1024 * 1024,
  /** Width × height as the file's header states it; larger files are refused before decoding. */
  maxPixels: 40_000_000,
  /** The WebP sizes made of each upload: each fits inside a square this big (never enlarged). */
  sizes: [400, 800, 1600],
  /** The size stored as `imageUrl` (what clients without `srcset` show). */
  mainSize: 800,
  altTextMax: 300,
} as const;

export const PICTURE_MESSAGES = {
  type: 'Only JPEG, PNG, WebP or AVIF pictures can be uploaded',
  tooLarge: 'The picture is larger than 10 MB',
  tooManyPixels: 'The picture is larger than 40 megapixels',
  unreadable: 'The picture could not be read: the file is damaged or incomplete',
  missing: 'Choose a picture to upload (field "file")',
  oneFile: 'Send one picture per request, in the field "file"',
  notMultipart: 'Send the picture as multipart/form-data',
  badForm: 'The upload could not be read: send multipart/form-data with the fields file, productId, altText, isPrimary',
  productNotFound: 'Product not found',
  pictureNotFound: 'Picture not found',
  order: 'imageIds must list every picture of the product exactly once',
} as const;

export const productPictureSchema = z
  .object({
    id: z.number().int(),
    productId: z.number().int(),
    imageUrl: z.string().describe('The 800 px WebP (or the largest size when the original is smaller)'),
    srcset: z.string().nullable().describe('Every WebP size as an HTML srcset; null for seeded pictures'),
    altText: z.string(),
    isPrimary: z.boolean(),
    sortOrder: z.number().int(),
  })
  .meta({ id: 'ProductPicture' });

export type ProductPicture = z.infer<typeof productPictureSchema>;

export const productPictureListSchema = z.object({ images: z.array(productPictureSchema) });
