/**
 * Helpers of the business verification tests: small documents of each accepted type (and one that
 * is not), and a multipart post of the form through a DashboardClient's cookies, built with
 * FormData as a browser sends it (the form token first).
 */
import type { Executor } from '../../storage/database.js';
import { formToken } from '../checkout/support.js';
import type { DashboardClient, Page } from './support.js';

/** A tiny but well-formed PDF. */
export function samplePdf(text = 'State register extract'): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n% ${text}\ntrailer <</Root 1 0 R>>\n%%EOF\n`,
    'latin1',
  );
}

/** The 8-byte PNG signature and a few bytes (enough for the type check). */
export function samplePng(): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
}

/** A Windows program ("MZ"), whatever it is called. */
export function sampleExe(): Buffer {
  return Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(200, 0)]);
}

export interface UploadFile {
  readonly name: string;
  readonly type: string;
  readonly bytes: Buffer;
}

export const GOOD_BUSINESS = {
  legal_name: 'Ararat Books LLC',
  tin: '02512345',
  address: '5 Abovyan St, Yerevan 0001',
  phone: '+374 10 123456',
} as const;

/**
 * Posts the business form as multipart/form-data with the client's cookies. `token`: the form token
 * to send (default: the one of `/dashboard/business`), or null to send none; `tokenLast` puts it
 * after the files.
 */
export async function postBusiness(
  client: DashboardClient,
  fields: Record<string, string>,
  files: readonly UploadFile[],
  options: { token?: string | null; tokenLast?: boolean } = {},
): Promise<Page> {
  let token = options.token;
  if (token === undefined) token = formToken((await client.get('/dashboard/business')).text);
  const form = new FormData();
  if (token !== null && options.tokenLast !== true) form.append('form_token', token);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) {
    form.append('documents', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  }
  if (token !== null && options.tokenLast === true) form.append('form_token', token);
  const response = await fetch(`${client.baseUrl}/dashboard/business`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...client.headers, ...(client.cookies.size > 0 ? { Cookie: client.cookieHeader() } : {}) },
    body: form,
  });
  const setCookies = response.headers.getSetCookie();
  for (const line of setCookies) {
    const [pair = ''] = line.split(';');
    const name = pair.slice(0, pair.indexOf('='));
    if (/Max-Age=0/i.test(line)) client.cookies.delete(name);
    else client.cookies.set(name, pair.slice(pair.indexOf('=') + 1));
  }
  return {
    status: response.status,
    headers: response.headers,
    text: await response.text(),
    location: response.headers.get('location'),
    setCookies,
  };
}

/** How many requests and documents the merchant has. */
export async function storedCounts(db: Executor, merchantId: string): Promise<{ requests: number; documents: number }> {
  const requests = await db
    .selectFrom('business_verifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('merchant_id', '=', merchantId)
    .executeTakeFirstOrThrow();
  const documents = await db
    .selectFrom('business_verification_documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('merchant_id', '=', merchantId)
    .executeTakeFirstOrThrow();
  return { requests: Number(requests.n), documents: Number(documents.n) };
}
