import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { groupMessagesByField } from '../../contracts/field-errors.ts';
import { idSchema, MAX_ID, numberIdSchema } from '../../contracts/params.ts';
import {
  PICTURE_LIMITS,
  PICTURE_MESSAGES,
  productPictureListSchema,
  productPictureSchema,
} from '../../contracts/product-images.ts';
import type { Actor } from '../domain/audit.ts';
import { DomainError, ValidationError } from '../domain/errors.ts';
import { PayloadTooLargeError } from '../domain/media.ts';
import { authOf, requireRole } from '../plugins/auth.ts';
import { errorResponses } from './openapi.ts';

async function actorOf(request: FastifyRequest): Promise<Actor> {
  const { session } = await authOf(request);
  return { userId: session.user.id, email: session.user.email };
}

/** The text fields of the upload form (multipart fields are always text). */
const uploadFieldsSchema = z.object({
  productId: z.coerce
    .number({ error: 'productId must be a product id' })
    .int('productId must be a product id')
    .min(1, 'productId must be a product id')
    .max(MAX_ID, 'productId must be a product id'),
  altText: z
    .string()
    .trim()
    .max(PICTURE_LIMITS.altTextMax, `altText must be ${PICTURE_LIMITS.altTextMax} characters or fewer`)
    .refine((value) => !value.includes('\u0000'), 'altText contains a character that is not allowed')
    .default(''),
  isPrimary: z
    .enum(['true', 'false'], { error: 'isPrimary must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
});

const FIELDS = new Set(['productId', 'altText', 'isPrimary']);

/** Multipart limits: one file of 10 MB, three short fields; anything more is refused while it streams. */
const MULTIPART_LIMITS = {
  fileSize: PICTURE_LIMITS.maxBytes,
  files: 1,
  fields: 3,
  parts: 4,
  fieldSize: 4 * PICTURE_LIMITS.altTextMax + 64,
  fieldNameSize: 40,
  headerPairs: 20,
};

/** Turns the multipart parser's errors into the API's messages (its own are 'reach files limit' and the like). */
function uploadError(error: unknown): never {
  if (error instanceof DomainError) throw error;
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      throw new PayloadTooLargeError(PICTURE_MESSAGES.tooLarge);
    case 'FST_FILES_LIMIT':
      throw new ValidationError(PICTURE_MESSAGES.oneFile, { file: [PICTURE_MESSAGES.oneFile] });
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      throw new DomainError(415, PICTURE_MESSAGES.notMultipart);
    default:
      // Malformed multipart, too many fields or parts, a prototype key, a body cut short.
      throw new ValidationError(PICTURE_MESSAGES.badForm);
  }
}

/** Reads the form: the file into memory (at most 10 MB, refused as it streams past that) and the text fields. */
async function readUpload(request: FastifyRequest): Promise<{ file: Buffer; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw new DomainError(415, PICTURE_MESSAGES.notMultipart);
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: MULTIPART_LIMITS })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new ValidationError(PICTURE_MESSAGES.oneFile, { file: [PICTURE_MESSAGES.oneFile] });
        }
        file = await part.toBuffer();
        continue;
      }
      if (!FIELDS.has(part.fieldname)) continue;
      if (part.fieldname in fields) {
        throw new ValidationError(`Invalid field: ${part.fieldname}`, { [part.fieldname]: ['Send this field once'] });
      }
      if (part.valueTruncated) {
        throw new ValidationError(`Invalid field: ${part.fieldname}`, {
          [part.fieldname]: [`${part.fieldname} is too long`],
        });
      }
      fields[part.fieldname] = String(part.value);
    }
  } catch (error) {
    uploadError(error);
  }
  if (!file || file.length === 0)
    throw new ValidationError(PICTURE_MESSAGES.missing, { file: [PICTURE_MESSAGES.missing] });
  return { file, fields };
}

const pictureParamsSchema = z.object({ productId: idSchema, imageId: idSchema });

/**
 * Product pictures (spec §7 `POST /api/products/images`) and their management in the back
 * office. Admin only: 401 signed out, 403 for a customer, decided in `onRequest`, before a byte
 * of the body is read. Uploads are checked and re-encoded by server/domain/media.ts.
 */
export const productImageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireRole('admin'));
  // Only these routes take multipart bodies; the rest of the API stays JSON.
  await app.register(fastifyMultipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });
  const pictures = app.services.productPictures;
  const tags = ['Admin'];

  app.post(
    '/products/images',
    {
      schema: {
        tags,
        summary: 'Upload a product picture (multipart: file, productId, altText, isPrimary)',
        description:
          'JPEG, PNG, WebP or AVIF by content, at most 10 MB and 40 megapixels. Stored as WebP in sizes ' +
          'fitting 400, 800 and 1600 px with metadata removed, under a generated name. The first picture ' +
          'of a product is its primary one; isPrimary=true makes this one primary.',
        consumes: ['multipart/form-data'],
        response: { 201: productPictureSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { file, fields } = await readUpload(request);
      const parsed = uploadFieldsSchema.safeParse(fields);
      if (!parsed.success) {
        const errors = groupMessagesByField(
          parsed.error.issues,
          (issue) => String(issue.path[0] ?? 'request'),
          (issue) => issue.message,
        );
        const names = Object.keys(errors);
        throw new ValidationError(`Invalid field${names.length > 1 ? 's' : ''}: ${names.join(', ')}`, errors);
      }
      const { productId, altText, isPrimary } = parsed.data;
      const picture = await pictures.add(productId, { file, altText, isPrimary }, await actorOf(request));
      return reply.code(201).send(picture);
    },
  );

  app.get(
    '/products/:productId/images',
    {
      schema: {
        tags,
        summary: "A product's pictures in their order",
        params: z.object({ productId: idSchema }),
        response: { 200: productPictureListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ images: await pictures.list(request.params.productId) }),
  );

  app.delete(
    '/products/:productId/images/:imageId',
    {
      schema: {
        tags,
        summary: 'Delete a picture and its files; the next one becomes primary if it was',
        params: pictureParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await pictures.remove(request.params.productId, request.params.imageId, await actorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/products/:productId/images/:imageId/primary',
    {
      schema: {
        tags,
        summary: "Make a picture the product's primary one",
        params: pictureParamsSchema,
        response: { 200: productPictureListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      images: await pictures.setPrimary(request.params.productId, request.params.imageId, await actorOf(request)),
    }),
  );

  app.put(
    '/products/:productId/images/order',
    {
      schema: {
        tags,
        summary: "Put a product's pictures in order (every picture of the product, each once)",
        params: z.object({ productId: idSchema }),
        body: z.object({
          imageIds: z
            .array(numberIdSchema('imageIds must be picture ids'), {
              error: 'imageIds must be a list of picture ids',
            })
            .max(200, 'imageIds may list at most 200 pictures'),
        }),
        response: { 200: productPictureListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      images: await pictures.reorder(request.params.productId, request.body.imageIds, await actorOf(request)),
    }),
  );
};
