import { Form } from 'react-router';
import { SubmitButton } from '../account/form-field.tsx';

/** Approve (stock back, refund) or reject (with a reason the customer is told) one return request. */
export function ReturnDecision({ returnId }: { returnId: number }) {
  return (
    <div className="mt-3 flex flex-wrap items-end gap-3">
      <Form method="post" preventScrollReset>
        <input type="hidden" name="returnId" value={returnId} />
        <SubmitButton name="intent" value="approve-return" busyLabel="Approving…" size="sm">
          Approve return
        </SubmitButton>
      </Form>
      <Form method="post" preventScrollReset className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="returnId" value={returnId} />
        <label className="text-sm">
          <span className="block font-semibold">Reason to reject</span>
          <input name="reason" required maxLength={1000} className="mt-1 rounded border border-gray-400 px-2 py-1.5" />
        </label>
        <SubmitButton name="intent" value="reject-return" tone="danger" busyLabel="Rejecting…" size="sm">
          Reject
        </SubmitButton>
      </Form>
    </div>
  );
}
