import { z } from 'zod';

/** Field limits, shared so the form's maxLength attributes match what the server accepts. */
export const CONTACT_LIMITS = {
  name: 100,
  email: 254,
  phone: 20,
  subject: 150,
  messageMin: 10,
  message: 5000,
  orderNumber: 40,
} as const;

/** Digits, spaces, brackets, dashes and a leading +; 6–15 digits in all (ITU E.164 allows 15). */
const PHONE_PATTERN = /^\+?[\d\s()-]+$/;
const ORDER_NUMBER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** A required text field whose message is the same whether it is missing, blank or not text. */
function requiredText(label: string, missing: string, max: number) {
  return (
    z
      .string({
        error: (issue) => (issue.input === undefined || issue.input === null ? missing : `${label} must be text`),
      })
      .trim()
      .min(1, missing)
      .max(max, `${label} must be ${max.toLocaleString('en-AU')} characters or fewer`)
      // PostgreSQL text cannot hold U+0000: a field error, never a failed insert.
      .refine((value) => !value.includes('\u0000'), `${label} contains a character that is not allowed`)
  );
}

/** An optional text field: blank, null or missing all mean "not given". */
function optionalText(label: string, max: number, check: (value: string) => boolean, invalid: string) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be ${max} characters or fewer`)
    .refine((value) => value === '' || check(value), invalid)
    .refine((value) => !value.includes('\u0000'), `${label} contains a character that is not allowed`)
    .nullish()
    .transform((value) => value || undefined);
}

/**
 * A message sent through the contact form (`/contact`) or `POST /api/contact`.
 * One schema for both, so a shopper sees the same messages the API returns.
 */
export const contactMessageSchema = z
  .object({
    name: requiredText('Name', 'Please enter your name', CONTACT_LIMITS.name),
    email: z
      .string({ error: 'Please enter your email address' })
      .trim()
      .min(1, 'Please enter your email address')
      .max(CONTACT_LIMITS.email, 'Please enter a valid email address, e.g. name@example.com')
      .pipe(z.email('Please enter a valid email address, e.g. name@example.com')),
    phone: optionalText(
      'Phone number',
      CONTACT_LIMITS.phone,
      (value) => {
        const digits = value.replace(/\D/g, '').length;
        return PHONE_PATTERN.test(value) && digits >= 6 && digits <= 15;
      },
      'Please enter a valid phone number, e.g. 0412 345 678',
    ),
    subject: requiredText('Subject', 'Please enter a subject', CONTACT_LIMITS.subject),
    message: requiredText('Message', 'Please enter your message', CONTACT_LIMITS.message).refine(
      (value) => value.length >= CONTACT_LIMITS.messageMin,
      `Please tell us a little more (at least ${CONTACT_LIMITS.messageMin} characters)`,
    ),
    orderNumber: optionalText(
      'Order number',
      CONTACT_LIMITS.orderNumber,
      (value) => ORDER_NUMBER_PATTERN.test(value),
      'Order numbers contain only letters, numbers and dashes',
    ),
  })
  .meta({ id: 'ContactMessageInput' });

export type ContactMessageInput = z.output<typeof contactMessageSchema>;

/** The fields a shopper types, as text: what the form sends back after a failed attempt. */
export type ContactFormValues = Record<keyof ContactMessageInput, string>;

export const contactMessageCreatedSchema = z
  .object({
    id: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'ContactMessageCreated' });

export type ContactMessageCreated = z.infer<typeof contactMessageCreatedSchema>;

/** Parses an order number from a link (`/contact?order=…`); anything that is not one is ignored. */
export function parseOrderNumber(value: string | null | undefined): string | undefined {
  const parsed = contactMessageSchema.shape.orderNumber.safeParse(value ?? undefined);
  return parsed.success ? parsed.data : undefined;
}
