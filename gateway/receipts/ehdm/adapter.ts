/**
 * e-HDM, the State Revenue Committee's virtual cash register for websites and apps: fiscal
 * receipts for sales (`print`, mode 2) and returns (`printReturnReceipt`) on the merchant's own
 * register, over mutual TLS with the certificate the SRC issued for it (docs/receipts.md).
 *
 * A `print` whose answer is lost may have issued the receipt: no public source shows an error
 * that proves it did not. So anything but a clear answer is `unknown`, and `search` reads the
 * register's receipts after the last one the gateway knows to find it.
 *
 * The certificate's key and passphrase travel only in the TLS options; they never appear in a
 * `detail`, an error or a log line.
 */
import { createSecureContext } from 'node:tls';
import { z } from 'zod';
import type { ClientTls, ProcessorReply } from '../../processors/http.js';
import { ProcessorCallError } from '../../processors/http.js';
import { isProcessorAddress } from '../../processors/settings.js';
import type {
  FiscalCall,
  FiscalSystem,
  IssueAnswer,
  ReceiptSearch,
  ReturnReceipt,
  SaleReceipt,
  SearchAnswer,
} from '../fiscal-system.js';
import {
  fiscalReceiptOf,
  fiscalReceiptOfInfo,
  isAmount,
  printBody,
  printReturnBody,
  receiptKind,
  refusalOf,
} from './map.js';
import {
  type CheckConnectionRequest,
  EHDM_PRODUCTION_URL,
  type EhdmMethod,
  envelope,
  MAX_TEXT_LENGTH,
  type PrintRequest,
  type PrintReturnReceiptRequest,
  printResult,
  RECEIPT_NOT_FOUND_CODE,
  type ReceiptInfoRequest,
  receiptInfoResult,
} from './wire.js';

/** How long each call waits for the whole answer (docs/receipts.md). */
export const ISSUE_TIMEOUT_MS = 20_000;
export const READ_TIMEOUT_MS = 10_000;
export const CHECK_TIMEOUT_MS = 10_000;

/** Receipts a search reads at most before it gives up (`undecided`). */
export const MAX_SEARCH_READS = 50;

/**
 * How much earlier than the first attempt a receipt's time may be and still be the one looked
 * for: the SRC's clock and the gateway's are not the same clock. A wider window can only add
 * candidates (an `undecided` search), never hide the receipt (a duplicate).
 */
