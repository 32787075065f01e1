import PDFDocument from 'pdfkit';
import { formatDollars } from '../../contracts/money.ts';
import type { Order } from '../../contracts/orders.ts';

export interface InvoiceShop {
  name: string;
  abn: string;
  phone: string;
  email: string;
  address: { street: string; suburb: string; state: string; postcode: string; country: string };
}

const dateFormat = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

/**
 * The order's tax invoice as a PDF (pdfkit's built-in Helvetica, nothing fetched): the shop's
 * name, ABN and address, 'Tax Invoice', order number and date, the lines, subtotal, GST,
 * shipping and total — the same figures as the order page, from the same stored cents.
 */
export function renderInvoicePdf(order: Order, shop: InvoiceShop): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 50,
      info: { Title: `Tax Invoice ${order.orderNumber}`, Author: shop.name },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    const left = 50;
    const right = doc.page.width - 50;
    doc.font('Helvetica-Bold').fontSize(20).text(shop.name, left, 50);
    doc.font('Helvetica').fontSize(9).fillColor('#333333');
    doc.text(`ABN ${shop.abn}`);
    doc.text(
      `${shop.address.street}, ${shop.address.suburb} ${shop.address.state} ${shop.address.postcode}, ${shop.address.country}`,
    );
    doc.text(`${shop.phone} · ${shop.email}`);

    doc
      .fillColor('#000000')
      .font('Helvetica-Bold')
      .fontSize(16)
      .text('Tax Invoice', left, 50, { align: 'right', width: right - left });
    doc.font('Helvetica').fontSize(10);
    doc.text(`Invoice / order ${order.orderNumber}`, { align: 'right', width: right - left });
    doc.text(`Date ${dateFormat.format(new Date(order.createdAt))}`, { align: 'right', width: right - left });
    doc.text(`Status ${order.status} · Payment ${order.paymentStatus}`, { align: 'right', width: right - left });

    let y = 140;
    if (order.shippingAddress) {
      const address = order.shippingAddress;
      doc.font('Helvetica-Bold').text('Ship to', left, y);
      doc
        .font('Helvetica')
        .text(
          [
            address.fullName,
            address.addressLine1,
            address.addressLine2,
            `${address.city} ${address.state} ${address.postalCode}`,
            address.country,
          ]
            .filter(Boolean)
            .join('\n'),
        );
      y = doc.y + 20;
    }

    const columns = { product: left, quantity: 330, unit: 380, total: 470 };
    doc.font('Helvetica-Bold').fontSize(10);
    doc.text('Product', columns.product, y);
    doc.text('Qty', columns.quantity, y, { width: 40, align: 'right' });
    doc.text('Unit price', columns.unit, y, { width: 80, align: 'right' });
    doc.text('Total', columns.total, y, { width: right - columns.total, align: 'right' });
    y += 16;
    doc.moveTo(left, y).lineTo(right, y).strokeColor('#999999').stroke();
    y += 6;
    doc.font('Helvetica').fontSize(9);
    for (const item of order.items) {
      const nameHeight = doc.heightOfString(`${item.productName} (${item.sku})`, { width: 270 });
      if (y + nameHeight > doc.page.height - 150) {
        doc.addPage();
        y = 50;
      }
      doc.text(`${item.productName} (${item.sku})`, columns.product, y, { width: 270 });
      doc.text(String(item.quantity), columns.quantity, y, { width: 40, align: 'right' });
      doc.text(formatDollars(item.unitPrice), columns.unit, y, { width: 80, align: 'right' });
      doc.text(formatDollars(item.lineTotal), columns.total, y, { width: right - columns.total, align: 'right' });
      y += Math.max(nameHeight, 12) + 6;
    }
    doc.moveTo(left, y).lineTo(right, y).strokeColor('#999999').stroke();
    y += 10;

    const totals: [string, string][] = [
      ['Subtotal (excl. GST)', formatDollars(order.subtotal)],
      ['GST (10%)', formatDollars(order.taxAmount)],
      ['Shipping', order.shippingCost === 0 ? 'Free' : formatDollars(order.shippingCost)],
      ['Total (incl. GST)', formatDollars(order.total)],
    ];
    for (const [index, [label, value]] of totals.entries()) {
      const last = index === totals.length - 1;
      doc.font(last ? 'Helvetica-Bold' : 'Helvetica').fontSize(last ? 11 : 10);
      doc.text(label, columns.unit - 100, y, { width: 180, align: 'right' });
      doc.text(value, columns.total, y, { width: right - columns.total, align: 'right' });
      y += last ? 18 : 15;
    }

    doc.font('Helvetica').fontSize(9).fillColor('#333333');
    const paidWith = order.cardLast4
      ? `Paid by ${order.cardBrand ?? 'card'} ending ${order.cardLast4}`
      : 'Payment pending';
    doc.text(`${paidWith}${order.transactionId ? ` · transaction ${order.transactionId}` : ''}`, left, y + 20, {
      width: right - left,
    });
    doc.text(`Prices are in Australian dollars. GST included in the total: ${formatDollars(order.taxAmount)}.`, {
      width: right - left,
    });
    doc.end();
  });
}
