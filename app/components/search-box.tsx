import { Form } from 'react-router';

/** The header's product search: submits to /search?term=. */
export function SearchBox() {
  return (
    <Form method="get" action="/search" role="search" className="flex w-full">
      <label htmlFor="site-search" className="sr-only">
        Search products
      </label>
      <input
        id="site-search"
        name="term"
        type="search"
        placeholder="Search drills, saws, model numbers…"
        className="min-w-0 flex-1 rounded-l-md border-0 bg-white px-4 py-2.5 text-ink placeholder:text-gray-500"
      />
      <button type="submit" className="rounded-r-md bg-accent px-5 font-semibold text-ink hover:bg-accent-dark">
        Search
      </button>
    </Form>
  );
}
