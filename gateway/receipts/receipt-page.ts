/**
 * A receipt's public page, `GET /receipts/{token}`: the `qr_url` of webhooks and of the receipt
 * object. e-HDM gives a receipt's QR code as text (TIN, register, serial, receipt id, time, fiscal
 * number, totals), not as a link: this page shows the receipt with that QR code drawn, so the buyer
 * can read it with the tax service's app, and prints the text under it. The token is random (24
 * bytes); the page holds nothing the printed receipt does not (no buyer data). Static: no script.
 *
 * The page speaks the buyer's language (`?lang=`, else `Accept-Language`, else Armenian, the
 * language of the fiscal document itself), with the terms printed on Armenian receipts (ՀԴՄ կտրոն,
 * ՀՎՀՀ, Անկանխիկ, Ընդամենը); a sandbox receipt says in that language that it is not a fiscal
 * document.
 */
import QRCode from 'qrcode';
import type { ReceiptRow } from '../../storage/receipt.table.js';
import { escapeHtml } from '../checkout/html.js';
import { ONE_UNIT_MILLI } from '../domain/receipt-lines.js';
import { formatAmd, formatDateTimeWithZone, formatNumber } from '../i18n/format.js';
import { isLanguage, LANGUAGES, type Language, LOCALES } from '../i18n/languages.js';
import { type Catalog, defineMessages } from '../i18n/messages.js';
import { printedLines, registerNumber } from './receipt-response.js';

export interface ReceiptPageMessages {
  readonly languageName: string;
  readonly saleTitle: string;
  readonly returnTitle: string;
  readonly testBanner: string;
  readonly beingIssued: string;
  readonly notFound: string;
  readonly taxpayer: string;
  readonly tin: string;
  readonly address: string;
  readonly register: string;
  readonly serial: string;
  readonly receipt: string;
  readonly fiscalNumber: string;
  readonly time: string;
  readonly returnsReceipt: string;
  readonly byCard: string;
  readonly inCash: string;
  readonly total: string;
  readonly item: string;
  readonly quantity: string;
  readonly price: string;
  readonly qrLabel: string;
}

const en: Catalog<ReceiptPageMessages> = {
  languageName: 'English',
  saleTitle: 'Receipt',
  returnTitle: 'Return receipt',
  testBanner: 'TEST RECEIPT: not a fiscal document. Issued in test mode, never sent to the tax service.',
  beingIssued: 'This receipt is being issued. Look again in a few minutes.',
  notFound: 'No such receipt',
  taxpayer: 'Taxpayer',
  tin: 'TIN',
  address: 'Address',
  register: 'Register (CRN)',
  serial: 'Serial number',
  receipt: 'Receipt',
  fiscalNumber: 'Fiscal number',
  time: 'Time',
  returnsReceipt: 'Returns receipt',
  byCard: 'By card',
  inCash: 'In cash',
  total: 'Total',
  item: 'Item',
  quantity: 'Qty',
  price: 'Price',
  qrLabel: 'QR code of the receipt',
};

const hy: Catalog<ReceiptPageMessages> = {
  languageName: 'Հայերեն',
  saleTitle: 'ՀԴՄ կտրոն',
  returnTitle: 'Վերադարձի ՀԴՄ կտրոն',
  testBanner: 'ԹԵՍՏԱՅԻՆ ԿՏՐՈՆ. սա ՀԴՄ կտրոն չէ։ Տրվել է թեստային ռեժիմում և չի ուղարկվել Պետական եկամուտների կոմիտե։',
  beingIssued: 'Կտրոնը դեռ տրամադրվում է։ Նայեք կրկին մի քանի րոպեից։',
  notFound: 'Կտրոնը չի գտնվել',
  taxpayer: 'Հարկ վճարող',
  tin: 'ՀՎՀՀ',
  address: 'Հասցե',
  register: 'ՀԴՄ գրանցման համար',
  serial: 'ՀԴՄ գործարանային համար',
  receipt: 'Կտրոնի համար',
  fiscalNumber: 'Ֆիսկալ համար',
  time: 'Ամսաթիվ և ժամ',
  returnsReceipt: 'Վերադարձվող կտրոն',
  byCard: 'Անկանխիկ',
  inCash: 'Կանխիկ',
  total: 'Ընդամենը',
  item: 'Ապրանք',
  quantity: 'Քանակ',
  price: 'Գին',
  qrLabel: 'Կտրոնի QR կոդ',
};

const ru: Catalog<ReceiptPageMessages> = {
  languageName: 'Русский',
  saleTitle: 'Фискальный чек',
  returnTitle: 'Фискальный чек возврата',
  testBanner:
    'ТЕСТОВЫЙ ЧЕК: не является фискальным документом. Выдан в тестовом режиме и не передавался в Комитет государственных доходов.',
  beingIssued: 'Чек ещё оформляется. Загляните снова через несколько минут.',
  notFound: 'Чек не найден',
  taxpayer: 'Налогоплательщик',
  tin: 'УНН',
  address: 'Адрес',
  register: 'Регистрационный номер ККМ',
  serial: 'Заводской номер ККМ',
  receipt: 'Номер чека',
  fiscalNumber: 'Фискальный номер',
  time: 'Дата и время',
  returnsReceipt: 'Возврат по чеку',
  byCard: 'Безналичными',
  inCash: 'Наличными',
  total: 'Итого',
  item: 'Товар',
  quantity: 'Кол-во',
  price: 'Цена',
  qrLabel: 'QR-код чека',
};

