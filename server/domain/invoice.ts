import PDFDocument from 'pdfkit';
import { centsToDollars, formatDollars } from '../../contracts/money.ts';
import type { Order } from '../../contracts/orders.ts';
import type { AdjustmentNoteRow } from './refunds.ts';

export interface InvoiceShop {
  name: string;
  abn: string;
  phone: string;
  email: string;
  address: { street: string; suburb: string; state: string; postcode: string; country: string };
}

/**
 * An order's invoice as it was issued: `legacy` for an order placed before the invoice showed
 * the delivery's GST (its stored `shippingGstCents` is null), which keeps the invoice it had.
 */
export interface IssuedInvoice {
  order: Order;
  legacy: boolean;
}

const dateFormat = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

type Doc = InstanceType<typeof PDFDocument>;

/** A pdfkit document collected into a Buffer; `draw` writes its pages. */
function pdf(info: { Title: string; Author: string }, draw: (doc: Doc) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50, info });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

const LEFT = 50;
const COLUMNS = { product: LEFT, quantity: 330, unit: 380, total: 470 };

/** The seller: name, ABN, address and how to reach the shop (every tax invoice and adjustment note names them). */
function drawShop(doc: Doc, shop: InvoiceShop): void {
  doc.font('Helvetica-Bold').fontSize(20).text(shop.name, LEFT, 50);
  doc.font('Helvetica').fontSize(9).fillColor('#333333');
  doc.text(`ABN ${shop.abn}`);
  doc.text(
    `${shop.address.street}, ${shop.address.suburb} ${shop.address.state} ${shop.address.postcode}, ${shop.address.country}`,
  );
  doc.text(`${shop.phone} · ${shop.email}`);
}

/** The document's title and its numbered facts, right-aligned opposite the seller. */
function drawTitle(doc: Doc, title: string, facts: string[]): void {
  const right = doc.page.width - 50;
  doc
    .fillColor('#000000')
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(title, LEFT, 50, { align: 'right', width: right - LEFT });
  doc.font('Helvetica').fontSize(10);
  for (const fact of facts) doc.text(fact, { align: 'right', width: right - LEFT });
}

function addressLines(address: NonNullable<Order['shippingAddress']>): string {
  return [
    address.fullName,
    address.addressLine1,
    address.addressLine2,
    `${address.city} ${address.state} ${address.postalCode}`,
    address.country,
  ]
    .filter(Boolean)
    .join('\n');
}

interface TableLine {
  description: string;
  quantity: number;
  unit: string;
  total: string;
}

/** The lines' table (description, quantity, unit price and line total, ex GST as the spec's columns); answers the y below it. */
function drawLines(
  doc: Doc,
  y: number,
  lines: TableLine[],
  headings: { description: string; unit: string; total: string } = {
    description: 'Product',
    unit: 'Unit price',
    total: 'Total',
  },
): number {
  const right = doc.page.width - 50;
  doc.font('Helvetica-Bold').fontSize(10);
  doc.text(headings.description, COLUMNS.product, y);
  doc.text('Qty', COLUMNS.quantity, y, { width: 40, align: 'right' });
  doc.text(headings.unit, COLUMNS.unit, y, { width: 80, align: 'right' });
  doc.text(headings.total, COLUMNS.total, y, { width: right - COLUMNS.total, align: 'right' });
  let next = y + 16;
  doc.moveTo(LEFT, next).lineTo(right, next).strokeColor('#999999').stroke();
  next += 6;
  doc.font('Helvetica').fontSize(9);
  for (const line of lines) {
    const nameHeight = doc.heightOfString(line.description, { width: 270 });
    if (next + nameHeight > doc.page.height - 150) {
      doc.addPage();
      next = 50;
    }
    doc.text(line.description, COLUMNS.product, next, { width: 270 });
    doc.text(String(line.quantity), COLUMNS.quantity, next, { width: 40, align: 'right' });
    doc.text(line.unit, COLUMNS.unit, next, { width: 80, align: 'right' });
    doc.text(line.total, COLUMNS.total, next, { width: right - COLUMNS.total, align: 'right' });
    next += Math.max(nameHeight, 12) + 6;
  }
  doc.moveTo(LEFT, next).lineTo(right, next).strokeColor('#999999').stroke();
  return next + 10;
}

