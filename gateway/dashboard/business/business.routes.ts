/**
 * Business verification in the dashboard:
 *
 * - `GET  /dashboard/business`                 the state, the details and documents sent, the form
 * - `POST /dashboard/business`                 send a request (multipart: fields and documents)
 * - `GET  /dashboard/business/documents/:id`   download a document (owner and admins only)
 *
 * The operator decides with `bin/gateway business verify|reject`
 * (gateway/cli/commands/business.ts); both call gateway/merchants/business-verification.service.ts.
 */
import type { GatewayContext } from '../../api/context.js';
import {
  BUSINESS_LIMITS,
  type BusinessProblem,
  readBusinessDocument,
  readBusinessState,
  submitBusinessVerification,
} from '../../merchants/business-verification.service.js';
import type { DashboardKit, SectionRoutes } from '../kit.js';
import {
  type MultipartForm,
  multipartForm,
  multipartGuard,
  type UploadProblem,
  uploadProblemStatus,
} from '../multipart.js';
import { type BusinessFormValues, businessMessages, businessPage } from './business.pages.js';

const UPLOAD_PROBLEMS: Readonly<Record<UploadProblem, BusinessProblem>> = {
  file_too_large: 'document_too_large',
  too_many_files: 'too_many_documents',
  total_too_large: 'documents_too_large',
  malformed: 'upload_broken',
};

function valuesOf(form: MultipartForm): BusinessFormValues {
  const get = (name: string) => form.fields.get(name) ?? '';
  return { legal_name: get('legal_name'), tin: get('tin'), address: get('address'), phone: get('phone') };
}

/** `filename*` of a Content-Disposition (RFC 6266/8187), with an ASCII fallback `filename`. */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export const businessRoutes: SectionRoutes = (router, kit: DashboardKit) => {
  const { deps } = kit;

  const noticeOf = (ctx: GatewayContext, shell: Parameters<typeof businessMessages>[0]): string | null =>
    kit.query(ctx, 'notice') === 'submitted' ? businessMessages(shell).submitted : null;

  router.get('/dashboard/business', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'business');
    if (!visit) return;
    const state = await readBusinessState(deps, visit.merchantId);
    const request = state.request;
    const values: BusinessFormValues =
      request === null
        ? { legal_name: '', tin: '', address: '', phone: '' }
        : { legal_name: request.legal_name, tin: request.tin, address: request.address, phone: request.phone };
    kit.send(
      ctx,
      visit.shell,
      200,
      businessPage(visit.shell, { state, values, problems: {}, notice: noticeOf(ctx, visit.shell), error: null }),
    );
  });

  const upload = multipartGuard(kit, {
    maxFiles: BUSINESS_LIMITS.maxDocuments,
    maxFileBytes: BUSINESS_LIMITS.maxDocumentBytes,
    maxTotalBytes: BUSINESS_LIMITS.maxTotalBytes,
  });

  router.post('/dashboard/business', upload, async (ctx) => {
    const visit = await kit.manager(ctx, 'business');
    if (!visit) return;
    const form = multipartForm(ctx);
    const values = valuesOf(form);
    const m = businessMessages(visit.shell);
    const render = async (status: number, problems: Record<string, BusinessProblem>, error: string | null) => {
      const state = await readBusinessState(deps, visit.merchantId);
      kit.send(ctx, visit.shell, status, businessPage(visit.shell, { state, values, problems, notice: null, error }));
    };
    if (form.problem !== null) {
      return render(uploadProblemStatus(form.problem), { documents: UPLOAD_PROBLEMS[form.problem] }, null);
    }
    const result = await submitBusinessVerification(deps, {
      merchantId: visit.merchantId,
      actor: { userId: visit.session.user.id, email: visit.session.user.email, address: ctx.ip },
      business: { legalName: values.legal_name, tin: values.tin, address: values.address, phone: values.phone },
      documents: form.files
        .filter((file) => file.field === 'documents')
        .map((file) => ({ fileName: file.fileName, bytes: file.bytes })),
    });
    switch (result.kind) {
      case 'invalid':
        return render(422, result.problems, null);
      case 'refused':
        return render(409, {}, result.status === 'verified' ? m.refusedVerified : m.refusedPending);
      case 'submitted':
        return kit.redirect(ctx, '/dashboard/business?notice=submitted');
    }
  });

  router.get('/dashboard/business/documents/:id', async (ctx) => {
    const visit = await kit.manager(ctx, 'business');
    if (!visit) return;
    const id = ctx.params.id ?? '';
    const document = /^[0-9a-f-]{36}$/.test(id) ? await readBusinessDocument(deps, id, visit.merchantId) : undefined;
    if (document === undefined) return kit.notFound(ctx, visit);
    ctx.status = 200;
    ctx.set('Content-Type', document.content_type);
    ctx.set('Content-Disposition', attachment(document.file_name));
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.body = document.content;
  });
};
