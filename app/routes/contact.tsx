import { useEffect, useRef } from 'react';
import { data, Form, isRouteErrorResponse, Link, useNavigation, useRouteError, useRouteLoaderData } from 'react-router';
import { z } from 'zod';
import type { AccountSummary } from '../../contracts/account-fields.ts';
import {
  CONTACT_LIMITS,
  type ContactFormValues,
  contactMessageSchema,
  parseOrderNumber,
} from '../../contracts/contact.ts';
import { publicPageHeaders } from '../../contracts/page-cache-headers.ts';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { OpeningHours } from '../components/opening-hours.tsx';
import { readUrlEncodedForm } from '../lib/form-body.ts';
import { requestContext } from '../lib/request-context.ts';
import { absoluteUrl, pageMeta, publicOrigin, storeJsonLd } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/contact';

/** The same for every signed-out shopper: kept rendered by the server's page cache. */
export const headers = publicPageHeaders;

/** A contact form post is a few kilobytes; this leaves room for a long message in any script. */
const CONTACT_FORM_MAX_BYTES = 64 * 1024;

const FIELDS = ['name', 'email', 'phone', 'orderNumber', 'subject', 'message'] as const;

const EMPTY_VALUES: ContactFormValues = { name: '', email: '', phone: '', orderNumber: '', subject: '', message: '' };