export const RECEIPT_PAGE_MESSAGES = defineMessages<ReceiptPageMessages>('receiptPage', { en, hy, ru }, {});

/** The receipt page's language: `?lang=`, else the best `Accept-Language` match, else Armenian. */
export function receiptLanguage(query: unknown, acceptLanguage: string | undefined): Language {
  if (isLanguage(query)) return query;
  for (const part of (acceptLanguage ?? '').split(',').slice(0, 20)) {
    const [tag = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return 'hy';
}

/** The QR code of `text` as an inline SVG (error correction M, as printed receipts use). */
export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

function quantity(language: Language, milli: number): string {
  return formatNumber(language, milli / ONE_UNIT_MILLI, 3);
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;padding:1rem;background:#f4f4f5;color:#18181b}
main{max-width:28rem;margin:0 auto;background:#fff;padding:1.25rem;border-radius:.5rem}
h1{font-size:1.2rem;margin:0 0 .75rem}dl{display:grid;grid-template-columns:fit-content(50%) minmax(0,1fr);gap:.25rem .75rem;margin:0 0 1rem}
dt{color:#52525b}dd{margin:0;overflow-wrap:anywhere}table{width:100%;border-collapse:collapse;margin-bottom:1rem}
th,td{text-align:left;padding:.25rem;border-bottom:1px solid #e4e4e7;vertical-align:top}td.n,th.n{text-align:right;white-space:nowrap}
.test{background:#fef3c7;border:2px solid #b45309;padding:.5rem;font-weight:700;margin-bottom:1rem}
.qr{width:12rem;height:12rem;display:block;margin:0 auto}.qrtext{font-family:monospace;font-size:.75rem;word-break:break-all;color:#52525b}
nav{max-width:28rem;margin:.75rem auto 0;font-size:.875rem;display:flex;gap:.75rem;justify-content:center}
nav a{color:#1d4ed8}nav a[aria-current]{color:#18181b;font-weight:700;text-decoration:none}`;

/** The page of `row` (a return is shown with its sale's lines, `sale`) in `language`. */
export async function receiptPage(
  row: ReceiptRow,
  sale: ReceiptRow | undefined,
  language: Language = 'hy',
): Promise<string> {
  const m = RECEIPT_PAGE_MESSAGES[language];
  const title = row.type === 'sale' ? m.saleTitle : m.returnTitle;
  const banner = row.sandbox === 1 ? `<p class="test" role="note">${escapeHtml(m.testBanner)}</p>` : '';
  if (row.status !== 'issued') {
    return page(language, title, `${banner}<h1>${escapeHtml(title)}</h1><p>${escapeHtml(m.beingIssued)}</p>`);
  }
  const shown = printedLines(row, sale);
  const rows = shown
    .map(
      ({ line, quantityMilli }) =>
        `<tr><td>${escapeHtml(line.name)}</td><td class="n">${quantity(language, quantityMilli)}${line.unit === null ? '' : ` ${escapeHtml(line.unit)}`}</td><td class="n">${escapeHtml(formatAmd(language, line.unitPrice))}</td></tr>`,
    )
    .join('');
  const facts: [string, string | null][] = [
    [m.taxpayer, row.taxpayer],
    [m.tin, row.tin],
    [m.address, row.address],
    [m.register, registerNumber(row.register)],
    [m.serial, row.serial_number],
    [m.receipt, row.fiscal_id],
    [m.fiscalNumber, row.fiscal_number],
    [m.time, row.issued_at === null ? null : formatDateTimeWithZone(language, row.issued_at)],
    [m.returnsReceipt, row.type === 'return' ? (sale?.fiscal_id ?? null) : null],
    [m.byCard, formatAmd(language, Number(row.card_amount))],
    [m.inCash, formatAmd(language, Number(row.cash_amount))],
    [m.total, row.fiscal_total === null ? null : formatAmd(language, Number(row.fiscal_total))],
  ];
  const dl = facts
    .filter((f): f is [string, string] => f[1] !== null)
    .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`)
    .join('');
  const qr = row.qr_text === null ? '' : await qrSvg(row.qr_text);
  const body = `${banner}<h1>${escapeHtml(title)}</h1><dl>${dl}</dl>
<table><thead><tr><th scope="col">${escapeHtml(m.item)}</th><th scope="col" class="n">${escapeHtml(m.quantity)}</th><th scope="col" class="n">${escapeHtml(m.price)}</th></tr></thead><tbody>${rows}</tbody></table>
${qr === '' ? '' : `<div class="qr" role="img" aria-label="${escapeHtml(m.qrLabel)}">${qr}</div><p class="qrtext">${escapeHtml(row.qr_text ?? '')}</p>`}`;
  return page(language, title, body);
}

/** The page for a token that names no receipt. */
export function receiptNotFoundPage(language: Language): string {
  const m = RECEIPT_PAGE_MESSAGES[language];
  return page(language, m.notFound, `<h1>${escapeHtml(m.notFound)}</h1>`, false);
}

function languageLinks(current: Language): string {
  const links = LANGUAGES.map((lang) => {
    const here = lang === current ? ' aria-current="true"' : '';
    return `<a href="?lang=${lang}" hreflang="${lang}" lang="${lang}"${here}>${escapeHtml(RECEIPT_PAGE_MESSAGES[lang].languageName)}</a>`;
  });
  return `<nav>${links.join('')}</nav>`;
}

function page(language: Language, title: string, body: string, links = true): string {
  return `<!doctype html><html lang="${LOCALES[language].split('-')[0]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main>${links ? languageLinks(language) : ''}</body></html>`;
}
