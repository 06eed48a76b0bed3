import { taxLabel } from './invoice-page';
import { formatDate, formatMoney } from '../core/format-money';
import type { Invoice } from '../objects/invoice';

/** An invoice as a one-page PDF (PDF 1.4, Helvetica, text only). */
export function invoicePdf(invoice: Invoice, accountName: string): Buffer {
  const lines = [
    `${accountName}`,
    `Invoice ${invoice.number ?? invoice.id}`,
    `Status: ${invoice.status}`,
    `Date: ${formatDate(invoice.created)}`,
    `Billed to: ${invoice.customer_email ?? invoice.customer}`,
    '',
    ...invoice.lines.data.map((line) => `${line.description}   ${formatMoney(line.amount, line.currency)}`),
    ...invoice.total_taxes.map((tax) => `${taxLabel(tax)}   ${formatMoney(tax.amount, invoice.currency)}`),
    '',
    `Total: ${formatMoney(invoice.total, invoice.currency)}`,
    `Amount due: ${formatMoney(invoice.amount_due, invoice.currency)}`,
    `Amount paid: ${formatMoney(invoice.amount_paid, invoice.currency)}`,
  ];
  const text = lines.map((line, index) => `BT /F1 ${index < 2 ? 14 : 10} Tf 50 ${790 - index * 18} Td (${pdfString(line)}) Tj ET`).join('\n');
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ]);
}

// Latin-1 only (the font's encoding); parentheses and backslashes escaped.
function pdfString(text: string): string {
  return text
    .replace(/€/g, 'EUR ')
    .replace(/[^\x20-\x7e\xa0-\xff]/g, '?')
    .replace(/[\\()]/g, (c) => `\\${c}`);
}

// Objects numbered from 1, with the cross-reference table of their byte offsets.
function buildPdf(objects: string[]): Buffer {
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