/**
 * The contact page: the store's details and hours, and the form prefilled from
 * `?order=` (an order number, e.g. from an order's "Contact Support") and
 * `?subject=`. Invalid values in the URL are ignored, never an error.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { shop } = context.get(shopContext);
  const url = new URL(request.url);
  const orderNumber = parseOrderNumber(url.searchParams.get('order')) ?? '';
  const subjectParam = contactMessageSchema.shape.subject.safeParse(url.searchParams.get('subject') ?? '');
  const subject = subjectParam.success ? subjectParam.data : orderNumber ? `Question about order ${orderNumber}` : '';
  return {
    shop: {
      name: shop.name,
      phone: shop.phone,
      email: shop.email,
      address: shop.address,
      location: shop.location,
      openingHours: shop.openingHours,
      closedDates: shop.closedDates,
      social: shop.social,
    },
    prefill: { ...EMPTY_VALUES, orderNumber, subject },
    renderedAt: Date.now(),
    origin: publicOrigin(shop),
  };
}

type ActionResult =
  | { status: 'sent'; reference: number; name: string; email: string }
  | { status: 'invalid'; errors: Partial<Record<keyof ContactFormValues, string[]>>; values: ContactFormValues }
  | { status: 'failed'; message: string; values: ContactFormValues };

/**
 * Stores a contact message posted by the form (with or without JavaScript).
 * Validates with the same schema as `POST /api/contact`; on a problem it
 * answers 400 (or 429) with the messages per field and everything the shopper
 * typed, so nothing is lost.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readUrlEncodedForm(request, CONTACT_FORM_MAX_BYTES);
  const values = Object.fromEntries(FIELDS.map((field) => [field, form.get(field) ?? ''])) as ContactFormValues;
  const parsed = contactMessageSchema.safeParse(values);
  if (!parsed.success) {
    const { fieldErrors } = z.flattenError(parsed.error);
    return data<ActionResult>({ status: 'invalid', errors: fieldErrors, values }, { status: 400 });
  }
  try {
    const created = await context
      .get(shopContext)
      .contact.send(parsed.data, { clientAddress: context.get(requestContext).clientAddress });
    return data<ActionResult>({
      status: 'sent',
      reference: created.id,
      name: parsed.data.name,
      email: parsed.data.email,
    });
  } catch (error) {
    // Matched by name: importing the error class would pull server code into the page's browser bundle.
    if (error instanceof Error && error.name === 'RateLimitedError') {
      return data<ActionResult>({ status: 'failed', message: error.message, values }, { status: 429 });
    }
    // Keep the form and what was typed on screen rather than an error page; the cause goes to the log.
    console.error('Storing a contact message failed', error);
    return data<ActionResult>(
      { status: 'failed', message: 'We could not send your message just now. Please try again in a moment.', values },
      { status: 500 },
    );
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Contact Us' }];
  const { shop, origin } = loaderData;
  return pageMeta({
    title: `Contact Us | ${shop.name}`,
    description: `Questions about a tool, an order or a trade account? Send ${shop.name} a message, call ${shop.phone} or visit our ${shop.address.suburb} store.`,
    canonical: absoluteUrl(origin, '/contact'),
    siteName: shop.name,
    jsonLd: [storeJsonLd(shop, origin)],
  });
}

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  const { shop, prefill, renderedAt, origin } = loaderData;
  const result = actionData as ActionResult | undefined;
  const phoneHref = `tel:${shop.phone.replace(/[^\d+]/g, '')}`;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:py-10">
      <Breadcrumb items={[{ label: 'Contact Us' }]} origin={origin} />
      <h1 className="mt-4 font-display text-4xl font-bold uppercase sm:text-5xl">Contact Us</h1>
      <p className="mt-2 max-w-2xl text-gray-700">
        Questions about a tool, an order or a trade account? Send us a message and our team will reply by e-mail,
        usually within one business day. For anything urgent, give us a call.
      </p>

      <div className="mt-8 grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section
          aria-labelledby="contact-form-heading"
          className="rounded-lg border border-gray-200 bg-white p-5 sm:p-8"
        >
          {result?.status === 'sent' ? (
            <SentMessage result={result} />
          ) : (
            <ContactForm prefill={prefill} result={result} phone={shop.phone} />
          )}
        </section>

        <aside aria-label="Store details" className="space-y-6">
          <section aria-labelledby="contact-details-heading" className="rounded-lg bg-navy-900 p-6 text-white">
            <h2 id="contact-details-heading" className="font-display text-2xl font-bold uppercase tracking-wide">
              {shop.name}
            </h2>
            <address className="mt-3 space-y-1 not-italic text-gray-200">
              <p>{shop.address.street}</p>
              <p>{`${shop.address.suburb} ${shop.address.state} ${shop.address.postcode}`}</p>
            </address>
            <dl className="mt-4 space-y-2 text-sm">
              <div>
                <dt className="text-gray-300">Phone</dt>
                <dd>
                  <a href={phoneHref} className="text-lg font-semibold text-accent hover:underline">
                    {shop.phone}
                  </a>
                </dd>
              </div>
              <div>
                <dt className="text-gray-300">E-mail</dt>
                <dd>
                  <a
                    href={`mailto:${shop.email}`}
                    className="font-semibold text-white underline-offset-2 hover:underline"
                  >
                    {shop.email}
                  </a>
                </dd>
              </div>
            </dl>
            <Link
              to="/store-locations"
              className="mt-5 inline-block rounded border border-white/40 px-4 py-2 text-sm font-semibold hover:bg-white/10"
            >
              Find the store &amp; directions
            </Link>
          </section>
          <section aria-labelledby="contact-hours-heading" className="rounded-lg border border-gray-200 bg-white p-6">
            <h2 id="contact-hours-heading" className="font-display text-2xl font-bold uppercase">
              Opening hours
            </h2>
            <div className="mt-3">
              <OpeningHours hours={shop.openingHours} closedDates={shop.closedDates} renderedAt={renderedAt} />
            </div>
          </section>
        </aside>
      </div>
    </div>
  );
}

function SentMessage({ result }: { result: Extract<ActionResult, { status: 'sent' }> }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <div role="status" className="text-center sm:py-8">
      <p
        aria-hidden="true"
        className="mx-auto flex size-14 items-center justify-center rounded-full bg-green-50 text-3xl text-stock-in"
      >
        ✓
      </p>
      <h2
        id="contact-form-heading"
        ref={headingRef}
        tabIndex={-1}
        className="mt-4 font-display text-3xl font-bold uppercase"
      >
        Message sent
      </h2>
      <p className="mx-auto mt-3 max-w-md text-gray-700">
        Thanks, {result.name}. We have your message (reference <strong>#{result.reference}</strong>) and will reply to{' '}
        <strong>{result.email}</strong>, usually within one business day.
      </p>
      <Link
        to="/contact"
        className="mt-6 inline-block rounded border border-navy-800 px-5 py-2.5 font-semibold text-navy-800 hover:bg-navy-100"
      >
        Send another message
      </Link>
    </div>
  );
}

const LABELS: Record<keyof ContactFormValues, string> = {
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  orderNumber: 'Order number',
  subject: 'Subject',
  message: 'Message',
};

function ContactForm({
  prefill,
  result,
  phone,
}: {
  prefill: ContactFormValues;
  result: Exclude<ActionResult, { status: 'sent' }> | undefined;
  phone: string;
}) {
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' && navigation.formAction?.startsWith('/contact') === true;
  const values = result?.values ?? prefill;
  const errors = result?.status === 'invalid' ? result.errors : {};
  const errorFields = FIELDS.filter((field) => errors[field]?.length);
  const summaryRef = useRef<HTMLDivElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const account = (useRouteLoaderData('root') as { account?: AccountSummary | null } | undefined)?.account;

  // A signed-in shopper's name and e-mail, filled in once their account part is in (the page is
  // the same for everyone, so not on the server), into fields still empty: never over what they typed.
  // The e-mail is asked for here, not carried in every page's frame data.
  useEffect(() => {
    if (!account) return;
    const fill = (input: HTMLInputElement | null, value: string) => {
      if (input && input.value === '') input.value = value;
    };
    fill(nameRef.current, account.name);
    const abort = new AbortController();
    fetch('/api/users/profile', { headers: { accept: 'application/json' }, signal: abort.signal })
      .then((response) => (response.ok ? (response.json() as Promise<{ email?: unknown }>) : null))
      .then((profile) => {
        if (typeof profile?.email === 'string') fill(emailRef.current, profile.email);
      })
      // Without it the shopper types their e-mail, as a signed-out shopper does.
      .catch(() => {});
    return () => abort.abort();
  }, [account]);

  // After a failed attempt, take keyboard and screen-reader users to the list of problems.
  useEffect(() => {
    if (result) summaryRef.current?.focus();
  }, [result]);

  const fieldProps = (field: keyof ContactFormValues, hint?: boolean) => {
    const describedBy = [hint ? `contact-${field}-hint` : null, errors[field]?.length ? `contact-${field}-error` : null]
      .filter(Boolean)
      .join(' ');
    return {
      id: `contact-${field}`,
      name: field,
      defaultValue: values[field],
      'aria-invalid': errors[field]?.length ? true : undefined,
      'aria-describedby': describedBy || undefined,
      className: `mt-1 block w-full rounded border px-3 py-2.5 text-base shadow-sm focus:border-navy-700 ${
        errors[field]?.length ? 'border-sale bg-red-50/40' : 'border-gray-400'
      }`,
    };
  };

  return (
    <>
      <h2 id="contact-form-heading" className="font-display text-2xl font-bold uppercase">
        Send us a message
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        Fields marked <span aria-hidden="true">*</span>
        <span className="sr-only">with an asterisk</span> are required.
      </p>

      {result ? (
        <div
          ref={summaryRef}
          tabIndex={-1}
          role="alert"
          className="mt-5 rounded border-l-4 border-sale bg-red-50 p-4 text-sm text-ink"
        >
          {result.status === 'failed' ? (
            <p className="font-semibold">
              {result.message} If it’s urgent, call us on {phone}.
            </p>
          ) : (
            <>
              <p className="font-semibold">Please check the highlighted fields:</p>
              <ul className="mt-2 list-disc space-y-1 pl-5">
                {errorFields.map((field) => (
                  <li key={field}>
                    <a href={`#contact-${field}`} className="text-sale underline">
                      {LABELS[field]}: {errors[field]?.[0]}
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      ) : null}

      {/* noValidate: the server's messages (the same as the API's) are shown next to each field instead of the browser's. */}
      <Form method="post" noValidate className="mt-6 grid gap-5 sm:grid-cols-2">
        <Field field="name" required errors={errors.name}>
          <input
            {...fieldProps('name')}
            ref={nameRef}
            type="text"
            autoComplete="name"
            maxLength={CONTACT_LIMITS.name}
            required
            aria-required="true"
          />
        </Field>
        <Field field="email" required errors={errors.email}>
          <input
            {...fieldProps('email')}
            ref={emailRef}
            type="email"
            autoComplete="email"
            inputMode="email"
            maxLength={CONTACT_LIMITS.email}
            required
            aria-required="true"
          />
        </Field>
        <Field field="phone" errors={errors.phone} hint="If you would like a call back">
          <input {...fieldProps('phone', true)} type="tel" autoComplete="tel" maxLength={CONTACT_LIMITS.phone} />
        </Field>
        <Field field="orderNumber" errors={errors.orderNumber} hint="If your message is about an order">
          <input
            {...fieldProps('orderNumber', true)}
            type="text"
            autoComplete="off"
            spellCheck={false}
            maxLength={CONTACT_LIMITS.orderNumber}
          />
        </Field>
        <Field field="subject" required errors={errors.subject} wide>
          <input
            {...fieldProps('subject')}
            type="text"
            maxLength={CONTACT_LIMITS.subject}
            required
            aria-required="true"
          />
        </Field>
        <Field
          field="message"
          required
          errors={errors.message}
          wide
          hint={`At least ${CONTACT_LIMITS.messageMin} characters`}
        >
          <textarea
            {...fieldProps('message', true)}
            rows={7}
            maxLength={CONTACT_LIMITS.message}
            required
            aria-required="true"
          />
        </Field>
        <div className="sm:col-span-2">
          <button
            type="submit"
            disabled={sending}
            className="w-full rounded bg-accent px-6 py-3 font-semibold text-ink hover:bg-accent-dark disabled:cursor-wait disabled:opacity-70 sm:w-auto"
          >
            {sending ? 'Sending…' : 'Send message'}
          </button>
        </div>
      </Form>
    </>
  );
}

