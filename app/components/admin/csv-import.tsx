import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { FormMessage } from '../account/form-field.tsx';

interface ImportReport {
  message?: string;
  applied?: boolean;
  created?: number;
  updated?: number;
  rejected?: { row: number; sku: string; reason: string }[];
}

/** Uploads a product CSV to `POST /api/admin/products/import` and shows its report, row by row. */
export function CsvImport() {
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);
  const revalidator = useRevalidator();
  return (
    <section aria-labelledby="csv-import" className="mt-4 rounded-lg border border-gray-200 bg-white p-4">
      <h2 id="csv-import" className="font-display text-xl font-bold uppercase">
        Import CSV
      </h2>
      <p className="text-sm text-gray-700">
        The export’s columns; rows are matched by SKU (new SKUs are created). If any row has a problem, nothing is
        imported.
      </p>
      <form
        className="mt-3 flex flex-wrap items-center gap-3"
        onSubmit={async (event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          setBusy(true);
          setReport(null);
          try {
            const response = await fetch('/api/admin/products/import', { method: 'POST', body: data });
            setReport((await response.json().catch(() => ({ message: 'The import failed' }))) as ImportReport);
            if (response.ok) revalidator.revalidate();
          } catch {
            setReport({ message: 'Network error. Please check your connection and try again.' });
          } finally {
            setBusy(false);
          }
        }}
      >
        <label className="text-sm font-semibold">
          CSV file
          <input type="file" name="file" accept=".csv,text/csv" required className="ml-2 text-sm" />
        </label>
        <button
          type="submit"
          disabled={busy}
          className="rounded border border-navy-800 px-4 py-2 text-sm font-semibold text-navy-800 hover:bg-navy-100 disabled:opacity-60"
        >
          {busy ? 'Importing…' : 'Import'}
        </button>
      </form>
      {report ? (
        <div className="mt-3">
          <FormMessage tone={report.applied ? 'success' : 'error'}>
            {report.applied
              ? `Imported: ${report.created} created, ${report.updated} updated.`
              : (report.message ?? 'The import failed')}
          </FormMessage>
          {report.rejected?.length ? (
            <ul className="mt-2 max-h-64 list-disc overflow-auto pl-5 text-sm">
              {report.rejected.map((row) => (
                <li key={`${row.row}-${row.sku}`}>
                  Row {row.row}
                  {row.sku ? ` (${row.sku})` : ''}: {row.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
