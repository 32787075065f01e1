/** The Technical Specifications table: one row per specification, label in a row header for screen readers. */
export function SpecTable({ rows, caption }: { rows: [label: string, value: string][]; caption: string }) {
  return (
    <table className="w-full border-collapse overflow-hidden rounded-lg border border-gray-200 text-sm">
      <caption className="sr-only">{caption}</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label} className="border-b border-gray-200 last:border-b-0 even:bg-gray-50">
            <th scope="row" className="w-2/5 px-4 py-2.5 text-left align-top font-semibold text-gray-700">
              {label}
            </th>
            <td className="px-4 py-2.5 align-top text-ink">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
