/**
 * The e-HDM adapter against a local e-HDM (test/support/receipts/fake-ehdm.ts) over real HTTPS
 * with client certificates: settings, the mapping of sales and returns, every refusal class,
 * every way a call can fail (timeouts, dropped connections, error pages, a refused certificate),
 * and the search that finds a receipt whose answer was lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessorHttp, ProcessorRequest } from '../../../gateway/processors/http.js';
import {
  CHECK_TIMEOUT_MS,
  type EhdmConfig,
  ehdmConfigSchema,
  ehdmFiscalSystem,
  ISSUE_TIMEOUT_MS,
  MAX_SEARCH_READS,
  READ_TIMEOUT_MS,
  SEARCH_CLOCK_SKEW_MS,
} from '../../../gateway/receipts/ehdm/adapter.js';
import {
  EHDM_ERROR_CODES,
  fiscalReceiptOf,
  qrField,
  refusalOf,
  shortenText,
  wireQuantity,
} from '../../../gateway/receipts/ehdm/map.js';
import {
  checkConnectionRequest,
  EHDM_PRODUCTION_URL,
  printRequest,
  printResult,
  printReturnReceiptRequest,
  RECEIPT_NOT_FOUND_CODE,
  receiptInfoRequest,
  receiptInfoResult,
} from '../../../gateway/receipts/ehdm/wire.js';
import type {
  FiscalCall,
  IssueAnswer,
  ReceiptSearch,
  ReturnReceipt,
  SaleReceipt,
} from '../../../gateway/receipts/fiscal-system.js';
import { freePort } from '../../support/ports.js';
import { loopbackHttp } from '../../support/processors/call.js';
import { FAKE_CODES, type FakeEhdm, startFakeEhdm, TEST_CERTS } from '../../support/receipts/fake-ehdm.js';

let fake: FakeEhdm;
let http: ProcessorHttp;
let config: EhdmConfig;
/** The register's sequence, as the core keeps it: one counter for the whole file. */
let lastSeq = 0;
const nextSeq = async () => {
  lastSeq += 1;
  return lastSeq;
};

beforeAll(async () => {
  fake = await startFakeEhdm();
  http = loopbackHttp();
  config = ehdmConfigSchema.parse(fake.config);
});

afterAll(async () => {
  http.close();
  await fake.close();
});

function callWith(own: Partial<EhdmConfig> = {}, ownHttp: ProcessorHttp = http): FiscalCall<EhdmConfig> {
  return { config: { ...config, ...own }, http: ownHttp };
}

/** A sale of two lines paid by card: 2 x 2500 + 1.5 x 1000 = 6500 AMD. */
function sale(overrides: Partial<Omit<SaleReceipt, 'seq'>> = {}): SaleReceipt {
  lastSeq += 1;
  return {
    seq: lastSeq,
    cardAmount: 6500,
    cashAmount: 0,
    lines: [
      { name: 'Սուրճ էսպրեսո', classification: null, code: null, unit: null, quantityMilli: 2000, unitPrice: 2500 },
      {
        name: 'Coffee beans',
        classification: '0901',
        code: 'BEANS-1',
        unit: 'կգ',
        quantityMilli: 1500,
        unitPrice: 1000,
      },
    ],
    ...overrides,
  };
}

function returnOf(
  saleFiscalId: string,
  overrides: Partial<Omit<ReturnReceipt, 'seq' | 'saleFiscalId'>> = {},
): ReturnReceipt {
  lastSeq += 1;
  return {
    seq: lastSeq,
    saleFiscalId,
    cardAmount: 6500,
    cashAmount: 0,
    lines: [
      { index: 0, quantityMilli: 2000 },
      { index: 1, quantityMilli: 1500 },
    ],
    ...overrides,
  };
}

function search(overrides: Partial<Omit<ReceiptSearch, 'nextSeq'>>): ReceiptSearch {
  return {
    afterFiscalId: String(fake.receipts.length),
    type: 'sale',
    cardAmount: 6500,
    cashAmount: 0,
    notBeforeMs: Date.now(),
    nextSeq,
    ...overrides,
  };
}

async function issued(answer: Promise<IssueAnswer>) {
  const result = await answer;
  if (result.kind !== 'issued') throw new Error(`expected issued, got ${JSON.stringify(result)}`);
  return result.receipt;
}

/** The HTTP client with its timeouts cut short (the adapter's own are 10-20 s); records what was asked. */
function shortTimeouts(limitMs = 300): { http: ProcessorHttp; asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    http: {
      request: (request: ProcessorRequest) => {
        asked.push(request.timeoutMs);
        return http.request({ ...request, timeoutMs: Math.min(request.timeoutMs, limitMs) });
      },
      close: () => {},
    },
  };
}

/** Settings whose address nothing listens on. */
async function unreachable(): Promise<Partial<EhdmConfig>> {
  return { base_url: `https://127.0.0.1:${await freePort()}/taxsystem-rs-vcr/api/v1.0/` };
}

const pemSettings = {
  crn: '52014201',
  tin: '00493113',
  cashier_id: 3,
  department: 1,
  tax_regime: 1,
  classification_code: '9205',
  good_code: '001',
  unit: 'հատ',
  certificate: TEST_CERTS.client,
  private_key: TEST_CERTS.clientKeyEncrypted,
  passphrase: TEST_CERTS.passphrase,
};

