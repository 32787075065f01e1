import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { emailSchema, optionalPhoneSchema } from '../../contracts/account.ts';
import { COUNTRIES } from '../../contracts/account-fields.ts';
import { AU_STATES, australianStateCode } from '../../contracts/australian-address.ts';
import type { FulfilmentMethod } from '../../contracts/fulfilment.ts';
import { centsToDollars, dollarsToCents, formatDollars } from '../../contracts/money.ts';
import {
  type CardData,
  type CartQuote,
  cardDataSchema,
  ORDER_MESSAGES,
  type Order,
  type ShippingAddress,
  shippingAddressSchema,
} from '../../contracts/orders.ts';
import { isGstFreeExport, priceOrder, type ShippingPlan } from '../../contracts/pricing.ts';
import { FormMessage, inputClass } from '../components/account/form-field.tsx';
import { RouteFailure } from '../components/account/route-failure.tsx';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { OpeningHours } from '../components/opening-hours.tsx';
import { PostalAddress } from '../components/postal-address.tsx';
import { type Cart, cartLines, clearCart, updateCart, useCart } from '../lib/cart.ts';
import { useCartSettled } from '../lib/cart-sync.ts';
import { requireViewer } from '../lib/session.server.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/checkout';

/**
 * Checkout (spec §2, guarded): Shipping → Payment → Confirmation → Complete. The saved
 * addresses and payment methods fill the forms; the browser's cart (in step with the
 * account) is what is bought, priced again by the server when the order is placed.
 * `{ email, name, addresses, paymentMethods, quote, defaultCountry }`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(request, context);
  const { addresses, paymentMethods, cart, shop, memberships } = context.get(shopContext);
  const [savedAddresses, methods, saved, plan] = await Promise.all([
    addresses.list(viewer.user.id),
    paymentMethods.list(viewer.user.id),
    cart.get(viewer.user.id),
    memberships.planOf(viewer.user.id),
  ]);
  return {
    email: viewer.user.email,
    name: viewer.user.name,
    addresses: savedAddresses,
    paymentMethods: methods,
    quote: await cart.quote(saved),
    /** The member's plan: Premium ships free, and checkout's totals must say so too. */
    plan,
    /** The account's phone: the contact phone unless the shopper changes it. */
    phone: viewer.user.phoneNumber ?? '',
    /** Where click & collect orders wait, and when the store is open (SHOP_HOURS, SHOP_CLOSED_DATES). */
    store: {
      name: shop.name,
      address: shop.address,
      phone: shop.phone,
      openingHours: shop.openingHours,
      closedDates: shop.closedDates,
    },
    renderedAt: Date.now(),
    defaultCountry: (COUNTRIES as readonly string[]).includes(shop.address.country)
      ? shop.address.country
      : COUNTRIES[0],
  };
}

export function meta() {
  return [{ title: 'Checkout | Harbour Tools' }, { name: 'robots', content: 'noindex' }];
}

const STEPS = ['Shipping', 'Payment', 'Confirmation', 'Complete'] as const;
type Step = 0 | 1 | 2 | 3;

type ShippingForm = Record<
  'fullName' | 'email' | 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'postalCode' | 'country',
  string
>;
type CardForm = { cardNumber: string; cardName: string; expiryDate: string; cvv: string };
type Errors = Partial<Record<string, string>>;
type Payment = { kind: 'card'; card: CardData } | { kind: 'saved'; id: number; label: string };

function firstErrors(issues: { path: PropertyKey[]; message: string }[], rename: Record<string, string> = {}): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const key = String(issue.path[issue.path.length - 1] ?? 'form');
    const field = rename[key] ?? key;
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A checkout's idempotency key (spec-decisions "Payments"): made once when the page opens, kept across retries. */
function newSessionId(): string {
  const random = crypto.getRandomValues(new Uint32Array(2)).join('');
  return `session_${Date.now()}_${random}`;
}

