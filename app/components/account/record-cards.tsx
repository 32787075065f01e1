import { Form, Link } from 'react-router';
import { SubmitButton } from './form-field.tsx';

interface RecordCardProps {
  id: number;
  isDefault: boolean;
  /** What the card is, for button names read aloud ("Edit Home address"). */
  label: string;
  editHref: string;
  deleteConfirm: string;
  children: React.ReactNode;
}

/**
 * One saved address or payment method (spec §2): a Default badge on the default one, Edit,
 * Delete (after the spec's confirm text) and Set as Default on the others only.
 */
export function RecordCard({ id, isDefault, label, editHref, deleteConfirm, children }: RecordCardProps) {
  return (
    <li
      className={`flex h-full flex-col rounded-lg border bg-white p-5 ${isDefault ? 'border-navy-700 ring-1 ring-navy-700' : 'border-gray-200'}`}
      data-testid="record-card"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 flex-1 text-sm leading-relaxed">{children}</div>
        {isDefault ? (
          <span className="shrink-0 rounded bg-navy-900 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-white">
            Default
          </span>
        ) : null}
      </div>
      <div className="mt-auto flex flex-wrap items-center gap-2 pt-4">
        <Link
          to={editHref}
          preventScrollReset
          aria-label={`Edit ${label}`}
          className="rounded border border-navy-800 px-3 py-1.5 text-sm font-semibold text-navy-800 hover:bg-navy-100"
        >
          Edit
        </Link>
        <Form
          method="post"
          preventScrollReset
          onSubmit={(event) => {
            if (!window.confirm(deleteConfirm)) event.preventDefault();
          }}
        >
          <input type="hidden" name="id" value={id} />
          <button
            type="submit"
            name="intent"
            value="delete"
            aria-label={`Delete ${label}`}
            className="rounded border border-sale px-3 py-1.5 text-sm font-semibold text-sale hover:bg-red-50"
          >
            Delete
          </button>
        </Form>
        {isDefault ? null : (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="id" value={id} />
            <SubmitButton name="intent" value="set-default" tone="secondary" busyLabel="Saving…" size="sm">
              Set as Default
            </SubmitButton>
          </Form>
        )}
      </div>
    </li>
  );
}

/** The list of cards, or the spec's empty text with a way to add the first one. */
export function RecordCards({
  empty,
  addHref,
  addLabel,
  children,
  count,
}: {
  empty: string;
  addHref: string;
  addLabel: string;
  count: number;
  children: React.ReactNode;
}) {
  if (count === 0) {
    return (
      <div className="rounded-lg border border-dashed border-gray-300 bg-white p-8 text-center">
        <p className="font-display text-2xl font-bold uppercase">{empty}</p>
        <Link
          to={addHref}
          preventScrollReset
          className="mt-4 inline-block rounded bg-accent px-5 py-2.5 font-semibold text-ink hover:bg-accent-dark"
        >
          {addLabel}
        </Link>
      </div>
    );
  }
  return <ul className="grid gap-4 md:grid-cols-2">{children}</ul>;
}
