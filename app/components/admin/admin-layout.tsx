import { isRouteErrorResponse, Link, NavLink, useRouteError } from 'react-router';

const ADMIN_LINKS = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/products', label: 'Products', end: false },
  { to: '/admin/orders', label: 'Orders', end: false },
  { to: '/admin/returns', label: 'Returns', end: false },
  { to: '/admin/messages', label: 'Messages', end: false },
  { to: '/admin/security', label: 'Security', end: false },
] as const;

/** The back office's frame: a dark strip of its sections above the page. */
export function AdminLayout({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-8">
      <title>{`${title} | Admin | Harbour Tools`}</title>
      <meta name="robots" content="noindex" />
      <nav aria-label="Back office" className="-mx-4 overflow-x-auto bg-navy-900 px-4 sm:mx-0 sm:rounded-lg">
        <ul className="flex gap-1 whitespace-nowrap py-2">
          <li className="mr-3 flex items-center font-display text-lg font-bold uppercase tracking-wide text-accent">
            Admin
          </li>
          {ADMIN_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                end={link.end}
                className={({ isActive }) =>
                  `block rounded px-3 py-2 text-sm font-semibold ${isActive ? 'bg-accent text-ink' : 'text-white hover:bg-white/10'}`
                }
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6 flex flex-wrap items-end justify-between gap-3">
        <h1 className="font-display text-3xl font-bold uppercase sm:text-4xl">{title}</h1>
        {actions}
      </div>
      <div className="mt-6">{children}</div>
    </div>
  );
}

/** Every admin page's error boundary: 403 → 'not allowed' (a customer), 404 → not found, else a failure with Try Again. */
export function AdminError({ failure }: { failure: string }) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = status === 403 ? 'Not allowed' : status === 404 ? 'Not found' : 'Something went wrong';
  const text =
    status === 403
      ? 'This page is for the shop’s staff only. If you work here, sign in with your staff account.'
      : status === 404
        ? 'We could not find that.'
        : failure;
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 text-center">
      <title>{`${title} | Harbour Tools`}</title>
      <meta name="robots" content="noindex" />
      <h1 className="font-display text-3xl font-bold uppercase">{title}</h1>
      <p role="alert" className="mt-3 text-gray-700">
        {text}
      </p>
      <Link
        to={status === 403 ? '/' : '/admin'}
        className="mt-6 inline-block rounded bg-accent px-5 py-3 font-semibold text-ink hover:bg-accent-dark"
      >
        {status === 403 ? 'Back to the shop' : 'Back to the dashboard'}
      </Link>
    </section>
  );
}