export default function CheckoutPage({ loaderData }: Route.ComponentProps) {
  const cart = useCart();
  const settled = useCartSettled();
  const [step, setStep] = useState<Step>(0);
  const defaultAddress = loaderData.addresses.find((address) => address.isDefault) ?? loaderData.addresses[0];
  const [shipping, setShipping] = useState<ShippingForm>(() => ({
    fullName: defaultAddress?.fullName ?? loaderData.name,
    email: loaderData.email,
    addressLine1: defaultAddress?.addressLine1 ?? '',
    addressLine2: defaultAddress?.addressLine2 ?? '',
    city: defaultAddress?.city ?? '',
    state: defaultAddress?.state ?? '',
    postalCode: defaultAddress?.postalCode ?? '',
    country: defaultAddress?.country ?? loaderData.defaultCountry,
  }));
  const [card, setCard] = useState<CardForm>({ cardNumber: '', cardName: '', expiryDate: '', cvv: '' });
  const defaultMethod = loaderData.paymentMethods.find((method) => method.isDefault) ?? loaderData.paymentMethods[0];
  const [paymentChoice, setPaymentChoice] = useState<string>(defaultMethod ? String(defaultMethod.id) : 'new');
  const [payment, setPayment] = useState<Payment | null>(null);
  const [address, setAddress] = useState<ShippingAddress | null>(null);
  const [fulfilment, setFulfilment] = useState<FulfilmentMethod>('delivery');
  const [contactPhone, setContactPhone] = useState(loaderData.phone);
  /** The shipping step was completed: the confirmation knows how the order travels. */
  const [shippingDone, setShippingDone] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [placed, setPlaced] = useState<Order | null>(null);
  const sessionId = useRef<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    sessionId.current ??= newSessionId();
  }, []);
  const focusStep = (next: Step) => {
    setStep(next);
    // After the step's content renders, take keyboard and screen-reader users to its heading.
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  const lines = settled ? cart.items : [];
  const empty = settled && lines.length === 0 && !placed;

  const submitShipping = (event: React.FormEvent) => {
    event.preventDefault();
    const email = emailSchema.safeParse(shipping.email);
    const phone = optionalPhoneSchema.safeParse(contactPhone);
    const parsed = fulfilment === 'delivery' ? shippingAddressSchema.safeParse(shipping) : null;
    const next: Errors = {
      ...(parsed && !parsed.success ? firstErrors(parsed.error.issues) : {}),
      ...(email.success ? {} : { email: email.error.issues[0]?.message }),
      ...(phone.success ? {} : { contactPhone: phone.error.issues[0]?.message }),
    };
    setErrors(next);
    if ((parsed && !parsed.success) || !email.success || !phone.success) return;
    setAddress(parsed?.data ?? null);
    setShippingDone(true);
    focusStep(1);
  };

  const submitPayment = (event: React.FormEvent) => {
    event.preventDefault();
    const method = loaderData.paymentMethods.find((candidate) => String(candidate.id) === paymentChoice);
    if (method) {
      setErrors({});
      setPayment({ kind: 'saved', id: method.id, label: `${method.provider} ending ${method.last4Digits}` });
      focusStep(2);
      return;
    }
    const parsed = cardDataSchema.safeParse({
      Number: card.cardNumber,
      Name: card.cardName,
      Expiry: card.expiryDate,
      Cvc: card.cvv,
    });
    if (!parsed.success) {
      setErrors(
        firstErrors(parsed.error.issues, { Number: 'cardNumber', Name: 'cardName', Expiry: 'expiryDate', Cvc: 'cvv' }),
      );
      return;
    }
    setErrors({});
    setPayment({ kind: 'card', card: parsed.data });
    focusStep(2);
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-10">
      <Breadcrumb items={[{ label: 'Cart', href: '/cart' }, { label: 'Checkout' }]} />
      <h1 className="mt-4 font-display text-4xl font-bold uppercase">Checkout</h1>
      <ol
        aria-label="Checkout steps"
        className="mt-4 grid grid-cols-4 gap-1 text-center text-xs font-semibold sm:text-sm"
      >
        {STEPS.map((label, index) => (
          <li
            key={label}
            aria-current={index === step ? 'step' : undefined}
            className={`rounded px-1 py-2 ${index === step ? 'bg-navy-900 text-white' : index < step ? 'bg-navy-100 text-navy-800' : 'bg-gray-100 text-gray-600'}`}
          >
            <span className="hidden sm:inline">{index + 1}. </span>
            {label}
          </li>
        ))}
      </ol>

      {!settled ? (
        <div aria-busy="true" className="mt-6 h-64 animate-pulse rounded-lg bg-gray-100" />
      ) : empty ? (
        <div className="mt-6 rounded-lg border border-dashed border-gray-300 bg-white p-10 text-center">
          <p className="font-display text-3xl font-bold uppercase">Your Cart is Empty</p>
          <Link
            to="/products"
            className="mt-5 inline-block rounded bg-accent px-6 py-3 font-semibold text-ink hover:bg-accent-dark"
          >
            Continue Shopping
          </Link>
        </div>
      ) : (
        <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
          <section aria-labelledby="checkout-step" className="rounded-lg border border-gray-200 bg-white p-5 sm:p-6">
            <h2 id="checkout-step" ref={headingRef} tabIndex={-1} className="font-display text-2xl font-bold uppercase">
              {STEPS[step]}
            </h2>
            {step === 0 ? (
              <ShippingStep
                form={shipping}
                errors={errors}
                addresses={loaderData.addresses}
                fulfilment={fulfilment}
                onFulfilment={(method) => {
                  setErrors({});
                  setFulfilment(method);
                }}
                contactPhone={contactPhone}
                onContactPhone={setContactPhone}
                store={loaderData.store}
                renderedAt={loaderData.renderedAt}
                onChange={setShipping}
                onSubmit={submitShipping}
              />
            ) : null}
            {step === 1 ? (
              <PaymentStep
                card={card}
                errors={errors}
                methods={loaderData.paymentMethods}
                choice={paymentChoice}
                onChoice={setPaymentChoice}
                onChange={setCard}
                onSubmit={submitPayment}
                onBack={() => {
                  setErrors({});
                  focusStep(0);
                }}
              />
            ) : null}
            {step === 2 && shippingDone && payment ? (
              <ConfirmStep
                plan={loaderData.plan}
                cart={cart}
                email={shipping.email}
                fulfilment={fulfilment}
                address={address}
                contactPhone={contactPhone.trim()}
                store={loaderData.store}
                payment={payment}
                sessionId={() => {
                  sessionId.current ??= newSessionId();
                  return sessionId.current;
                }}
                onBack={() => focusStep(1)}
                onPlaced={(order) => {
                  setPlaced(order);
                  sessionId.current = null;
                  updateCart(() => clearCart());
                  focusStep(3);
                }}
              />
            ) : null}
            {step === 3 && placed ? <CompleteStep order={placed} /> : null}
          </section>
          {step < 3 ? (
            <Summary
              lines={lines}
              quote={loaderData.quote}
              pricing={{
                plan: loaderData.plan,
                fulfilment,
                // Until the address is given the quote is Australian (GST shown): spec-decisions "Money".
                country: fulfilment === 'delivery' && shippingDone ? (address?.country ?? null) : null,
              }}
            />
          ) : null}
        </div>
      )}
    </div>
  );
}