const EX_GST_HEADINGS = { description: 'Description', unit: 'Unit ex GST', total: 'Total ex GST' };
const PLAIN_HEADINGS = { description: 'Description', unit: 'Unit price', total: 'Total' };

interface TotalRow {
  label: string;
  value: string;
  strong?: boolean;
}

/** The totals, right-aligned under the lines; answers the y below them. */
function drawTotals(doc: Doc, y: number, rows: TotalRow[]): number {
  const right = doc.page.width - 50;
  let next = y;
  for (const row of rows) {
    doc.font(row.strong ? 'Helvetica-Bold' : 'Helvetica').fontSize(row.strong ? 11 : 10);
    doc.text(row.label, COLUMNS.unit - 140, next, { width: 220, align: 'right' });
    doc.text(row.value, COLUMNS.total, next, { width: right - COLUMNS.total, align: 'right' });
    next += row.strong ? 18 : 15;
  }
  return next;
}

function orderLines(order: Order): TableLine[] {
  return order.items.map((item) => ({
    description: `${item.productName}${item.variantName ? `, ${item.variantName}` : ''} (${item.sku})`,
    quantity: item.quantity,
    unit: formatDollars(item.unitPrice),
    total: formatDollars(item.lineTotal),
  }));
}

function paidWith(order: Order): string {
  if (order.pointsSpent > 0) return `Paid with ${order.pointsSpent.toLocaleString('en-AU')} points`;
  return order.cardLast4 ? `Paid by ${order.cardBrand ?? 'card'} ending ${order.cardLast4}` : 'Payment pending';
}

/**
 * The order's tax invoice as a PDF (pdfkit's built-in Helvetica, nothing fetched), drawn from
 * the figures stored with the order: an Australian tax invoice's every field (the words "Tax
 * Invoice", the seller's name and ABN, the date, each line's description, quantity and price,
 * the GST and the total), the delivery's GST share and "GST included in the total". A GST-free
 * export says so and shows no GST; a points order says what paid it, $0.00 and no GST; an order
 * issued before delivery GST was shown keeps the invoice it was issued with.
 */
export function renderInvoicePdf({ order, legacy }: IssuedInvoice, shop: InvoiceShop): Promise<Buffer> {
  if (legacy) return renderLegacyInvoicePdf(order, shop);
  return pdf({ Title: `Tax Invoice ${order.orderNumber}`, Author: shop.name }, (doc) => {
    const right = doc.page.width - 50;
    drawShop(doc, shop);
    drawTitle(doc, 'Tax Invoice', [
      `Invoice number ${order.orderNumber}`,
      `Date ${dateFormat.format(new Date(order.createdAt))}`,
    ]);

    let y = 140;
    if (order.fulfilment === 'collect') {
      doc.font('Helvetica-Bold').text('Click & collect', LEFT, y);
      doc
        .font('Helvetica')
        .text(
          `From our store at ${shop.address.street}, ${shop.address.suburb} ${shop.address.state} ${shop.address.postcode}. Bring your order number (${order.orderNumber}) and photo ID.`,
          { width: 300 },
        );
      // The buyer's identity (an invoice of $1,000 or more must name them): a collect order has no address.
      if (order.email) doc.text(`Customer ${order.email}`, { width: 300 });
      y = doc.y + 20;
    } else if (order.shippingAddress) {
      doc.font('Helvetica-Bold').text('Ship to', LEFT, y);
      doc.font('Helvetica').text(addressLines(order.shippingAddress));
      y = doc.y + 20;
    }

    // Lines are ex GST, as the spec's columns; a GST-free export's or a points order's carry no GST to leave out.
    y = drawLines(
      doc,
      y,
      orderLines(order),
      order.gstFreeExport || order.pointsSpent > 0 ? PLAIN_HEADINGS : EX_GST_HEADINGS,
    );

    const shipping =
      order.fulfilment === 'collect'
        ? 'Click & collect, free'
        : order.shippingCost === 0
          ? 'Free'
          : formatDollars(order.shippingCost);
    let rows: TotalRow[];
    if (order.pointsSpent > 0) {
      rows = [
        { label: 'Paid with', value: `${order.pointsSpent.toLocaleString('en-AU')} points` },
        { label: 'Shipping', value: shipping },
        { label: 'Total', value: formatDollars(order.total), strong: true },
      ];
    } else if (order.gstFreeExport) {
      rows = [
        { label: 'Subtotal', value: formatDollars(order.subtotal) },
        { label: 'GST-free export', value: 'No GST' },
        { label: 'Shipping', value: shipping },
        { label: 'Total', value: formatDollars(order.total), strong: true },
      ];
    } else {
      rows = [
        { label: 'Subtotal (excl. GST)', value: formatDollars(order.subtotal) },
        { label: 'GST (10%)', value: formatDollars(order.taxAmount) },
        { label: 'Shipping', value: shipping },
        ...(order.shippingTaxAmount > 0
          ? [{ label: 'GST included in shipping', value: formatDollars(order.shippingTaxAmount) }]
          : []),
        { label: 'Total (incl. GST)', value: formatDollars(order.total), strong: true },
        { label: 'GST included in the total', value: formatDollars(order.totalTaxAmount), strong: true },
      ];
    }
    y = drawTotals(doc, y, rows);

    doc.font('Helvetica').fontSize(9).fillColor('#333333');
    doc.text(`${paidWith(order)}${order.transactionId ? ` · transaction ${order.transactionId}` : ''}`, LEFT, y + 20, {
      width: right - LEFT,
    });
    const gstLine =
      order.pointsSpent > 0
        ? 'Paid with points: nothing was charged, so no GST is included.'
        : order.gstFreeExport
          ? 'GST-free export: goods delivered outside Australia carry no GST.'
          : order.shippingTaxAmount > 0
            ? `GST included in the total: ${formatDollars(order.taxAmount)} on goods + ${formatDollars(order.shippingTaxAmount)} on delivery = ${formatDollars(order.totalTaxAmount)}.`
            : `GST included in the total: ${formatDollars(order.totalTaxAmount)}.`;
    doc.text(`Prices are in Australian dollars. ${gstLine}`, { width: right - LEFT });
  });
}

