import { useEffect, useId, useRef, useState } from 'react';
import { Form, Link, useLocation } from 'react-router';
import type { AccountSummary } from '../../contracts/account-fields.ts';

const PERSON_ICON = (
  <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth={1.8}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c.8-4 4-6 8-6s7.2 2 8 6" strokeLinecap="round" />
  </svg>
);

export const ACCOUNT_LINKS = [
  { to: '/profile', label: 'User Profile' },
  { to: '/orders', label: 'My Orders' },
  { to: '/wishlist', label: 'Wishlist' },
  { to: '/points', label: 'My Points' },
  { to: '/membership', label: 'Membership' },
  { to: '/addresses', label: 'Addresses' },
  { to: '/payment-methods', label: 'Payment Methods' },
  { to: '/account-settings', label: 'Account Settings' },
  { to: '/preferences', label: 'Preferences' },
] as const;

/** The header's Logout: a POST (a link could be fired by any page that embeds it), then home. */
export function LogoutButton({ className, onSubmit }: { className: string; onSubmit?: () => void }) {
  return (
    <Form method="post" action="/logout" onSubmit={onSubmit}>
      <button type="submit" className={className}>
        Logout
      </button>
    </Form>
  );
}

/**
 * The header's account corner (spec §2 "Header"): 'Login' when signed out; when signed
 * in, a button with the shopper's name that opens their links and Logout. Closes on
 * Escape, on a click outside and when the page changes.
 */
export function AccountMenu({ account }: { account: AccountSummary | null }) {
  const location = useLocation();
  // Open on the page where it was opened: following one of its links closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === location.pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? location.pathname : null);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpenOn(null);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!account) {
    const here = `${location.pathname}${location.search}`;
    const loginHref =
      location.pathname === '/' || location.pathname === '/login'
        ? '/login'
        : `/login?redirectTo=${encodeURIComponent(here)}`;
    return (
      <Link
        to={loginHref}
        data-signed-out-only=""
        className="hidden h-11 items-center gap-2 rounded-md px-3 text-sm font-semibold hover:bg-white/10 sm:flex"
      >
        {PERSON_ICON}
        Login
      </Link>
    );
  }

  return (
    <div ref={rootRef} className="relative hidden sm:block">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
        className="flex h-11 max-w-48 items-center gap-2 rounded-md px-3 text-sm font-semibold hover:bg-white/10"
        data-testid="account-menu-button"
      >
        {PERSON_ICON}
        <span className="truncate">
          <span className="sr-only">Account menu for </span>
          {account.firstName}
        </span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 shrink-0" fill="currentColor">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
        </svg>
      </button>
      <div
        id={menuId}
        hidden={!open}
        className="absolute right-0 z-40 mt-1 w-60 overflow-hidden rounded-md border border-gray-200 bg-white py-1 text-ink shadow-lg"
      >
        <p className="border-b border-gray-100 px-4 py-2 text-xs text-gray-600">
          Signed in as <span className="block truncate text-sm font-semibold text-ink">{account.name}</span>
          <span data-testid="menu-points">{account.points.toLocaleString('en-AU')} points</span>
        </p>
        <ul>
          {account.role === 'admin' ? (
            <li>
              <Link
                to="/admin"
                className="block px-4 py-2 text-sm font-semibold hover:bg-navy-100 focus-visible:bg-navy-100"
              >
                Back office
              </Link>
            </li>
          ) : null}
          {ACCOUNT_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="block px-4 py-2 text-sm hover:bg-navy-100 focus-visible:bg-navy-100">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
        <div className="border-t border-gray-100 pt-1">
          <LogoutButton className="block w-full px-4 py-2 text-left text-sm font-semibold hover:bg-navy-100 focus-visible:bg-navy-100" />
        </div>
      </div>
    </div>
  );
}