export const SEARCH_CLOCK_SKEW_MS = 5 * 60_000;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;
const PEM_PRIVATE_KEY =
  /-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----[\s\S]+?-----END (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function isServiceAddress(value: string): boolean {
  return isProcessorAddress(value, { pathEnd: '/' }) && new URL(value).protocol === 'https:';
}

const text = (what: string) =>
  z
    .string()
    .trim()
    .min(1, { message: `must be ${what}` })
    .max(MAX_TEXT_LENGTH, { message: `must be at most ${MAX_TEXT_LENGTH} characters` });

/** A domain's settings (`receipts enable --config JSON`). Messages name fields, never values. */
export const ehdmConfigSchema = z
  .strictObject({
    crn: z.string().regex(/^\d{1,20}$/, { message: 'must be the register number (CRN) the SRC issued, digits only' }),
    tin: z.string().regex(/^\d{8}$/, { message: 'must be the 8-digit taxpayer number (TIN)' }),
    cashier_id: z.number().int().positive(),
    department: z.number().int().nonnegative(),
    tax_regime: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(7)], {
      message: 'must be 1 (VAT), 2 (not VAT-taxed), 3 (turnover tax) or 7 (micro-enterprise)',
    }),
    classification_code: text('the default classification (ADG) code'),
    good_code: text('the default goods code'),
    unit: text('the default unit'),
    certificate: z.string().regex(PEM_CERTIFICATE, { message: 'must be the certificate in PEM' }).optional(),
    private_key: z.string().regex(PEM_PRIVATE_KEY, { message: 'must be the private key in PEM' }).optional(),
    pkcs12: z
      .string()
      .transform((value) => value.replace(/\s+/g, ''))
      .refine((value) => value !== '' && BASE64.test(value), { message: 'must be the PKCS#12 bundle in base64' })
      .optional(),
    passphrase: z.string().min(1, { message: 'must not be empty (leave it out instead)' }).optional(),
    server_ca: z.string().regex(PEM_CERTIFICATE, { message: 'must be certificates in PEM' }).optional(),
    base_url: z
      .string()
      .refine(isServiceAddress, {
        message: 'must be an https address ending in /, without credentials, query or fragment',
      })
      .default(EHDM_PRODUCTION_URL),
    language: z.enum(['hy', 'en', 'ru'], { message: 'must be hy, en or ru' }).optional(),
  })
  .superRefine((config, context) => {
    const pem = config.certificate !== undefined || config.private_key !== undefined;
    const bundle = config.pkcs12 !== undefined;
    if (pem && bundle) {
      context.addIssue({
        code: 'custom',
        path: ['pkcs12'],
        message: 'give either certificate with private_key, or pkcs12, not both',
      });
      return;
    }
    if (!pem && !bundle) {
      context.addIssue({
        code: 'custom',
        path: ['certificate'],
        message: 'give certificate with private_key, or pkcs12',
      });
      return;
    }
    if (pem && (config.certificate === undefined || config.private_key === undefined)) {
      const missing = config.certificate === undefined ? 'certificate' : 'private_key';
      context.addIssue({ code: 'custom', path: [missing], message: 'is required with the other PEM field' });
      return;
    }
    // A malformed field has its own issue already; the credentials are tried only when well formed.
    const wellFormed = bundle
      ? BASE64.test(config.pkcs12 ?? '')
      : PEM_CERTIFICATE.test(config.certificate ?? '') && PEM_PRIVATE_KEY.test(config.private_key ?? '');
    if (!wellFormed) return;
    try {
      createSecureContext(clientTls({ ...config, server_ca: undefined }));
    } catch {
      context.addIssue({
        code: 'custom',
        path: [bundle ? 'pkcs12' : 'private_key'],
        message: bundle
          ? 'cannot be opened with the passphrase given'
          : 'does not open with the passphrase given, or does not belong to certificate',
      });
    }
  });
export type EhdmConfig = z.output<typeof ehdmConfigSchema>;

type EhdmCredentials = Pick<EhdmConfig, 'certificate' | 'private_key' | 'pkcs12' | 'passphrase' | 'server_ca'>;

/** The TLS options of a call: the client certificate (PEM or PKCS#12) and the server's CA if given. */
export function clientTls(config: EhdmCredentials): ClientTls {
  const passphrase = config.passphrase === undefined ? {} : { passphrase: config.passphrase };
  const ca = config.server_ca === undefined ? {} : { ca: config.server_ca };
  if (config.pkcs12 !== undefined) return { pfx: Buffer.from(config.pkcs12, 'base64'), ...passphrase, ...ca };
  return { cert: config.certificate, key: config.private_key, ...passphrase, ...ca };
}

type Call = FiscalCall<EhdmConfig>;

/** What one call came to. */
type Exchange =
  /** The service answered an envelope. */
  | {
      readonly kind: 'answer';
      readonly code: number;
      readonly message: string | null;
      readonly result: unknown;
      readonly detail: string;
    }
  /** Nothing reached the service. */
  | { readonly kind: 'not_sent'; readonly detail: string }
  /** It may have reached the service, and there is no envelope: no answer, an error page, an unreadable body. */
  | { readonly kind: 'no_answer'; readonly detail: string };

/** Removes the passphrase from a text that will be logged, should anything ever echo it. */
function scrub(config: EhdmConfig, line: string): string {
  const secret = config.passphrase;
  return secret !== undefined && secret.length >= 4 ? line.split(secret).join('[redacted]') : line;
}