function TextInput({
  name,
  label,
  value,
  error,
  onChange,
  ...rest
}: {
  name: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  autoComplete?: string;
  maxLength?: number;
  inputMode?: 'numeric' | 'email' | 'text' | 'tel';
  type?: string;
  optional?: boolean;
  placeholder?: string;
  /** A sentence under the label saying what the field is for. */
  hint?: string;
}) {
  const { optional, hint, ...inputProps } = rest;
  const describedBy = [hint ? `checkout-${name}-hint` : null, error ? `checkout-${name}-error` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div>
      <label htmlFor={`checkout-${name}`} className="block text-sm font-semibold">
        {label}
        {optional ? (
          <span className="font-normal text-gray-600"> (optional)</span>
        ) : (
          <span aria-hidden="true" className="text-sale">
            {' '}
            *
          </span>
        )}
      </label>
      {hint ? (
        <p id={`checkout-${name}-hint`} className="text-xs text-gray-600">
          {hint}
        </p>
      ) : null}
      <input
        id={`checkout-${name}`}
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        aria-required={optional ? undefined : true}
        className={inputClass(Boolean(error))}
        {...inputProps}
      />
      {error ? (
        <p id={`checkout-${name}-error`} className="mt-1 text-sm font-semibold text-sale">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type Store = Route.ComponentProps['loaderData']['store'];

/** "14 Boundary Lane, Silverwater NSW 2128". */
function storeAddressLine(store: Store): string {
  const { address } = store;
  return `${address.street}, ${address.suburb} ${address.state} ${address.postcode}`;
}

function ShippingStep({
  form,
  errors,
  addresses,
  fulfilment,
  onFulfilment,
  contactPhone,
  onContactPhone,
  store,
  renderedAt,
  onChange,
  onSubmit,
}: {
  form: ShippingForm;
  errors: Errors;
  addresses: Route.ComponentProps['loaderData']['addresses'];
  fulfilment: FulfilmentMethod;
  onFulfilment: (method: FulfilmentMethod) => void;
  contactPhone: string;
  onContactPhone: (phone: string) => void;
  store: Store;
  renderedAt: number;
  onChange: (form: ShippingForm) => void;
  onSubmit: (event: React.FormEvent) => void;
}) {
  const set = (field: keyof ShippingForm) => (value: string) => onChange({ ...form, [field]: value });
  const australian = form.country === 'Australia';
  const choices: { value: FulfilmentMethod; label: string; hint: string }[] = [
    { value: 'delivery', label: 'Deliver to an address', hint: 'Australia-wide by courier, with tracking' },
    {
      value: 'collect',
      label: `Click & collect from ${store.address.suburb} (free)`,
      hint: 'Pick it up at our store: no delivery charge',
    },
  ];
  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 grid gap-5 sm:grid-cols-2">
      <fieldset className="sm:col-span-2">
        <legend className="text-sm font-semibold">How would you like to get your order?</legend>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          {choices.map((choice) => (
            <label
              key={choice.value}
              className={`flex cursor-pointer items-start gap-3 rounded border px-4 py-3 ${
                fulfilment === choice.value ? 'border-navy-800 bg-navy-100/60' : 'border-gray-300'
              }`}
            >
              <input
                type="radio"
                name="fulfilment"
                value={choice.value}
                checked={fulfilment === choice.value}
                onChange={() => onFulfilment(choice.value)}
                className="mt-0.5 h-5 w-5 accent-navy-800"
              />
              <span>
                <span className="block font-semibold">{choice.label}</span>
                <span className="block text-sm text-gray-700">{choice.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {fulfilment === 'collect' ? (
        <section
          aria-labelledby="checkout-collect-store"
          className="rounded border border-gray-200 bg-gray-50 p-4 sm:col-span-2"
        >
          <h3 id="checkout-collect-store" className="font-semibold">
            Collect from {store.name}, {store.address.suburb}
          </h3>
          <p className="mt-1 text-sm" data-testid="collect-address">
            {storeAddressLine(store)}
          </p>
          <p className="mt-2 text-sm text-gray-700">
            We e-mail you when your order is ready (usually the same working day). Bring your order number and photo ID.
            Orders not collected within 14 days are cancelled and refunded.
          </p>
          <div className="mt-3 max-w-sm">
            <h4 className="text-sm font-semibold">Opening hours</h4>
            <OpeningHours hours={store.openingHours} closedDates={store.closedDates} renderedAt={renderedAt} />
          </div>
        </section>
      ) : null}
      {fulfilment === 'delivery' && addresses.length > 0 ? (
        <div className="sm:col-span-2">
          <label htmlFor="checkout-saved-address" className="block text-sm font-semibold">
            Use a saved address
          </label>
          <select
            id="checkout-saved-address"
            className={inputClass(false)}
            defaultValue=""
            onChange={(event) => {
              const chosen = addresses.find((address) => String(address.id) === event.target.value);
              if (!chosen) return;
              onChange({
                ...form,
                fullName: chosen.fullName,
                addressLine1: chosen.addressLine1,
                addressLine2: chosen.addressLine2 ?? '',
                city: chosen.city,
                state: chosen.state,
                postalCode: chosen.postalCode,
                country: chosen.country,
              });
            }}
          >
            <option value="">Choose an address…</option>
            {addresses.map((address) => (
              <option key={address.id} value={address.id}>
                {`${address.addressType}: ${address.addressLine1}, ${address.city}${address.isDefault ? ' (default)' : ''}`}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {fulfilment === 'delivery' ? (
        <TextInput
          name="fullName"
          label="Full name"
          autoComplete="name"
          maxLength={100}
          value={form.fullName}
          error={errors.fullName}
          onChange={set('fullName')}
        />
      ) : null}
      <TextInput
        name="email"
        label="Email"
        type="email"
        inputMode="email"
        autoComplete="email"
        maxLength={254}
        value={form.email}
        error={errors.email}
        onChange={set('email')}
      />
      <TextInput
        name="contactPhone"
        label="Contact phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        maxLength={20}
        optional
        hint={
          fulfilment === 'collect'
            ? 'We call this number if there is a question about your order.'
            : 'The courier calls this number if they need to.'
        }
        value={contactPhone}
        error={errors.contactPhone}
        onChange={onContactPhone}
      />
      {fulfilment === 'delivery' ? (
        <>
          <div className="sm:col-span-2">
            <TextInput
              name="address"
              label="Address"
              autoComplete="address-line1"
              maxLength={200}
              value={form.addressLine1}
              error={errors.addressLine1}
              onChange={set('addressLine1')}
            />
          </div>
          <div className="sm:col-span-2">
            <TextInput
              name="addressLine2"
              label="Address line 2"
              optional
              autoComplete="address-line2"
              maxLength={200}
              value={form.addressLine2}
              error={errors.addressLine2}
              onChange={set('addressLine2')}
            />
          </div>
          <TextInput
            name="city"
            label="City"
            autoComplete="address-level2"
            maxLength={100}
            value={form.city}
            error={errors.city}
            onChange={set('city')}
          />
          {australian ? (
            <SelectInput
              name="state"
              label="State"
              autoComplete="address-level1"
              value={form.state}
              error={errors.state}
              onChange={set('state')}
              options={[
                { value: '', label: 'Choose a state or territory…' },
                ...AU_STATES.map((state) => ({ value: state.code, label: `${state.name} (${state.code})` })),
              ]}
            />
          ) : (
            <TextInput
              name="state"
              label="State"
              autoComplete="address-level1"
              maxLength={100}
              value={form.state}
              error={errors.state}
              onChange={set('state')}
            />
          )}
          <TextInput
            name="postalCode"
            label={australian ? 'Postcode' : 'Postal code'}
            autoComplete="postal-code"
            inputMode={australian ? 'numeric' : 'text'}
            maxLength={australian ? 4 : 12}
            value={form.postalCode}
            error={errors.postalCode}
            onChange={set('postalCode')}
          />
          <SelectInput
            name="country"
            label="Country"
            autoComplete="country-name"
            value={form.country}
            error={errors.country}
            onChange={(country) =>
              // A state written for another country is not an Australian state: choose again.
              onChange({
                ...form,
                country,
                state: country === 'Australia' ? australianStateOrBlank(form.state) : form.state,
              })
            }
            options={COUNTRIES.map((country) => ({ value: country, label: country }))}
          />
        </>
      ) : null}
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <button type="submit" className="rounded bg-accent px-6 py-3 font-semibold text-ink hover:bg-accent-dark">
          Continue to Payment
        </button>
        <Link
          to="/cart"
          className="rounded border border-navy-800 px-6 py-3 font-semibold text-navy-800 hover:bg-navy-100"
        >
          Back to Cart
        </Link>
      </div>
    </form>
  );
}

function australianStateOrBlank(state: string): string {
  return australianStateCode(state) ?? '';
}

function SelectInput({
  name,
  label,
  value,
  error,
  onChange,
  options,
  autoComplete,
}: {
  name: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  autoComplete?: string;
}) {
  return (
    <div>
      <label htmlFor={`checkout-${name}`} className="block text-sm font-semibold">
        {label}
        <span aria-hidden="true" className="text-sale">
          {' '}
          *
        </span>
      </label>
      <select
        id={`checkout-${name}`}
        name={name}
        value={value}
        autoComplete={autoComplete}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `checkout-${name}-error` : undefined}
        aria-required={true}
        className={inputClass(Boolean(error))}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`checkout-${name}-error`} className="mt-1 text-sm font-semibold text-sale">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function PaymentStep({
  card,
  errors,
  methods,
  choice,
  onChoice,
  onChange,
  onSubmit,
  onBack,
}: {
  card: CardForm;
  errors: Errors;
  methods: Route.ComponentProps['loaderData']['paymentMethods'];
  choice: string;
  onChoice: (choice: string) => void;
  onChange: (card: CardForm) => void;
  onSubmit: (event: React.FormEvent) => void;
  onBack: () => void;
}) {
  const set = (field: keyof CardForm) => (value: string) => onChange({ ...card, [field]: value });
  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 space-y-5">
      {methods.length > 0 ? (
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold">Pay with</legend>
          {methods.map((method) => (
            <label key={method.id} className="flex items-center gap-3 rounded border border-gray-200 px-4 py-3">
              <input
                type="radio"
                name="payWith"
                value={method.id}
                checked={choice === String(method.id)}
                onChange={() => onChoice(String(method.id))}
                className="h-5 w-5 accent-navy-800"
              />
              <span>
                <strong>{method.provider}</strong> ending {method.last4Digits}
                <span className="block text-xs text-gray-600">{`Expires ${method.expiryMonth}/${method.expiryYear}`}</span>
              </span>
            </label>
          ))}
          <label className="flex items-center gap-3 rounded border border-gray-200 px-4 py-3">
            <input
              type="radio"
              name="payWith"
              value="new"
              checked={choice === 'new'}
              onChange={() => onChoice('new')}
              className="h-5 w-5 accent-navy-800"
            />
            <span className="font-semibold">A new card</span>
          </label>
        </fieldset>
      ) : null}
      {choice === 'new' || methods.length === 0 ? (
        <div className="grid gap-5 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <TextInput
              name="cardNumber"
              label="Card number"
              inputMode="numeric"
              autoComplete="cc-number"
              maxLength={19}
              placeholder="1234 5678 9012 3456"
              value={card.cardNumber}
              error={errors.cardNumber}
              onChange={set('cardNumber')}
            />
          </div>
          <div className="sm:col-span-2">
            <TextInput
              name="cardName"
              label="Name on card"
              autoComplete="cc-name"
              maxLength={100}
              value={card.cardName}
              error={errors.cardName}
              onChange={set('cardName')}
            />
          </div>
          <TextInput
            name="expiryDate"
            label="Expiry date (MM/YY)"
            inputMode="numeric"
            autoComplete="cc-exp"
            maxLength={5}
            placeholder="MM/YY"
            value={card.expiryDate}
            error={errors.expiryDate}
            onChange={set('expiryDate')}
          />
          <TextInput
            name="cvv"
            label="CVV"
            inputMode="numeric"
            autoComplete="cc-csc"
            maxLength={3}
            value={card.cvv}
            error={errors.cvv}
            onChange={set('cvv')}
          />
        </div>
      ) : null}
      <p className="text-xs text-gray-600">
        Your card number and CVV go to the payment gateway only; the shop keeps the last four digits.
      </p>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="rounded bg-accent px-6 py-3 font-semibold text-ink hover:bg-accent-dark">
          Review Order
        </button>
        <button
          type="button"
          onClick={onBack}
          className="rounded border border-navy-800 px-6 py-3 font-semibold text-navy-800 hover:bg-navy-100"
        >
          Back
        </button>
      </div>
    </form>
  );
}

/** How checkout prices the order: the one pricing function's options (plan, delivery or collect, country). */
type Pricing = { plan: ShippingPlan; fulfilment: FulfilmentMethod; country: string | null };

function orderTotals(lines: Cart['items'], pricing: Pricing) {
  return priceOrder(
    lines.map((line) => ({ unitPriceCents: dollarsToCents(line.price), quantity: line.quantity })),
    pricing,
  );
}

function ConfirmStep({
  plan,
  cart,
  email,
  fulfilment,
  address,
  contactPhone,
  store,
  payment,
  sessionId,
  onBack,
  onPlaced,
}: {
  plan: ShippingPlan;
  cart: Cart;
  email: string;
  fulfilment: FulfilmentMethod;
  /** Null for click & collect. */
  address: ShippingAddress | null;
  /** Blank: the account's phone (the server fills it in). */
  contactPhone: string;
  store: Store;
  payment: Payment;
  sessionId: () => string;
  onBack: () => void;
  onPlaced: (order: Order) => void;
}) {
  const [quote, setQuote] = useState<CartQuote | null>(null);
  const [placing, setPlacing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = JSON.stringify(cartLines(cart));

  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/cart/quote', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items: JSON.parse(key) }),
      signal: controller.signal,
    })
      .then(async (response) => (response.ok ? setQuote((await response.json()) as CartQuote) : null))
      .catch(() => {});
    return () => controller.abort();
  }, [key]);

  const problems = quote?.lines.filter((line) => line.problem && line.problem.kind !== 'price_changed') ?? [];
  const pricing: Pricing = { plan, fulfilment, country: address?.country ?? null };
  const totals = quote
    ? priceOrder(
        quote.lines.map((line) => ({
          unitPriceCents: dollarsToCents(line.unitPrice),
          quantity: line.availableQuantity,
        })),
        pricing,
      )
    : orderTotals(cart.items, pricing);
  // Until the server's quote arrives the shopper sees the cart's own lines, not an empty
  // table; Place Order waits for the quote either way.
  const shownLines = quote
    ? quote.lines.map((line) => ({
        key: `${line.productId}:${line.variantId ?? 0}`,
        name: line.name,
        variantName: line.variantName,
        quantity: line.availableQuantity,
        lineTotal: line.lineTotal,
      }))
    : cart.items.map((item) => ({
        key: `${item.id}:${item.variantId ?? 0}`,
        name: item.name,
        variantName: item.variantName ?? null,
        quantity: item.quantity,
        lineTotal: item.totalPrice,
      }));

  const place = async () => {
    if (placing) return;
    setPlacing(true);
    setError(null);
    try {
      const response = await fetch('/api/orders', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          sessionId: sessionId(),
          userEmail: email,
          orderItems: cart.items.map((item) => ({
            productId: item.id,
            variantId: item.variantId ?? null,
            productName: item.name,
            quantity: item.quantity,
            unitPrice: item.price,
            imageUrl: item.image,
          })),
          paymentMethod: 'credit_card',
          paymentMethodId: payment.kind === 'saved' ? payment.id : null,
          cardData: payment.kind === 'card' ? payment.card : null,
          fulfilment,
          contactPhone: contactPhone || null,
          shippingAddress: address,
        }),
      });
      const body = (await response.json().catch(() => ({}))) as { status?: string; message?: string; order?: Order };
      if (response.ok && body.status === 'succeeded' && body.order) {
        onPlaced(body.order);
        return;
      }
      setError(body.message || ORDER_MESSAGES.failed);
    } catch {
      setError(ORDER_MESSAGES.network);
    } finally {
      setPlacing(false);
    }
  };

  return (
    <div className="mt-4 space-y-5">
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {problems.length > 0 ? (
        <FormMessage tone="error">
          Some items changed: {problems.map((line) => `${line.name}: ${line.problem?.message}`).join('; ')}.{' '}
          <Link to="/cart" className="underline">
            Update your cart
          </Link>
        </FormMessage>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {address ? (
          <div>
            <h3 className="text-sm font-bold uppercase tracking-wide text-gray-600">Ship to</h3>
            <PostalAddress address={address} className="mt-1 text-sm not-italic" />
            <p className="mt-1 text-sm text-gray-700">{email}</p>
            {contactPhone ? <p className="text-sm text-gray-700">Courier calls {contactPhone}</p> : null}
          </div>
        ) : (
          <div>
            <h3 className="text-sm font-bold uppercase tracking-wide text-gray-600">Click &amp; collect</h3>
            <p className="mt-1 text-sm">
              {store.name}, {storeAddressLine(store)}
            </p>
            <p className="mt-1 text-sm text-gray-700">{email}</p>
            {contactPhone ? <p className="text-sm text-gray-700">We call {contactPhone} if needed</p> : null}
          </div>
        )}
        <div>
          <h3 className="text-sm font-bold uppercase tracking-wide text-gray-600">Pay with</h3>
          <p className="mt-1 text-sm">
            {payment.kind === 'saved' ? payment.label : `Card ending ${payment.card.Number.slice(-4)}`}
          </p>
        </div>
      </div>
      <table className="w-full text-sm">
        <caption className="sr-only">Items in this order</caption>
        <thead className="border-b border-gray-200 text-left text-xs uppercase tracking-wide text-gray-600">
          <tr>
            <th scope="col" className="py-2">
              Product
            </th>
            <th scope="col" className="py-2 text-right">
              Qty
            </th>
            <th scope="col" className="py-2 text-right">
              Total
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100">
          {shownLines.map((line) => (
            <tr key={line.key}>
              <td className="py-2 pr-2">
                {line.name}
                {line.variantName ? <span className="block text-xs text-gray-600">{line.variantName}</span> : null}
              </td>
              <td className="tabular py-2 text-right">{line.quantity}</td>
              <td className="tabular py-2 text-right">{formatDollars(line.lineTotal)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Totals totals={totals} fulfilment={fulfilment} country={pricing.country} />
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          onClick={place}
          disabled={placing || problems.length > 0 || !quote}
          className="rounded bg-accent px-6 py-3 font-bold uppercase tracking-wide text-ink hover:bg-accent-dark disabled:cursor-wait disabled:opacity-70"
        >
          {placing ? 'Placing Order…' : 'Place Order'}
        </button>
        <button
          type="button"
          onClick={onBack}
          disabled={placing}
          className="rounded border border-navy-800 px-6 py-3 font-semibold text-navy-800 hover:bg-navy-100"
        >
          Back
        </button>
      </div>
    </div>
  );
}

function Totals({
  totals,
  fulfilment,
  country,
}: {
  totals: ReturnType<typeof priceOrder>;
  fulfilment: FulfilmentMethod;
  country: string | null;
}) {
  const exportOrder = fulfilment === 'delivery' && isGstFreeExport(country);
  return (
    <dl className="tabular space-y-1 text-sm">
      <div className="flex justify-between">
        <dt>Subtotal</dt>
        <dd data-testid="checkout-subtotal">{formatDollars(centsToDollars(totals.subtotalCents))}</dd>
      </div>
      <div className="flex justify-between">
        <dt>{exportOrder ? 'GST (GST-free export)' : 'GST (10%)'}</dt>
        <dd data-testid="checkout-gst">{formatDollars(centsToDollars(totals.gstCents))}</dd>
      </div>
      <div className="flex justify-between">
        <dt>{fulfilment === 'collect' ? 'Click & collect' : 'Shipping'}</dt>
        <dd data-testid="checkout-shipping">
          {totals.shippingCents === 0 ? 'Free' : formatDollars(centsToDollars(totals.shippingCents))}
        </dd>
      </div>
      <div className="flex justify-between border-t border-gray-200 pt-2 text-base font-bold">
        <dt>Total</dt>
        <dd data-testid="checkout-total">{formatDollars(centsToDollars(totals.totalCents))}</dd>
      </div>
    </dl>
  );
}

function CompleteStep({ order }: { order: Order }) {
  return (
    <div className="mt-4" role="status">
      <p className="text-lg">
        Thank you! Your order <strong data-testid="order-number">{order.orderNumber}</strong> has been placed.
      </p>
      <p className="mt-2 text-gray-700">
        We sent a confirmation to {order.email}. Total charged: <strong>{formatDollars(order.total)}</strong>.
      </p>
      {order.fulfilment === 'collect' ? (
        <p className="mt-2 text-gray-700">
          Click &amp; collect: we will e-mail you when it is ready. Bring your order number and photo ID.
        </p>
      ) : null}
      <div className="mt-5 flex flex-wrap gap-3">
        <Link
          to={`/orders/${order.id}`}
          className="rounded bg-accent px-6 py-3 font-semibold text-ink hover:bg-accent-dark"
        >
          View Order
        </Link>
        <Link
          to="/products"
          className="rounded border border-navy-800 px-6 py-3 font-semibold text-navy-800 hover:bg-navy-100"
        >
          Continue Shopping
        </Link>
      </div>
    </div>
  );
}

/** The order so far: what the cart holds at today's prices, with shipping now calculated. */
function Summary({ lines, quote, pricing }: { lines: Cart['items']; quote: CartQuote; pricing: Pricing }) {
  const keyOf = (productId: number, variantId: number | null | undefined) => `${productId}:${variantId ?? 0}`;
  const prices = new Map(quote.lines.map((line) => [keyOf(line.productId, line.variantId), line.unitPrice]));
  const totals = priceOrder(
    lines.map((line) => ({
      unitPriceCents: dollarsToCents(prices.get(keyOf(line.id, line.variantId)) ?? line.price),
      quantity: line.quantity,
    })),
    pricing,
  );
  return (
    <aside aria-labelledby="checkout-summary" className="rounded-lg border border-gray-200 bg-white p-5">
      <h2 id="checkout-summary" className="font-display text-2xl font-bold uppercase">
        Order Summary
      </h2>
      <ul className="mt-3 divide-y divide-gray-100 text-sm">
        {lines.map((line) => (
          <li key={keyOf(line.id, line.variantId)} className="flex justify-between gap-3 py-2">
            <span className="min-w-0">
              <span className="line-clamp-2">{line.name}</span>
              {line.variantName ? <span className="block text-xs text-gray-700">{line.variantName}</span> : null}
              <span className="text-xs text-gray-600">Qty {line.quantity}</span>
            </span>
            <span className="tabular shrink-0">
              {formatDollars(
                centsToDollars(
                  dollarsToCents(prices.get(keyOf(line.id, line.variantId)) ?? line.price) * line.quantity,
                ),
              )}
            </span>
          </li>
        ))}
      </ul>
      <div className="mt-3 border-t border-gray-200 pt-3">
        <Totals totals={totals} fulfilment={pricing.fulfilment} country={pricing.country} />
      </div>
    </aside>
  );
}

export function ErrorBoundary() {
  return <RouteFailure title="Checkout" message="We could not load the checkout. Please try again." />;
}
