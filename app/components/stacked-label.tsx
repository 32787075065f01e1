/**
 * A cell's column name, shown beside its value when a `stacked-table` becomes cards on a phone
 * (app/app.css). Hidden from screen readers, which read the column header instead.
 */
export function StackedLabel({ children }: { children: React.ReactNode }) {
  return (
    <span aria-hidden="true" className="font-semibold text-gray-600 sm:hidden">
      {children}
    </span>
  );
}