function quoted(value: string | null | undefined): string {
  if (value === null || value === undefined || value.trim() === '') return '';
  const one = value.replace(/\s+/g, ' ').trim();
  return ` ${JSON.stringify(one.length > 200 ? `${one.slice(0, 200)}…` : one)}`;
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

async function send(
  call: Call,
  method: EhdmMethod,
  body: CheckConnectionRequest | PrintRequest | PrintReturnReceiptRequest | ReceiptInfoRequest,
  timeoutMs: number,
): Promise<Exchange> {
  const { config } = call;
  let reply: ProcessorReply;
  try {
    reply = await call.http.request({
      method: 'POST',
      url: `${config.base_url}${method}`,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        Accept: 'application/json',
        ...(config.language === undefined ? {} : { language: config.language }),
      },
      body: JSON.stringify(body),
      timeoutMs,
      tls: clientTls(config),
    });
  } catch (error) {
    if (error instanceof ProcessorCallError) {
      const detail = scrub(config, `${method}: ${error.message}`);
      return error.reached ? { kind: 'no_answer', detail } : { kind: 'not_sent', detail };
    }
    // Thrown before a connection was opened: the TLS options could not be used.
    return { kind: 'not_sent', detail: `${method}: the client certificate, key or passphrase cannot be used` };
  }
  const parsed = envelope.safeParse(parseJson(reply.body));
  if (!parsed.success) {
    const page = reply.status === 200 ? 'an unreadable body' : `HTTP ${reply.status} without an e-HDM answer`;
    return { kind: 'no_answer', detail: `${method} answered ${page}` };
  }
  const { code, message, errorMessage, result } = parsed.data;
  const name = refusalOf(code).name;
  const named = name === null ? '' : ` ${name}`;
  const said = name !== null && message === name ? '' : quoted(message);
  return {
    kind: 'answer',
    code,
    message: message ?? null,
    result,
    detail: scrub(config, `${method} answered code ${code}${named}${said}${quoted(errorMessage)}`),
  };
}

async function check(
  call: Call,
  seq: number,
): Promise<{ readonly ok: true } | { readonly ok: false; readonly detail: string }> {
  const exchange = await send(call, 'checkConnection', { crn: call.config.crn, seq }, CHECK_TIMEOUT_MS);
  if (exchange.kind === 'answer' && exchange.code === 0) return { ok: true };
  return { ok: false, detail: exchange.detail };
}

/** A `print` or `printReturnReceipt` exchange as the core's answer. */
function issueAnswer(exchange: Exchange, method: EhdmMethod): IssueAnswer {
  switch (exchange.kind) {
    case 'not_sent':
      return { kind: 'unavailable', detail: exchange.detail };
    case 'no_answer':
      return { kind: 'unknown', detail: exchange.detail };
    case 'answer': {
      if (exchange.code !== 0) {
        const { retry } = refusalOf(exchange.code);
        return { kind: 'refused', retry, code: String(exchange.code), detail: exchange.detail };
      }
      const result = printResult.safeParse(exchange.result);
      // Success without a readable receipt: it was most likely issued, and the search will tell.
      if (!result.success) return { kind: 'unknown', detail: `${method} answered code 0 without a readable receipt` };
      return { kind: 'issued', receipt: fiscalReceiptOf(result.data) };
    }
  }
}

async function issueSale(call: Call, receipt: SaleReceipt): Promise<IssueAnswer> {
  const body = printBody(call.config, receipt);
  if (!body.ok) return { kind: 'refused', retry: false, code: null, detail: `print not sent: ${body.detail}` };
  return issueAnswer(await send(call, 'print', body.body, ISSUE_TIMEOUT_MS), 'print');
}

async function issueReturn(call: Call, receipt: ReturnReceipt): Promise<IssueAnswer> {
  const body = printReturnBody(call.config.crn, receipt);
  if (!body.ok)
    return { kind: 'refused', retry: false, code: null, detail: `printReturnReceipt not sent: ${body.detail}` };
  return issueAnswer(await send(call, 'printReturnReceipt', body.body, ISSUE_TIMEOUT_MS), 'printReturnReceipt');
}

/**
 * Whether an answer to `getReturnedReceiptInfo` says that the receipt does not exist: the code taken
 * for it (`RECEIPT_NOT_FOUND_CODE`, an assumption) and a message that says so too. Anything else,
 * however it reads, is an answer the adapter does not know, and never lets the search conclude that
 * nothing was issued.
 */
function isNoSuchReceipt(exchange: Extract<Exchange, { kind: 'answer' }>): boolean {
  return exchange.code === RECEIPT_NOT_FOUND_CODE && /not[\s_-]*found/i.test(exchange.message ?? '');
}

type ReceiptInfo = z.infer<typeof receiptInfoResult>;

