import { Breadcrumb } from '../breadcrumb.tsx';

/** The frame of the sign-in, registration and password pages: one card in the middle of the page. */
export function AuthCard({
  title,
  intro,
  wide = false,
  children,
  footer,
}: {
  title: string;
  intro?: React.ReactNode;
  wide?: boolean;
  children: React.ReactNode;
  footer?: React.ReactNode;
}) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-10">
      <title>{`${title} | Harbour Tools`}</title>
      <meta name="robots" content="noindex" />
      <Breadcrumb items={[{ label: title }]} />
      <div className={`mx-auto mt-6 ${wide ? 'max-w-3xl' : 'max-w-md'}`}>
        <div className="rounded-lg border border-gray-200 bg-white p-5 shadow-sm sm:p-8">
          <h1 className="font-display text-3xl font-bold uppercase sm:text-4xl">{title}</h1>
          {intro ? <div className="mt-2 text-gray-700">{intro}</div> : null}
          <div className="mt-6">{children}</div>
        </div>
        {footer ? <div className="mt-5 text-center text-sm text-gray-700">{footer}</div> : null}
      </div>
    </div>
  );
}
