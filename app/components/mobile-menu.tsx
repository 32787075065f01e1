import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { AccountSummary } from '../../contracts/account-fields.ts';
import { ACCOUNT_LINKS, LogoutButton } from './account-menu.tsx';
import { type CategoryList, CategoryMenuContent } from './category-menu.tsx';
import { SHOP_LINKS } from './shop-links.ts';

interface MobileMenuProps {
  categories: CategoryList;
  phone: string;
  account: AccountSummary | null;
}

/**
 * The phone and tablet menu: a button that opens a modal drawer with the account
 * link, the categories and the shop's sections. A native modal <dialog> keeps focus
 * inside while it is open, closes on Escape and hands focus back to the button.
 */
export function MobileMenu({ categories, phone, account }: MobileMenuProps) {
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const close = () => setOpen(false);
  const linkClass = 'block rounded px-4 py-2.5 text-sm font-medium text-ink hover:bg-navy-100';

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        className="flex h-11 items-center gap-1.5 rounded-md px-2.5 text-sm font-semibold hover:bg-white/10"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-7 w-7"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
        >
          <path d="M4 7h16M4 12h16M4 17h16" strokeLinecap="round" />
        </svg>
        <span className="sr-only sm:not-sr-only">Menu</span>
      </button>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Escape already closes a modal dialog; the click only catches the backdrop */}
      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        onClose={() => {
          setOpen(false);
          setExpanded(false);
          buttonRef.current?.focus();
        }}
        onClick={(event) => {
          // A click on the dialog element itself is a click on the backdrop around the drawer.
          if (event.target === event.currentTarget) close();
        }}
        className="fixed inset-y-0 left-0 m-0 h-dvh max-h-none w-[min(22rem,88vw)] max-w-none overflow-y-auto bg-white p-0 text-ink shadow-2xl backdrop:bg-navy-950/70"
      >
        <div className="flex items-center justify-between bg-navy-900 px-4 py-3 text-white">
          <h2 id={titleId} className="font-display text-xl font-bold uppercase tracking-wide">
            Menu
          </h2>
          <button
            type="button"
            onClick={close}
            aria-label="Close menu"
            className="flex h-10 w-10 items-center justify-center rounded-md hover:bg-white/10"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-6 w-6"
              fill="none"
              stroke="currentColor"
              strokeWidth={2}
            >
              <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        {account ? (
          <nav aria-label="Your account (menu)" className="p-3">
            <p className="px-1 pb-2 text-sm text-gray-700">
              Signed in as <strong className="text-ink">{account.name}</strong>
            </p>
            <ul className="grid grid-cols-2 gap-1">
              {ACCOUNT_LINKS.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} onClick={close} className={linkClass}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
            <LogoutButton
              onSubmit={close}
              className="mt-2 block w-full rounded-md border border-navy-800 px-4 py-2.5 text-center text-sm font-bold uppercase tracking-wide text-navy-800 hover:bg-navy-100"
            />
          </nav>
        ) : (
          <div className="p-3">
            <Link
              to="/login"
              data-signed-out-only=""
              onClick={close}
              className="block rounded-md bg-accent px-4 py-2.5 text-center text-sm font-bold uppercase tracking-wide text-ink hover:bg-accent-dark"
            >
              Login
            </Link>
          </div>
        )}
        <nav aria-label="Categories (menu)" className="border-t border-gray-200 py-2">
          <h3 className="px-4 pt-2 pb-1 text-xs font-bold uppercase tracking-wider text-gray-600">Shop by Category</h3>
          <CategoryMenuContent
            categories={categories}
            expanded={expanded}
            onExpand={() => setExpanded(true)}
            onNavigate={close}
          />
        </nav>
        <nav aria-label="Shop sections (menu)" className="border-t border-gray-200 py-2">
          <ul>
            {SHOP_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} onClick={close} className={linkClass}>
                  {link.label}
                </Link>
              </li>
            ))}
            <li>
              <Link to="/membership" onClick={close} className={linkClass}>
                Member Deals
              </Link>
            </li>
            <li>
              <Link to="/store-locations" onClick={close} className={linkClass}>
                Store Locations
              </Link>
            </li>
            <li>
              <Link to="/contact" onClick={close} className={linkClass}>
                Contact Us
              </Link>
            </li>
          </ul>
        </nav>
        <p className="border-t border-gray-200 px-4 py-4 text-sm text-gray-700">
          Questions? Call{' '}
          <a className="font-semibold text-navy-700 underline" href={`tel:${phone.replace(/[^\d+]/g, '')}`}>
            {phone}
          </a>
        </p>
      </dialog>
    </>
  );
}