/**
 * The invoice of an order placed before the delivery's GST was shown, drawn as it was issued
 * then (its figures and words), except that a points order says what paid it.
 */
function renderLegacyInvoicePdf(order: Order, shop: InvoiceShop): Promise<Buffer> {
  return pdf({ Title: `Tax Invoice ${order.orderNumber}`, Author: shop.name }, (doc) => {
    const right = doc.page.width - 50;
    drawShop(doc, shop);
    drawTitle(doc, 'Tax Invoice', [
      `Invoice / order ${order.orderNumber}`,
      `Date ${dateFormat.format(new Date(order.createdAt))}`,
      `Status ${order.status} · Payment ${order.paymentStatus}`,
    ]);

    let y = 140;
    if (order.shippingAddress) {
      doc.font('Helvetica-Bold').text('Ship to', LEFT, y);
      doc.font('Helvetica').text(addressLines(order.shippingAddress));
      y = doc.y + 20;
    }
    y = drawLines(
      doc,
      y,
      order.items.map((item) => ({
        description: `${item.productName} (${item.sku})`,
        quantity: item.quantity,
        unit: formatDollars(item.unitPrice),
        total: formatDollars(item.lineTotal),
      })),
    );
    const totals: [string, string][] = [
      ['Subtotal (excl. GST)', formatDollars(order.subtotal)],
      ['GST (10%)', formatDollars(order.taxAmount)],
      ['Shipping', order.shippingCost === 0 ? 'Free' : formatDollars(order.shippingCost)],
      ['Total (incl. GST)', formatDollars(order.total)],
    ];
    for (const [index, [label, value]] of totals.entries()) {
      const last = index === totals.length - 1;
      doc.font(last ? 'Helvetica-Bold' : 'Helvetica').fontSize(last ? 11 : 10);
      doc.text(label, COLUMNS.unit - 100, y, { width: 180, align: 'right' });
      doc.text(value, COLUMNS.total, y, { width: right - COLUMNS.total, align: 'right' });
      y += last ? 18 : 15;
    }

    doc.font('Helvetica').fontSize(9).fillColor('#333333');
    doc.text(`${paidWith(order)}${order.transactionId ? ` · transaction ${order.transactionId}` : ''}`, LEFT, y + 20, {
      width: right - LEFT,
    });
    doc.text(`Prices are in Australian dollars. GST included in the total: ${formatDollars(order.taxAmount)}.`, {
      width: right - LEFT,
    });
  });
}

