/** Badge colours of spec §4, matched without regard to case: success, warning, info, danger, else secondary. */
const TONES: Record<string, string> = {
  succeeded: 'bg-green-100 text-green-900 ring-green-700/30',
  pending: 'bg-amber-100 text-amber-900 ring-amber-700/30',
  processing: 'bg-sky-100 text-sky-900 ring-sky-700/30',
  cancelled: 'bg-red-100 text-red-900 ring-red-700/30',
};

export function orderStatusTone(status: string): string {
  return TONES[status.toLowerCase()] ?? 'bg-gray-100 text-gray-800 ring-gray-600/30';
}

export function OrderStatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide ring-1 ring-inset ${orderStatusTone(status)}`}
      data-testid="order-status"
    >
      {status}
    </span>
  );
}
