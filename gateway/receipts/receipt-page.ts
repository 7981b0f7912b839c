/**
 * A receipt's public page, `GET /receipts/{token}`: the `qr_url` of webhooks and of the receipt
 * object. e-HDM gives a receipt's QR code as text (TIN, register, serial, receipt id, time, fiscal
 * number, totals), not as a link: this page shows the receipt with that QR code drawn, so the buyer
 * can read it with the tax service's app, and prints the text under it. The token is random (24
 * bytes); the page holds nothing the printed receipt does not (no buyer data). Static: no script.
 */
import QRCode from 'qrcode';
import type { ReceiptRow } from '../../storage/receipt.table.js';
import { escapeHtml } from '../checkout/html.js';
import { toApiInstant } from '../domain/clock.js';
import { ONE_UNIT_MILLI } from '../domain/receipt-lines.js';
import { printedLines, registerNumber } from './receipts.service.js';

/** The QR code of `text` as an inline SVG (error correction M, as printed receipts use). */
export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

function money(amd: number): string {
  return `${amd.toLocaleString('en-US')} AMD`;
}

function quantity(milli: number): string {
  return String(milli / ONE_UNIT_MILLI);
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;padding:1rem;background:#f4f4f5;color:#18181b}
main{max-width:28rem;margin:0 auto;background:#fff;padding:1.25rem;border-radius:.5rem}
h1{font-size:1.2rem;margin:0 0 .75rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem;margin:0 0 1rem}
dt{color:#52525b}dd{margin:0;word-break:break-all}table{width:100%;border-collapse:collapse;margin-bottom:1rem}
th,td{text-align:left;padding:.25rem;border-bottom:1px solid #e4e4e7;vertical-align:top}td.n,th.n{text-align:right}
.test{background:#fef3c7;border:2px solid #b45309;padding:.5rem;font-weight:700;margin-bottom:1rem}
.qr{width:12rem;height:12rem;display:block;margin:0 auto}.qrtext{font-family:monospace;font-size:.75rem;word-break:break-all;color:#52525b}`;

/** The page of `row` (a return is shown with its sale's lines, `sale`). */
export async function receiptPage(row: ReceiptRow, sale: ReceiptRow | undefined): Promise<string> {
  const title = row.type === 'sale' ? 'Receipt / Կտրոն' : 'Return receipt / Վերադարձի կտրոն';
  const banner =
    row.sandbox === 1
      ? '<p class="test">TEST RECEIPT: not a fiscal document. Issued in the sandbox, never sent to the tax service.</p>'
      : '';
  if (row.status !== 'issued') {
    return page(
      title,
      `${banner}<h1>${escapeHtml(title)}</h1><p>This receipt is being issued. Look again in a few minutes.</p>`,
    );
  }
  const shown = printedLines(row, sale);
  const rows = shown
    .map(
      ({ line, quantityMilli }) =>
        `<tr><td>${escapeHtml(line.name)}</td><td class="n">${quantity(quantityMilli)}${line.unit === null ? '' : ` ${escapeHtml(line.unit)}`}</td><td class="n">${money(line.unitPrice)}</td></tr>`,
    )
    .join('');
  const facts: [string, string | null][] = [
    ['Taxpayer', row.taxpayer],
    ['TIN', row.tin],
    ['Address', row.address],
    ['Register (CRN)', registerNumber(row.register)],
    ['Serial number', row.serial_number],
    ['Receipt', row.fiscal_id],
    ['Fiscal number', row.fiscal_number],
    ['Time', toApiInstant(row.issued_at)],
    ['Returns receipt', row.type === 'return' ? (sale?.fiscal_id ?? null) : null],
    ['By card', money(Number(row.card_amount))],
    ['In cash', money(Number(row.cash_amount))],
    ['Total', row.fiscal_total === null ? null : `${row.fiscal_total} AMD`],
  ];
  const dl = facts
    .filter((f): f is [string, string] => f[1] !== null)
    .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`)
    .join('');
  const qr = row.qr_text === null ? '' : await qrSvg(row.qr_text);
  const body = `${banner}<h1>${escapeHtml(title)}</h1><dl>${dl}</dl>
<table><thead><tr><th>Item</th><th class="n">Qty</th><th class="n">Price</th></tr></thead><tbody>${rows}</tbody></table>
${qr === '' ? '' : `<div class="qr" role="img" aria-label="QR code of the receipt">${qr}</div><p class="qrtext">${escapeHtml(row.qr_text ?? '')}</p>`}`;
  return page(title, body);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="hy"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}