function Field({
  field,
  required = false,
  errors,
  hint,
  wide = false,
  children,
}: {
  field: keyof ContactFormValues;
  required?: boolean;
  errors: string[] | undefined;
  hint?: string;
  wide?: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <label htmlFor={`contact-${field}`} className="block text-sm font-semibold text-ink">
        {LABELS[field]}
        {required ? (
          <span aria-hidden="true" className="text-sale">
            {' '}
            *
          </span>
        ) : (
          <span className="font-normal text-gray-600"> (optional)</span>
        )}
      </label>
      {hint ? (
        <p id={`contact-${field}-hint`} className="text-xs text-gray-600">
          {hint}
        </p>
      ) : null}
      {children}
      {errors?.length ? (
        <p id={`contact-${field}-error`} className="mt-1 text-sm font-semibold text-sale">
          {errors[0]}
        </p>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRouteLoaderData('root') as { shop?: { name: string } } | undefined;
  const tooLarge = isRouteErrorResponse(error) && (error.status === 413 || error.status === 415);
  return (
    <section className="mx-auto max-w-3xl px-4 py-20 text-center">
      <title>{`Contact Us | ${root?.shop?.name ?? 'Harbour Tools'}`}</title>
      <h1 className="font-display text-3xl font-bold uppercase">
        {tooLarge ? 'We could not read that message' : 'The contact form is unavailable'}
      </h1>
      <p className="mt-3 text-gray-600">
        {tooLarge
          ? 'The message you sent was too large or not sent from our form. Please shorten it and try again.'
          : 'Something went wrong on our side and your message was not sent. Please try again in a moment, or call or e-mail us.'}
      </p>
      <Link
        to="/contact"
        className="mt-6 inline-block rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark"
      >
        Back to the contact form
      </Link>
    </section>
  );
}
