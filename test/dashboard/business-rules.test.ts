/** The rules of a business verification request, without a server: names, TIN, phone, file types. */
import { describe, expect, it } from 'vitest';
import {
  checkSubmission,
  normalPhone,
  normalTin,
  safeFileName,
  sniffDocumentType,
} from '../../gateway/merchants/business-verification.service.js';
import { GOOD_BUSINESS, sampleExe, samplePdf, samplePng } from './business-support.js';

describe('business verification rules', () => {
  it('recognises PDF, PNG and JPEG by their first bytes only', () => {
    expect(sniffDocumentType(samplePdf())).toBe('application/pdf');
    expect(sniffDocumentType(samplePng())).toBe('image/png');
    expect(sniffDocumentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(sniffDocumentType(sampleExe())).toBeNull();
    expect(sniffDocumentType(Buffer.from('<html><script>alert(1)</script>'))).toBeNull();
    expect(sniffDocumentType(Buffer.alloc(0))).toBeNull();
  });

  it('makes file names safe: no directory, no control or quoting characters, the real extension', () => {
    expect(safeFileName('../../etc/passwd', 'application/pdf')).toBe('passwd.pdf');
    expect(safeFileName('C:\\Users\\a\\scan.exe', 'image/png')).toBe('scan.png');
    expect(safeFileName('Քաղվածք "2026"\r\n.PDF', 'application/pdf')).toBe('Քաղվածք _2026_.pdf');
    expect(safeFileName('photo.jpeg', 'image/jpeg')).toBe('photo.jpg');
    expect(safeFileName('', 'application/pdf')).toBe('document.pdf');
    expect(safeFileName('...', 'application/pdf')).toBe('document.pdf');
    expect(safeFileName(`${'a'.repeat(300)}.pdf`, 'application/pdf')).toHaveLength(94);
  });

  it('takes a TIN of 8 digits and an Armenian phone number, spaces allowed', () => {
    expect(normalTin('02512345')).toBe('02512345');
    expect(normalTin(' 0251 2345 ')).toBe('02512345');
    expect(normalTin('0251234')).toBeNull();
    expect(normalTin('025123456')).toBeNull();
    expect(normalTin('0251234a')).toBeNull();
    expect(normalPhone('+374 10 123456')).toBe('+37410123456');
    expect(normalPhone('+37491123456')).toBe('+37491123456');
    expect(normalPhone('+374 10 12345')).toBeNull();
    expect(normalPhone('010 123456')).toBeNull();
    expect(normalPhone('+7 999 123 45 67')).toBeNull();
  });

  it('names every field with a problem', () => {
    const long = 'x'.repeat(201);
    const result = checkSubmission({ legalName: long, tin: '', address: ' ', phone: '123' }, [
      { fileName: 'a.pdf', bytes: Buffer.alloc(0) },
    ]);
    expect(result).toEqual({
      ok: false,
      problems: {
        legal_name: 'too_long',
        tin: 'required',
        address: 'required',
        phone: 'phone_format',
        documents: 'document_empty',
      },
    });
    const good = checkSubmission(
      {
        legalName: `  ${GOOD_BUSINESS.legal_name}\n`,
        tin: GOOD_BUSINESS.tin,
        address: GOOD_BUSINESS.address,
        phone: GOOD_BUSINESS.phone,
      },
      [{ fileName: 'x.pdf', bytes: samplePdf() }],
    );
    expect(good.ok && good.value.legalName).toBe('Ararat Books LLC');
  });
});
