import { NavLink } from 'react-router';
import { ACCOUNT_LINKS } from '../account-menu.tsx';
import { Breadcrumb } from '../breadcrumb.tsx';

/**
 * The frame of every account page: breadcrumb, heading, and the account's sections as a
 * side column on a desktop and a scrolling row of tabs on a phone.
 */
export function AccountLayout({
  title,
  intro,
  actions,
  children,
}: {
  title: string;
  intro?: React.ReactNode;
  /** Buttons beside the heading (e.g. 'Add New Address'). */
  actions?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-10">
      <title>{`${title} | Harbour Tools`}</title>
      <meta name="robots" content="noindex" />
      <Breadcrumb items={[{ label: 'My Account', href: '/profile' }, { label: title }]} />
      <div className="mt-4 grid grid-cols-1 gap-6 lg:grid-cols-[14rem_minmax(0,1fr)] lg:gap-10">
        <nav aria-label="My account" className="-mx-4 overflow-x-auto px-4 lg:mx-0 lg:px-0">
          <ul className="flex gap-1 whitespace-nowrap lg:flex-col lg:whitespace-normal">
            {ACCOUNT_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  className={({ isActive }) =>
                    `block rounded px-3 py-2 text-sm font-semibold ${
                      isActive ? 'bg-navy-900 text-white' : 'text-navy-800 hover:bg-navy-100'
                    }`
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="account-heading" className="min-w-0">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <div>
              <h1 id="account-heading" className="font-display text-3xl font-bold uppercase sm:text-4xl">
                {title}
              </h1>
              {intro ? <div className="mt-1 text-gray-700">{intro}</div> : null}
            </div>
            {actions}
          </div>
          <div className="mt-6">{children}</div>
        </section>
      </div>
    </div>
  );
}