/**
 * Reads the register's receipts after `afterFiscalId`, one `getReturnedReceiptInfo` each (ids are
 * sequential per register in every public example), until the service answers that the next one
 * does not exist. A receipt of the type and amounts looked for, dated from the first attempt on
 * (less the clocks' allowance), is a match. One of that type and amounts dated earlier cannot be
 * ruled out (the register's clock may be behind, the first attempt may be older than thought): the
 * search is then `undecided`, never `absent`. Only a search that read to the register's end and
 * found no receipt of that type and amounts at all is `absent`.
 */
async function search(call: Call, wanted: ReceiptSearch): Promise<SearchAnswer> {
  if (wanted.afterFiscalId === null) {
    return { kind: 'undecided', detail: 'no receipt of this register is known to start the search from' };
  }
  if (!/^\d{1,15}$/.test(wanted.afterFiscalId)) {
    return { kind: 'undecided', detail: 'the last known receipt id is not a number' };
  }
  const first = Number(wanted.afterFiscalId) + 1;
  const matches: { readonly receiptId: string; readonly info: ReceiptInfo }[] = [];
  const doubtful: string[] = [];
  for (let read = 0; read < MAX_SEARCH_READS; read += 1) {
    const receiptId = String(first + read);
    const seq = await wanted.nextSeq();
    const exchange = await send(
      call,
      'getReturnedReceiptInfo',
      { crn: call.config.crn, seq, receiptId },
      READ_TIMEOUT_MS,
    );
    if (exchange.kind !== 'answer') return { kind: 'undecided', detail: exchange.detail };
    if (exchange.code !== 0) {
      if (isNoSuchReceipt(exchange)) return settle(call, matches, doubtful);
      return { kind: 'undecided', detail: exchange.detail };
    }
    const info = receiptInfoResult.safeParse(exchange.result);
    if (!info.success) {
      return { kind: 'undecided', detail: `getReturnedReceiptInfo answered an unreadable receipt ${receiptId}` };
    }
    const candidate = candidateOf(info.data, wanted);
    if (candidate === 'match') {
      matches.push({ receiptId, info: info.data });
      if (matches.length > 1) return settle(call, matches, doubtful);
    } else if (candidate === 'before_window') {
      doubtful.push(receiptId);
    }
  }
  return {
    kind: 'undecided',
    detail: `read ${MAX_SEARCH_READS} receipts after ${wanted.afterFiscalId} without reaching the register's last one`,
  };
}

/** A receipt of the type and amounts looked for: in the time window (`match`), or dated before it. */
function candidateOf(info: ReceiptInfo, wanted: ReceiptSearch): 'match' | 'before_window' | 'other' {
  const same =
    receiptKind(info) === wanted.type &&
    isAmount(info.cardAmount, wanted.cardAmount) &&
    isAmount(info.cashAmount, wanted.cashAmount);
  if (!same) return 'other';
  return info.time >= wanted.notBeforeMs - SEARCH_CLOCK_SKEW_MS ? 'match' : 'before_window';
}

function settle(
  call: Call,
  matches: readonly { readonly receiptId: string; readonly info: ReceiptInfo }[],
  doubtful: readonly string[],
): SearchAnswer {
  const [only, second] = matches;
  if (second !== undefined && only !== undefined) {
    return { kind: 'undecided', detail: `receipts ${only.receiptId} and ${second.receiptId} both match` };
  }
  if (doubtful.length > 0) {
    const also = only === undefined ? '' : ` (receipt ${only.receiptId} matches)`;
    return {
      kind: 'undecided',
      detail: `same type and amounts, dated before the first attempt: receipt ${doubtful.join(', ')}${also}`,
    };
  }
  if (only === undefined) return { kind: 'absent' };
  return { kind: 'found', receipt: fiscalReceiptOfInfo(only.receiptId, only.info, call.config) };
}

export const ehdmFiscalSystem: FiscalSystem<EhdmConfig> = {
  slug: 'ehdm',
  displayName: 'e-HDM (SRC virtual cash register)',
  configSchema: ehdmConfigSchema,
  registerOf: (config) => config.crn,
  serviceUrl: (config) => config.base_url,
  check,
  issueSale,
  issueReturn,
  search,
};