/** The schema's refusal as the core reports it: `field: message; …`. */
function refusal(value: unknown): string {
  const parsed = ehdmConfigSchema.safeParse(value);
  if (parsed.success) throw new Error('expected the settings to be refused');
  return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
}

describe('settings (receipts enable ehdm --config)', () => {
  it('takes PEM credentials, defaults the production address and names the register by its CRN', () => {
    const parsed = ehdmConfigSchema.parse(pemSettings);
    expect(parsed.base_url).toBe(EHDM_PRODUCTION_URL);
    expect(parsed.base_url).toBe('https://ecrm.taxservice.am/taxsystem-rs-vcr/api/v1.0/');
    expect(ehdmFiscalSystem.registerOf(parsed)).toBe('52014201');
    expect(ehdmFiscalSystem.slug).toBe('ehdm');
  });

  it('takes a PKCS#12 bundle with its passphrase instead', () => {
    const { certificate: _c, private_key: _k, ...rest } = pemSettings;
    const parsed = ehdmConfigSchema.parse({ ...rest, pkcs12: TEST_CERTS.clientPkcs12, language: 'ru' });
    expect(parsed.pkcs12).toBe(TEST_CERTS.clientPkcs12);
    expect(parsed.language).toBe('ru');
  });

  it('refuses settings without naming the values given', () => {
    const { tin: _tin, ...noTin } = pemSettings;
    const cases: [unknown, string, string[]][] = [
      [noTin, 'tin', []],
      [{ ...pemSettings, cashier_id: 'cashier-77' }, 'cashier_id', ['cashier-77']],
      [{ ...pemSettings, tin: '0049311X' }, 'tin', ['0049311X']],
      [{ ...pemSettings, tax_regime: 5 }, 'tax_regime', []],
      [{ ...pemSettings, favourite_colour: 'teal-9912' }, 'favourite_colour', ['teal-9912']],
      [{ ...pemSettings, pkcs12: TEST_CERTS.clientPkcs12 }, 'pkcs12', [TEST_CERTS.clientPkcs12.slice(0, 40)]],
      [{ ...pemSettings, private_key: undefined }, 'private_key', []],
      [{ ...pemSettings, base_url: 'http://ecrm.taxservice.am/taxsystem-rs-vcr/api/v1.0/' }, 'base_url', ['http://']],
      [{ ...pemSettings, base_url: 'https://user:pw-3381@ecrm.example.am/api/' }, 'base_url', ['pw-3381']],
      [{ ...pemSettings, base_url: 'https://ecrm.example.am/api/?token=tk-5521' }, 'base_url', ['tk-5521']],
      [{ ...pemSettings, language: 'fr-secret' }, 'language', ['fr-secret']],
    ];
    for (const [value, field, values] of cases) {
      const message = refusal(value);
      expect(message, field).toContain(field);
      for (const given of values) expect(message, field).not.toContain(given);
      expect(message).not.toContain(TEST_CERTS.passphrase);
      expect(message).not.toContain('PRIVATE KEY');
    }
  });

  it('refuses credentials that do not open: a wrong passphrase, a key of another certificate', () => {
    const wrong = refusal({ ...pemSettings, passphrase: 'not-the-passphrase-4471' });
    expect(wrong).toContain('private_key');
    expect(wrong).not.toContain('not-the-passphrase-4471');
    const mismatch = refusal({ ...pemSettings, private_key: TEST_CERTS.otherClientKey, passphrase: undefined });
    expect(mismatch).toContain('private_key');
    const { certificate: _c, private_key: _k, ...rest } = pemSettings;
    const bundle = refusal({ ...rest, pkcs12: TEST_CERTS.clientPkcs12, passphrase: 'wrong-bundle-pass-90' });
    expect(bundle).toContain('pkcs12');
    expect(bundle).not.toContain('wrong-bundle-pass-90');
  });
});

