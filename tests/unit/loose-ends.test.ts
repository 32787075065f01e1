import { describe, expect, it } from 'vitest';
import { domainFailureOf } from '../../app/lib/form-errors.ts';
import { categoryPictureUrl, DEFAULT_CATEGORY_PICTURE } from '../../contracts/category-picture.ts';
import { readableFailureMessage } from '../../contracts/field-errors.ts';
import { ValidationError } from '../../server/domain/errors.ts';

/* Issue 27: the category tile's picture (spec §3) and banners that never name a field by its code name. */

describe('categoryPictureUrl (spec §3: primary image, else the first, else imageUrl, else a default image)', () => {
  const image = (imageUrl: string, isPrimary = false) => ({ imageUrl, isPrimary });

  it('takes the primary image wherever it is in the list', () => {
    expect(categoryPictureUrl({ imageUrl: '/c.svg', images: [image('/a.webp'), image('/b.webp', true)] })).toBe(
      '/b.webp',
    );
  });

  it('else the first image', () => {
    expect(categoryPictureUrl({ imageUrl: '/c.svg', images: [image('/a.webp'), image('/b.webp')] })).toBe('/a.webp');
  });

  it('else imageUrl', () => {
    expect(categoryPictureUrl({ imageUrl: '/c.svg', images: [] })).toBe('/c.svg');
    expect(categoryPictureUrl({ imageUrl: '/c.svg' })).toBe('/c.svg');
  });

  it('else the default picture (a blank or missing imageUrl too)', () => {
    expect(categoryPictureUrl({ imageUrl: null })).toBe(DEFAULT_CATEGORY_PICTURE);
    expect(categoryPictureUrl({ imageUrl: '  ', images: [] })).toBe(DEFAULT_CATEGORY_PICTURE);
    expect(DEFAULT_CATEGORY_PICTURE).toBe('/category-placeholder.svg');
  });
});

describe('readableFailureMessage: no banner shows a field by its code name', () => {
  it.each([
    ['Invalid field: newPassword', { newPassword: ['This password is too common.'] }, 'This password is too common.'],
    [
      'Invalid fields: name, sku',
      { name: ['Product name is required'], sku: ['SKU is required'] },
      'Product name is required SKU is required',
    ],
    ['Invalid query parameter: page', { page: ['page must be a whole number'] }, 'page must be a whole number'],
    ['Invalid field: plan', undefined, 'Please check the form and try again.'],
  ])('%s → the fields’ own messages', (message, errors, readable) => {
    expect(readableFailureMessage(message, errors)).toBe(readable);
  });

  it('keeps a message written for people, and uses a fallback when given', () => {
    expect(readableFailureMessage('Current password is incorrect', undefined)).toBe('Current password is incorrect');
    expect(
      readableFailureMessage('Invalid field: newPassword', { newPassword: ['x'] }, 'Failed to change password'),
    ).toBe('Failed to change password');
  });

  it('domainFailureOf hands the page actions the readable message and keeps the field errors', () => {
    const failure = domainFailureOf(
      new ValidationError('Invalid field: newPassword', { newPassword: ['This password is too common.'] }),
    );
    expect(failure).toEqual({
      status: 400,
      message: 'This password is too common.',
      errors: { newPassword: ['This password is too common.'] },
    });
  });
});