const money = (cents: number) => formatDollars(centsToDollars(cents));

/**
 * A refund's adjustment note (the ATO's credit note) as a PDF: the words "Adjustment note", its
 * own number, the seller's name and ABN, its date, the original tax invoice's number, the lines
 * refunded, the GST adjusted (goods and, when the delivery was refunded, delivery), the total
 * refunded and the reason — from the figures stored with the note.
 */
export function renderAdjustmentNotePdf(order: Order, note: AdjustmentNoteRow, shop: InvoiceShop): Promise<Buffer> {
  return pdf({ Title: `Adjustment note ${note.noteNumber}`, Author: shop.name }, (doc) => {
    const right = doc.page.width - 50;
    drawShop(doc, shop);
    drawTitle(doc, 'Adjustment note', [
      `Adjustment note number ${note.noteNumber}`,
      `Date ${dateFormat.format(note.createdAt)}`,
      `Original tax invoice ${order.orderNumber}`,
      `Invoice date ${dateFormat.format(new Date(order.createdAt))}`,
    ]);

    let y = 150;
    if (order.shippingAddress) {
      doc.font('Helvetica-Bold').fontSize(10).text('Customer', LEFT, y);
      doc.font('Helvetica').text(addressLines(order.shippingAddress));
      y = doc.y + 14;
    } else if (order.email) {
      doc.font('Helvetica-Bold').fontSize(10).text('Customer', LEFT, y);
      doc.font('Helvetica').text(order.email);
      y = doc.y + 14;
    }
    doc.font('Helvetica-Bold').fontSize(10).text('Reason', LEFT, y);
    doc.font('Helvetica').text(note.reason, { width: right - LEFT });
    y = doc.y + 16;

    y = drawLines(
      doc,
      y,
      note.lines.map((line) => ({
        description: `${line.productName} (${line.sku})`,
        quantity: line.quantity,
        unit: money(line.unitPriceCents),
        total: money(line.totalCents),
      })),
      order.gstFreeExport ? PLAIN_HEADINGS : EX_GST_HEADINGS,
    );
    const gstFree = order.gstFreeExport;
    const adjusted = note.gstCents + note.shippingGstCents;
    const rows: TotalRow[] = [
      { label: gstFree ? 'Goods refunded' : 'Goods refunded (excl. GST)', value: money(note.subtotalCents) },
      ...(gstFree ? [] : [{ label: 'GST on goods adjusted', value: money(note.gstCents) }]),
      ...(note.shippingCents > 0 ? [{ label: 'Delivery refunded', value: money(note.shippingCents) }] : []),
      ...(note.shippingGstCents > 0
        ? [{ label: 'GST on delivery adjusted (included)', value: money(note.shippingGstCents) }]
        : []),
      { label: gstFree ? 'Total refunded' : 'Total refunded (incl. GST)', value: money(note.totalCents), strong: true },
      { label: 'GST adjusted', value: gstFree ? 'No GST (GST-free export)' : money(adjusted), strong: true },
    ];
    y = drawTotals(doc, y, rows);

    doc.font('Helvetica').fontSize(9).fillColor('#333333');
    const refundedTo = order.cardLast4
      ? `Refunded to ${order.cardBrand ?? 'card'} ending ${order.cardLast4}`
      : 'Refunded';
    doc.text(`${refundedTo}${note.refundId ? ` · refund ${note.refundId}` : ''}`, LEFT, y + 20, {
      width: right - LEFT,
    });
    doc.text(
      gstFree
        ? `Amounts are in Australian dollars. Tax invoice ${order.orderNumber} was a GST-free export: no GST to adjust.`
        : `Amounts are in Australian dollars. This note reduces the GST on tax invoice ${order.orderNumber} by ${money(adjusted)}.`,
      { width: right - LEFT },
    );
    if (note.shippingCents === 0 && order.shippingCost > 0) {
      doc.text('The delivery charge is not refunded: the delivery was made.', { width: right - LEFT });
    }
  });
}