describe('mapping', () => {
  it('writes quantities from thousandths with no float drift', () => {
    expect(wireQuantity(1500)).toBe(1.5);
    expect(wireQuantity(1)).toBe(0.001);
    expect(wireQuantity(1000)).toBe(1);
    expect(wireQuantity(123_456_789)).toBe(123_456.789);
    for (let milli = 1; milli <= 20_000; milli += 7) {
      const text = JSON.stringify(wireQuantity(milli));
      expect(text).toMatch(/^\d+(\.\d{1,3})?$/);
      const [whole, fraction = ''] = text.split('.');
      expect(Number(whole) * 1000 + Number(fraction.padEnd(3, '0'))).toBe(milli);
    }
    expect(() => wireQuantity(0)).toThrow(RangeError);
    expect(() => wireQuantity(1.5)).toThrow(RangeError);
  });

  it('shortens names to 50 UTF-16 units without splitting a character', () => {
    const armenian = 'Ա'.repeat(60);
    expect(shortenText(armenian)).toBe('Ա'.repeat(50));
    expect(shortenText(`${'a'.repeat(49)}👍🏽tail`)).toBe('a'.repeat(49));
    expect(shortenText(`${'a'.repeat(49)}e\u0301`)).toBe('a'.repeat(49));
    expect(shortenText('  two\n\tlines  ')).toBe('two lines');
  });

  it('maps every known error code, and an unknown one to no retry', () => {
    const expected: Record<number, { retry: boolean; name: string }> = {
      104: { retry: true, name: 'INVALID_SEQ' },
      152: { retry: false, name: 'PAID_AMOUNT_LESS_THAN_TOTAL' },
      187: { retry: false, name: 'INVALID_ITEMS' },
      195: { retry: false, name: 'CRM_ACTIVATION_FAILED' },
      403: { retry: false, name: 'UNAUTHORIZED_CONNECTION' },
    };
    for (const code of EHDM_ERROR_CODES) expect(refusalOf(code)).toEqual(expected[code]);
    expect(refusalOf(999)).toEqual({ retry: false, name: null });
    expect(refusalOf(FAKE_CODES.INVALID_FIELD)).toEqual({ retry: false, name: null });
  });

  it('reads recorded answer shapes: amounts as strings, a missing fiscal number taken from the QR text', () => {
    const qr =
      'TIN: 00493113, CRN: 52014201, SERIAL: 2FECD1F8, Receipt_ID: 8, Receipt_Time: 7/16/24 6:34 PM, ' +
      'FISCAL: 52517829, TOTAL_CASH: 0, TOTAL_NONCASH: 40000, PREP_USAGE: 0, PARTIAL: 0, TOTAL: 40000';
    const answer = printResult.parse({
      receiptId: 8,
      crn: '52014201',
      sn: '2FECD1F8',
      tin: '00493113',
      taxpayer: 'Test',
      address: 'Yerevan',
      time: '1721140445000',
      total: '40000.00',
      change: '0.00',
      qr,
      emarkAccount: '3',
    });
    expect(fiscalReceiptOf(answer)).toEqual({
      fiscalId: '8',
      registerNumber: '52014201',
      serialNumber: '2FECD1F8',
      tin: '00493113',
      taxpayer: 'Test',
      address: 'Yerevan',
      fiscalNumber: '52517829',
      issuedAtMs: 1721140445000,
      total: 40000,
      qrText: qr,
    });
    expect(qrField(qr, 'Receipt_Time')).toBe('7/16/24 6:34 PM');
    expect(printResult.safeParse({ ...answer, qr: undefined }).success).toBe(false);
    expect(receiptInfoResult.safeParse({ receiptType: 0, cardAmount: 1, cashAmount: 0, time: 1 }).success).toBe(false);
  });
});

describe('checkConnection', () => {
  it('answers ok for working settings, sending the CRN and the sequence number', async () => {
    const { http: short, asked } = shortTimeouts(5000);
    const seq = await nextSeq();
    expect(await ehdmFiscalSystem.check(callWith({}, short), seq)).toEqual({ ok: true });
    expect(asked).toEqual([CHECK_TIMEOUT_MS]);
    const request = fake.calls('checkConnection').at(-1);
    expect(checkConnectionRequest.parse(request?.body)).toEqual({ crn: fake.crn, seq });
    expect(request?.clientCn).toBe(`${TEST_CERTS.tin} Tin`);
  });

  it('says why when the register is not the certificate’s', async () => {
    const answer = await ehdmFiscalSystem.check(callWith({ crn: '59999999' }), await nextSeq());
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.detail).toBe(
      'checkConnection answered code 403 UNAUTHORIZED_CONNECTION "The connection is not authorized for this cash register"',
    );
  });

  it('says why when the service cannot be reached', async () => {
    const answer = await ehdmFiscalSystem.check(callWith(await unreachable()), await nextSeq());
    expect(answer).toEqual({ ok: false, detail: 'checkConnection: connection refused' });
  });
});

