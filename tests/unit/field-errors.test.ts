import { describe, expect, it } from 'vitest';
import { groupMessagesByField } from '../../contracts/field-errors.ts';

describe('groupMessagesByField', () => {
  it('groups messages per field in order, with fields named like Object properties as plain fields', () => {
    const issues = [
      { field: 'email', message: 'Required' },
      { field: 'constructor', message: 'Unknown' },
      { field: '__proto__', message: 'Unknown' },
      { field: 'email', message: 'Invalid' },
    ];
    const errors = groupMessagesByField(
      issues,
      (issue) => issue.field,
      (issue) => issue.message,
    );
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
    expect(Object.keys(errors)).toEqual(['email', 'constructor', '__proto__']);
    expect(errors.email).toEqual(['Required', 'Invalid']);
    expect(Object.hasOwn(errors, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(errors))).toEqual({
      email: ['Required', 'Invalid'],
      constructor: ['Unknown'],
      ['__proto__']: ['Unknown'],
    });
  });
});