describe('sales (print)', () => {
  it('issues a sale: the body as e-HDM takes it, the answer kept as the receipt, QR text unchanged', async () => {
    const { http: short, asked } = shortTimeouts(5000);
    const receipt = sale({
      lines: [
        { name: 'Սուրճ էսպրեսո', classification: null, code: null, unit: null, quantityMilli: 2000, unitPrice: 2500 },
        {
          name: 'Coffee beans',
          classification: '0901',
          code: 'BEANS-1',
          unit: 'կգ',
          quantityMilli: 1500,
          unitPrice: 1000,
        },
        { name: 'Ա'.repeat(70), classification: ' ', code: null, unit: null, quantityMilli: 1, unitPrice: 1000 },
      ],
      cardAmount: 6501,
    });
    const kept = await issued(ehdmFiscalSystem.issueSale(callWith({}, short), receipt));
    expect(asked).toEqual([ISSUE_TIMEOUT_MS]);

    const request = fake.calls('print').at(-1);
    expect(request?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(request?.headers.language).toBe('hy');
    expect(printRequest.parse(request?.body)).toEqual(request?.body);
    expect(request?.raw).toContain('"quantity":1.5');
    expect(request?.raw).toContain('"quantity":0.001');
    expect(request?.body).toEqual({
      crn: fake.crn,
      seq: receipt.seq,
      cashierId: 1,
      mode: 2,
      cardAmount: 6501,
      cashAmount: 0,
      partialAmount: 0,
      prePaymentAmount: 0,
      partnerTin: null,
      items: [
        { adgCode: '9205', dep: 1, goodCode: '001', goodName: 'Սուրճ էսպրեսո', quantity: 2, unit: 'հատ', price: 2500 },
        {
          adgCode: '0901',
          dep: 1,
          goodCode: 'BEANS-1',
          goodName: 'Coffee beans',
          quantity: 1.5,
          unit: 'կգ',
          price: 1000,
        },
        {
          adgCode: '9205',
          dep: 1,
          goodCode: '001',
          goodName: 'Ա'.repeat(50),
          quantity: 0.001,
          unit: 'հատ',
          price: 1000,
        },
      ],
    });

    const there = fake.receipts.at(-1);
    expect(there?.totalLuma).toBe(650_100);
    expect(kept).toEqual({
      fiscalId: String(there?.receiptId),
      registerNumber: fake.crn,
      serialNumber: fake.sn,
      tin: fake.tin,
      taxpayer: fake.taxpayer,
      address: fake.address,
      fiscalNumber: there?.fiscal,
      issuedAtMs: there?.time,
      total: 6501,
      qrText: there?.qr,
    });
    expect(kept.qrText).toMatch(
      /^TIN: 02512345, CRN: 51000001, SERIAL: 7C3AE91F, Receipt_ID: \d+, Receipt_Time: \d{1,2}\/\d{1,2}\/\d{2} \d{1,2}:\d{2} [AP]M, FISCAL: \d{8}, TOTAL_CASH: 0, TOTAL_NONCASH: 6501, PREP_USAGE: 0, PARTIAL: 0, TOTAL: 6501$/,
    );
  });

  it('keeps a total with luma as e-HDM computed it', async () => {
    const receipt = sale({
      cardAmount: 500,
      lines: [{ name: 'Cheese', classification: null, code: null, unit: 'կգ', quantityMilli: 1500, unitPrice: 333 }],
    });
    const kept = await issued(ehdmFiscalSystem.issueSale(callWith(), receipt));
    expect(kept.total).toBe(499.5);
  });

  it('issues with a PKCS#12 bundle, and with an encrypted PEM key and its passphrase', async () => {
    const before = fake.receipts.length;
    const bundle = ehdmConfigSchema.parse({
      ...fake.config,
      certificate: undefined,
      private_key: undefined,
      pkcs12: TEST_CERTS.clientPkcs12,
      passphrase: TEST_CERTS.passphrase,
    });
    const viaBundle = await issued(ehdmFiscalSystem.issueSale({ config: bundle, http }, sale()));
    const encrypted = ehdmConfigSchema.parse({
      ...fake.config,
      private_key: TEST_CERTS.clientKeyEncrypted,
      passphrase: TEST_CERTS.passphrase,
    });
    const viaEncrypted = await issued(ehdmFiscalSystem.issueSale({ config: encrypted, http }, sale()));
    expect(fake.receipts.length).toBe(before + 2);
    expect([viaBundle.fiscalId, viaEncrypted.fiscalId]).toEqual([String(before + 1), String(before + 2)]);
  });

  it('refuses, never issues, when paid below the total (152)', async () => {
    const before = fake.receipts.length;
    const answer = await ehdmFiscalSystem.issueSale(callWith(), sale({ cardAmount: 6000, cashAmount: 499 }));
    expect(answer).toMatchObject({ kind: 'refused', retry: false, code: '152' });
    expect(answer.kind === 'refused' && answer.detail).toContain('PAID_AMOUNT_LESS_THAN_TOTAL');
    expect(fake.receipts.length).toBe(before);
  });

  it('refuses a sequence number already used (104) as one to retry, and the retry with a new one passes', async () => {
    const before = fake.receipts.length;
    const stale = { ...sale(), seq: fake.lastSeq };
    const answer = await ehdmFiscalSystem.issueSale(callWith(), stale);
    expect(answer).toMatchObject({ kind: 'refused', retry: true, code: '104' });
    expect(fake.receipts.length).toBe(before);
    const again = await issued(ehdmFiscalSystem.issueSale(callWith(), { ...stale, seq: await nextSeq() }));
    expect(again.fiscalId).toBe(String(before + 1));
  });

  it('refuses bad settings without retry: a register the certificate is not bound to, a department not configured', async () => {
    const before = fake.receipts.length;
    const foreign = await ehdmFiscalSystem.issueSale(callWith({ crn: '59999999' }), sale());
    expect(foreign).toMatchObject({ kind: 'refused', retry: false, code: '403' });
    const department = await ehdmFiscalSystem.issueSale(callWith({ department: 7 }), sale());
    expect(department).toMatchObject({ kind: 'refused', retry: false, code: String(FAKE_CODES.UNKNOWN_DEPARTMENT) });
    expect(fake.receipts.length).toBe(before);
  });

  it('refuses an error answer on HTTP 200 with its code', async () => {
    fake.failNext('print', {
      kind: 'error',
      code: 187,
      message: 'INVALID_ITEMS',
      errorMessage: 'Items are not allowed',
    });
    const answer = await ehdmFiscalSystem.issueSale(callWith(), sale());
    expect(answer).toMatchObject({ kind: 'refused', retry: false, code: '187' });
    expect(answer.kind === 'refused' && answer.detail).toBe(
      'print answered code 187 INVALID_ITEMS "Items are not allowed"',
    );
  });

  it('refuses a receipt it cannot send at all, without calling', async () => {
    const calls = fake.calls('print').length;
    const answer = await ehdmFiscalSystem.issueSale(callWith(), sale({ lines: [] }));
    expect(answer).toEqual({
      kind: 'refused',
      retry: false,
      code: null,
      detail: 'print not sent: the receipt has no lines',
    });
    expect(fake.calls('print').length).toBe(calls);
  });

  it('answers unknown on a timeout, and the search then finds the receipt that was issued', async () => {
    const { http: short, asked } = shortTimeouts(300);
    const afterFiscalId = String(fake.receipts.length);
    const notBeforeMs = Date.now();
    fake.failNext('print', { kind: 'delay', ms: 1500 });
    const answer = await ehdmFiscalSystem.issueSale(callWith({}, short), sale({ cardAmount: 6500 }));
    expect(answer).toEqual({ kind: 'unknown', detail: 'print: no answer within 300 ms' });
    expect(asked).toEqual([ISSUE_TIMEOUT_MS]);
    expect(fake.receipts.length).toBe(Number(afterFiscalId) + 1);

    const found = await ehdmFiscalSystem.search(callWith({}, short), search({ afterFiscalId, notBeforeMs }));
    expect(found).toMatchObject({ kind: 'found', receipt: { fiscalId: String(Number(afterFiscalId) + 1) } });
    expect(asked.slice(1)).toEqual([READ_TIMEOUT_MS, READ_TIMEOUT_MS]);
  });

  it('answers unavailable when nothing listens', async () => {
    const answer = await ehdmFiscalSystem.issueSale(callWith(await unreachable()), sale());
    expect(answer).toEqual({ kind: 'unavailable', detail: 'print: connection refused' });
  });

  it('answers unknown for an HTTP 500 page and for a connection dropped before an answer', async () => {
    const before = fake.receipts.length;
    fake.failNext('print', { kind: 'html500' });
    expect(await ehdmFiscalSystem.issueSale(callWith(), sale())).toEqual({
      kind: 'unknown',
      detail: 'print answered HTTP 500 without an e-HDM answer',
    });
    fake.failNext('print', { kind: 'drop' });
    expect(await ehdmFiscalSystem.issueSale(callWith(), sale())).toMatchObject({ kind: 'unknown' });
    expect(fake.receipts.length).toBe(before);
  });

  it('answers unknown when the receipt is issued and its answer lost, and the search finds exactly it', async () => {
    const afterFiscalId = String(fake.receipts.length);
    const notBeforeMs = Date.now();
    fake.failNext('print', { kind: 'processThenDrop' });
    const receipt = sale({ cardAmount: 4000, cashAmount: 2500 });
    const answer = await ehdmFiscalSystem.issueSale(callWith(), receipt);
    expect(answer.kind).toBe('unknown');
    expect(fake.receipts.length).toBe(Number(afterFiscalId) + 1);
    const there = fake.receipts.at(-1);

    const reads = fake.calls('getReturnedReceiptInfo').length;
    const found = await ehdmFiscalSystem.search(
      callWith(),
      search({ afterFiscalId, notBeforeMs, cardAmount: 4000, cashAmount: 2500 }),
    );
    expect(found).toEqual({
      kind: 'found',
      receipt: {
        fiscalId: String(there?.receiptId),
        registerNumber: fake.crn,
        serialNumber: '',
        tin: fake.tin,
        taxpayer: '',
        address: '',
        fiscalNumber: '',
        issuedAtMs: there?.time,
        total: 6500,
        qrText: '',
      },
    });
    // The found receipt, then the one after it that does not exist; nothing issued by the search.
    const sent = fake.calls('getReturnedReceiptInfo').slice(reads);
    expect(sent.map((request) => receiptInfoRequest.parse(request.body).receiptId)).toEqual([
      String(there?.receiptId),
      String(Number(there?.receiptId) + 1),
    ]);
    expect(new Set(sent.map((request) => request.body.seq)).size).toBe(2);
    expect(fake.receipts.length).toBe(Number(afterFiscalId) + 1);
  });

  it('refuses a client certificate of another CA: unknown or unavailable, never issued, no request handled', async () => {
    const before = fake.receipts.length;
    const requests = fake.requests.length;
    const answer = await ehdmFiscalSystem.issueSale(
      callWith({ certificate: TEST_CERTS.otherClient, private_key: TEST_CERTS.otherClientKey }),
      sale(),
    );
    // TLS 1.3: the client's handshake ends before the server checks its certificate, so the request
    // is already written when the server refuses. On loopback the refusal arrives as a reset
    // (unknown: it cannot be told from a reset after handling); if the TLS alert arrives first,
    // the HTTP client knows nothing was handled (unavailable).
    expect(['unknown', 'unavailable']).toContain(answer.kind);
    expect(answer.kind !== 'issued' && answer.detail).toMatch(/^print: (connection reset|ERR_SSL_\w*ALERT\w*: .*)$/);
    expect(fake.receipts.length).toBe(before);
    expect(fake.requests.length).toBe(requests);
  });
});

describe('returns (printReturnReceipt)', () => {
  it('issues a full return of a sale', async () => {
    const kept = await issued(ehdmFiscalSystem.issueSale(callWith(), sale()));
    const receipt = returnOf(kept.fiscalId);
    const back = await issued(ehdmFiscalSystem.issueReturn(callWith(), receipt));
    const request = fake.calls('printReturnReceipt').at(-1);
    expect(printReturnReceiptRequest.parse(request?.body)).toEqual({
      crn: fake.crn,
      seq: receipt.seq,
      receiptId: kept.fiscalId,
      cardAmountForReturn: 6500,
      cashAmountForReturn: 0,
      prePaymentAmountForReturn: 0,
      returnItemList: [
        { receiptProductId: 0, quantity: 2 },
        { receiptProductId: 1, quantity: 1.5 },
      ],
    });
    const there = fake.receipt(back.fiscalId);
    expect(there?.type).toBe('return');
    expect(there?.saleReceiptId).toBe(Number(kept.fiscalId));
    expect(back.total).toBe(6500);
    expect(back.qrText).toBe(there?.qr);
    expect(fake.receipt(kept.fiscalId)?.lines.map((line) => line.returnedMilli)).toEqual([2000, 1500]);
  });

  it('issues a partial return by line, then refuses one above what is left', async () => {
    const kept = await issued(ehdmFiscalSystem.issueSale(callWith(), sale({ cardAmount: 3500, cashAmount: 3000 })));
    const part = returnOf(kept.fiscalId, {
      cardAmount: 2500,
      cashAmount: 0,
      lines: [{ index: 0, quantityMilli: 1000 }],
    });
    const back = await issued(ehdmFiscalSystem.issueReturn(callWith(), part));
    expect(back.total).toBe(2500);
    expect(fake.receipt(kept.fiscalId)?.lines.map((line) => line.returnedMilli)).toEqual([1000, 0]);
    expect(fake.receipt(kept.fiscalId)?.returnedCardLuma).toBe(250_000);

    const before = fake.receipts.length;
    const over = returnOf(kept.fiscalId, {
      cardAmount: 0,
      cashAmount: 5000,
      lines: [{ index: 0, quantityMilli: 2000 }],
    });
    const answer = await ehdmFiscalSystem.issueReturn(callWith(), over);
    expect(answer).toMatchObject({ kind: 'refused', retry: false, code: String(FAKE_CODES.RETURN_QUANTITY_EXCEEDED) });
    expect(fake.receipts.length).toBe(before);
  });

  it('refuses a return whose amounts are not the value of the quantities returned', async () => {
    const kept = await issued(ehdmFiscalSystem.issueSale(callWith(), sale()));
    const answer = await ehdmFiscalSystem.issueReturn(
      callWith(),
      returnOf(kept.fiscalId, { cardAmount: 2000, lines: [{ index: 0, quantityMilli: 1000 }] }),
    );
    expect(answer).toMatchObject({ kind: 'refused', retry: false, code: String(FAKE_CODES.RETURN_AMOUNT_MISMATCH) });
  });

  it('answers unknown when the return is issued and its answer lost, and the search finds it as a return', async () => {
    const kept = await issued(ehdmFiscalSystem.issueSale(callWith(), sale()));
    const afterFiscalId = kept.fiscalId;
    const notBeforeMs = Date.now();
    fake.failNext('printReturnReceipt', { kind: 'processThenDrop' });
    const answer = await ehdmFiscalSystem.issueReturn(callWith(), returnOf(kept.fiscalId));
    expect(answer.kind).toBe('unknown');
    const found = await ehdmFiscalSystem.search(callWith(), search({ afterFiscalId, notBeforeMs, type: 'return' }));
    expect(found).toMatchObject({
      kind: 'found',
      receipt: { fiscalId: String(Number(kept.fiscalId) + 1), total: 6500 },
    });
    const asSale = await ehdmFiscalSystem.search(callWith(), search({ afterFiscalId, notBeforeMs, type: 'sale' }));
    expect(asSale).toEqual({ kind: 'absent' });
  });
});

describe('search (getReturnedReceiptInfo)', () => {
  it('answers absent when nothing was issued after the last known receipt', async () => {
    const reads = fake.calls('getReturnedReceiptInfo').length;
    const answer = await ehdmFiscalSystem.search(callWith(), search({}));
    expect(answer).toEqual({ kind: 'absent' });
    const sent = fake.calls('getReturnedReceiptInfo').slice(reads);
    expect(sent.map((request) => request.body)).toEqual([
      { crn: fake.crn, seq: lastSeq, receiptId: String(fake.receipts.length + 1) },
    ]);
  });

  it('answers absent when the receipts after the last known one do not match', async () => {
    const afterFiscalId = String(fake.receipts.length);
    const notBeforeMs = Date.now();
    await issued(ehdmFiscalSystem.issueSale(callWith(), sale({ cardAmount: 7000 })));
    expect(await ehdmFiscalSystem.search(callWith(), search({ afterFiscalId, notBeforeMs }))).toEqual({
      kind: 'absent',
    });
    // A receipt of the same type and amounts dated before the first attempt (past the clocks'
    // allowance) cannot be ruled out: undecided, never absent.
    const later = notBeforeMs + 60 * 60_000;
    expect(
      await ehdmFiscalSystem.search(callWith(), search({ afterFiscalId, notBeforeMs: later, cardAmount: 7000 })),
    ).toEqual({
      kind: 'undecided',
      detail: `same type and amounts, dated before the first attempt: receipt ${Number(afterFiscalId) + 1}`,
    });
    expect(
      await ehdmFiscalSystem.search(callWith(), search({ afterFiscalId, notBeforeMs, cardAmount: 7000 })),
    ).toMatchObject({
      kind: 'found',
    });
    // Within the allowance for the two clocks, an earlier time still matches.
    const skewed = notBeforeMs + SEARCH_CLOCK_SKEW_MS - 10_000;
    expect(
      await ehdmFiscalSystem.search(callWith(), search({ afterFiscalId, notBeforeMs: skewed, cardAmount: 7000 })),
    ).toMatchObject({ kind: 'found' });
  });

  it('answers undecided for two candidates', async () => {
    const afterFiscalId = String(fake.receipts.length);
    const notBeforeMs = Date.now();
    await issued(ehdmFiscalSystem.issueSale(callWith(), sale()));
    await issued(ehdmFiscalSystem.issueSale(callWith(), sale()));
    const answer = await ehdmFiscalSystem.search(callWith(), search({ afterFiscalId, notBeforeMs }));
    const first = Number(afterFiscalId) + 1;
    expect(answer).toEqual({ kind: 'undecided', detail: `receipts ${first} and ${first + 1} both match` });
  });

  it('answers undecided without reading when no receipt of the register is known', async () => {
    const reads = fake.calls('getReturnedReceiptInfo').length;
    const answer = await ehdmFiscalSystem.search(callWith(), search({ afterFiscalId: null }));
    expect(answer.kind).toBe('undecided');
    expect(fake.calls('getReturnedReceiptInfo').length).toBe(reads);
  });

  it(`answers undecided after ${MAX_SEARCH_READS} reads without reaching the register's last receipt`, async () => {
    const afterFiscalId = String(fake.receipts.length);
    for (let i = 0; i <= MAX_SEARCH_READS; i += 1) {
      await issued(
        ehdmFiscalSystem.issueSale(
          callWith(),
          sale({
            cardAmount: 100,
            lines: [{ name: 'Pin', classification: null, code: null, unit: null, quantityMilli: 1000, unitPrice: 100 }],
          }),
        ),
      );
    }
    const reads = fake.calls('getReturnedReceiptInfo').length;
    const answer = await ehdmFiscalSystem.search(callWith(), search({ afterFiscalId }));
    expect(answer.kind).toBe('undecided');
    expect(fake.calls('getReturnedReceiptInfo').length - reads).toBe(MAX_SEARCH_READS);
  });

  it('answers undecided when a read fails or is refused', async () => {
    const unreachableAnswer = await ehdmFiscalSystem.search(callWith(await unreachable()), search({}));
    expect(unreachableAnswer).toEqual({ kind: 'undecided', detail: 'getReturnedReceiptInfo: connection refused' });
    fake.failNext('getReturnedReceiptInfo', { kind: 'html500' });
    expect((await ehdmFiscalSystem.search(callWith(), search({}))).kind).toBe('undecided');
    fake.failNext('getReturnedReceiptInfo', { kind: 'error', code: 104, message: 'INVALID_SEQ' });
    expect(await ehdmFiscalSystem.search(callWith(), search({}))).toEqual({
      kind: 'undecided',
      detail: 'getReturnedReceiptInfo answered code 104 INVALID_SEQ',
    });
    // Only the code taken for "no such receipt" ends the register; any other refusal is not that.
    fake.failNext('getReturnedReceiptInfo', { kind: 'error', code: 500, message: 'INTERNAL_ERROR' });
    expect(await ehdmFiscalSystem.search(callWith(), search({}))).toEqual({
      kind: 'undecided',
      detail: 'getReturnedReceiptInfo answered code 500 "INTERNAL_ERROR"',
    });
    expect(FAKE_CODES.RECEIPT_NOT_FOUND).toBe(RECEIPT_NOT_FOUND_CODE);
  });

  it('takes the end of the register only from an answer it knows: the code and a message that says not found', async () => {
    // The code taken for "no such receipt" with a message that says something else is not that.
    fake.failNext('getReturnedReceiptInfo', { kind: 'error', code: RECEIPT_NOT_FOUND_CODE, message: 'UNKNOWN_CRN' });
    expect(await ehdmFiscalSystem.search(callWith(), search({}))).toEqual({
      kind: 'undecided',
      detail: `getReturnedReceiptInfo answered code ${RECEIPT_NOT_FOUND_CODE} "UNKNOWN_CRN"`,
    });
    // Nor is a not-found message with another code.
    fake.failNext('getReturnedReceiptInfo', { kind: 'error', code: 1404, message: 'RECEIPT_NOT_FOUND' });
    expect((await ehdmFiscalSystem.search(callWith(), search({}))).kind).toBe('undecided');
    // The answer it knows ends the register.
    expect(await ehdmFiscalSystem.search(callWith(), search({}))).toEqual({ kind: 'absent' });
  });

  it('answers undecided, not found, when a match has an earlier receipt of the same type and amounts beside it', async () => {
    const afterFiscalId = String(fake.receipts.length);
    const notBeforeMs = Date.now();
    await issued(ehdmFiscalSystem.issueSale(callWith(), sale({ cardAmount: 7100 })));
    const firstId = Number(afterFiscalId) + 1;
    // The same sale again, dated inside the window: the earlier one, dated an hour before it, is not ruled out.
    const window = notBeforeMs + 60 * 60_000;
    const machine = fake.now;
    fake.now = () => window + 1_000;
    try {
      await issued(ehdmFiscalSystem.issueSale(callWith(), sale({ cardAmount: 7100 })));
    } finally {
      fake.now = machine;
    }
    expect(
      await ehdmFiscalSystem.search(callWith(), search({ afterFiscalId, notBeforeMs: window, cardAmount: 7100 })),
    ).toEqual({
      kind: 'undecided',
      detail: `same type and amounts, dated before the first attempt: receipt ${firstId} (receipt ${firstId + 1} matches)`,
    });
  });
});

describe('the local e-HDM is strict', () => {
  /** Sends `body` as the adapter would, with the test client certificate; answers status and parsed body. */
  async function raw(method: string, body: unknown, own: Partial<ProcessorRequest> = {}) {
    const reply = await http.request({
      method: 'POST',
      url: `${fake.baseUrl}${method}`,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      timeoutMs: 5000,
      tls: { cert: TEST_CERTS.client, key: TEST_CERTS.clientKey, ca: TEST_CERTS.ca },
      ...own,
    });
    return { status: reply.status, body: JSON.parse(reply.body) };
  }

  const item = { adgCode: '9205', dep: 1, goodCode: '001', goodName: 'Tea', quantity: 1, unit: 'հատ', price: 100 };
  const print = (overrides: Record<string, unknown>, itemOverrides: Record<string, unknown> = {}) => ({
    crn: fake.crn,
    cashierId: 1,
    mode: 2,
    cardAmount: 100,
    cashAmount: 0,
    partialAmount: 0,
    prePaymentAmount: 0,
    partnerTin: null,
    items: [{ ...item, ...itemOverrides }],
    ...overrides,
    seq: lastSeq + 1,
  });

  it('refuses another HTTP method, content type or path at the transport level', async () => {
    const get = await raw('print', {}, { method: 'GET', body: undefined });
    expect(get.status).toBe(405);
    expect(get.body).toMatchObject({ status: 405, error: 'Method Not Allowed' });
    const form = await raw('print', {}, { headers: { 'Content-Type': 'text/plain' } });
    expect(form.status).toBe(415);
    expect((await raw('activate', {})).status).toBe(404);
  });

  it('refuses lines and amounts outside the rules, each with its code', async () => {
    const before = fake.receipts.length;
    const cases: [Record<string, unknown>, Record<string, unknown>, number, string][] = [
      [{}, { goodName: 'x'.repeat(51) }, FAKE_CODES.INVALID_FIELD, 'goodName'],
      [{}, { quantity: 1.0005 }, FAKE_CODES.INVALID_FIELD, 'quantity'],
      [{}, { quantity: 0 }, FAKE_CODES.INVALID_FIELD, 'quantity'],
      [{}, { price: 10.001 }, FAKE_CODES.INVALID_FIELD, 'price'],
      [{ partnerTin: '1234' }, {}, FAKE_CODES.INVALID_FIELD, 'partnerTin'],
      [{ mode: 5 }, {}, FAKE_CODES.INVALID_FIELD, 'mode'],
      [{ cashierId: 0 }, {}, FAKE_CODES.INVALID_FIELD, 'cashierId'],
      [{ mode: 3 }, {}, 187, 'Items'],
      [{ cardAmount: 99.99 }, {}, 152, 'paid amount'],
    ];
    for (const [overrides, itemOverrides, code, words] of cases) {
      const answer = await raw('print', print(overrides, itemOverrides));
      lastSeq = fake.lastSeq;
      expect(answer.status).toBe(200);
      expect(answer.body, words).toMatchObject({ code, result: null });
      expect(answer.body.errorMessage, words).toContain(words);
    }
    expect(fake.receipts.length).toBe(before);
    const fine = await raw('print', print({ cardAmount: '100.00' }, { quantity: '1.000' }));
    lastSeq = fake.lastSeq;
    expect(fine.body).toMatchObject({ code: 0, result: { receiptId: String(before + 1) } });
  });

  it('answers its own code for a receipt the register has not issued', async () => {
    const answer = await raw('getReturnedReceiptInfo', { crn: fake.crn, seq: lastSeq + 1, receiptId: '999999' });
    lastSeq = fake.lastSeq;
    expect(answer.body).toMatchObject({ code: RECEIPT_NOT_FOUND_CODE, message: 'RECEIPT_NOT_FOUND', result: null });
  });
});

describe('details', () => {
  it('never carry the key or the passphrase', async () => {
    const encrypted = ehdmConfigSchema.parse({
      ...fake.config,
      private_key: TEST_CERTS.clientKeyEncrypted,
      passphrase: TEST_CERTS.passphrase,
    });
    const details: string[] = [];
    const collect = (answer: IssueAnswer) => {
      if (answer.kind !== 'issued') details.push(answer.detail);
    };
    // A client of its own: a kept-alive connection opened with the right passphrase would be reused.
    const fresh = loopbackHttp();
    collect(
      await ehdmFiscalSystem.issueSale(
        { config: { ...encrypted, passphrase: 'wrong-pass-7781' }, http: fresh },
        sale(),
      ),
    );
    fresh.close();
    collect(await ehdmFiscalSystem.issueSale({ config: { ...encrypted, crn: '59999999' }, http }, sale()));
    collect(await ehdmFiscalSystem.issueSale({ config: { ...encrypted, ...(await unreachable()) }, http }, sale()));
    collect(
      await ehdmFiscalSystem.issueSale(
        { config: { ...encrypted, certificate: TEST_CERTS.otherClient, private_key: TEST_CERTS.otherClientKey }, http },
        sale(),
      ),
    );
    fake.failNext('print', {
      kind: 'error',
      code: 152,
      message: 'PAID',
      errorMessage: `echo ${TEST_CERTS.passphrase}`,
    });
    collect(await ehdmFiscalSystem.issueSale({ config: encrypted, http }, sale()));
    const check = await ehdmFiscalSystem.check({ config: { ...encrypted, crn: '59999999' }, http }, await nextSeq());
    if (!check.ok) details.push(check.detail);

    expect(details).toHaveLength(6);
    expect(details[0]).toBe('print: the client certificate, key or passphrase cannot be used');
    expect(details[4]).toContain('[redacted]');
    const keyLine = TEST_CERTS.clientKeyEncrypted.split('\n')[1] ?? '';
    for (const detail of details) {
      expect(detail).not.toContain(TEST_CERTS.passphrase);
      expect(detail).not.toContain('wrong-pass-7781');
      expect(detail).not.toContain('PRIVATE KEY');
      expect(detail).not.toContain(keyLine);
    }
  });
});
