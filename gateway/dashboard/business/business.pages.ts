/**
 * The business verification page: the state (not sent, being checked, verified, rejected with the
 * reason), the details and documents sent, and the form when a request may be sent. Documents are
 * links (downloads) for the owner and admins only; viewers see their names, types and sizes.
 */
import type { BusinessDocumentSummary } from '../../../storage/business-verification.table.js';
import { escapeHtml } from '../../checkout/html.js';
import { formatDateTime } from '../../i18n/format.js';
import type { Language } from '../../i18n/languages.js';
import type {
  BusinessField,
  BusinessProblems,
  BusinessState,
  DocumentType,
} from '../../merchants/business-verification.service.js';
import { maySubmit } from '../../merchants/business-verification.service.js';
import { alert, field, hidden, layout, notice, type Shell, summary } from '../layout.js';
import { mayManage } from '../roles.js';
import { BUSINESS_MESSAGES, type BusinessMessages } from './messages.js';

export interface BusinessFormValues {
  readonly legal_name: string;
  readonly tin: string;
  readonly address: string;
  readonly phone: string;
}

export interface BusinessView {
  readonly state: BusinessState;
  /** What the form shows (what was typed, or the rejected request's details). */
  readonly values: BusinessFormValues;
  readonly problems: BusinessProblems;
  readonly notice: string | null;
  readonly error: string | null;
}

const TYPE_NAMES: Readonly<Record<DocumentType, string>> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
};

export function businessMessages(shell: Shell): BusinessMessages {
  return BUSINESS_MESSAGES[shell.lang];
}

/** A stored instant in Yerevan time, in the reader's language. */
export function shownTime(language: Language, instant: string): string {
  return formatDateTime(language, instant);
}

export function shownSize(m: BusinessMessages, size: number): string {
  if (size < 1024 * 1024) return m.kilobytes(String(Math.max(1, Math.round(size / 1024))));
  return m.megabytes((size / (1024 * 1024)).toFixed(1));
}

function statusCard(language: Language, m: BusinessMessages, state: BusinessState): string {
  const label = m.statusLabel[state.status];
  let text: string;
  let extra = '';
  switch (state.status) {
    case 'not_submitted':
      text = m.notSubmittedText;
      break;
    case 'pending':
      text = m.pendingText(state.request === null ? '' : shownTime(language, state.request.submitted_at));
      break;
    case 'verified':
      text = m.verifiedText;
      break;
    case 'rejected':
      text = m.rejectedText;
      extra = `<p class="business-reason"><strong>${escapeHtml(m.reason)}:</strong> ${escapeHtml(state.request?.reason ?? '')}</p>`;
      break;
  }
  return `<section class="card business-status business-${state.status}" aria-labelledby="business-status-title">
<h2 id="business-status-title">${escapeHtml(m.statusTitle)}: <span class="business-badge">${escapeHtml(label)}</span></h2>
<p>${escapeHtml(text)}</p>${extra}
</section>`;
}

function documentsList(m: BusinessMessages, documents: readonly BusinessDocumentSummary[], links: boolean): string {
  if (documents.length === 0) return `<p class="muted">${escapeHtml(m.noDocuments)}</p>`;
  const rows = documents
    .map((d) => {
      const name = links
        ? `<a href="/dashboard/business/documents/${escapeHtml(d.id)}" download>${escapeHtml(d.file_name)}</a>`
        : escapeHtml(d.file_name);
      const type = TYPE_NAMES[d.content_type as DocumentType] ?? d.content_type;
      return `<tr><td class="business-file">${name}</td><td>${escapeHtml(type)}</td><td>${escapeHtml(shownSize(m, d.size))}</td></tr>`;
    })
    .join('');
  return `<div class="table-wrap"><table class="business-docs">
<thead><tr><th scope="col">${escapeHtml(m.fileName)}</th><th scope="col">${escapeHtml(m.fileType)}</th><th scope="col">${escapeHtml(m.fileSize)}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function detailsCard(language: Language, m: BusinessMessages, state: BusinessState, links: boolean): string {
  const request = state.request;
  if (request === null) return '';
  const row = (term: string, value: string) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`;
  return `<section class="card" aria-labelledby="business-details-title">
<h2 id="business-details-title">${escapeHtml(m.detailsTitle)}</h2>
<dl class="business-details">
${row(m.legalName, request.legal_name)}
${row(m.tin, request.tin)}
${row(m.address, request.address)}
${row(m.phone, request.phone)}
${row(m.submittedAt, shownTime(language, request.submitted_at))}
${request.decided_at === null ? '' : row(m.decidedAt, shownTime(language, request.decided_at))}
</dl>
<h3>${escapeHtml(m.documentsTitle)}</h3>
${documentsList(m, state.documents, links)}
</section>`;
}

function problemText(m: BusinessMessages, problems: BusinessProblems, name: BusinessField) {
  const problem = problems[name];
  return problem === undefined ? undefined : { text: m.problems[problem] };
}

function formCard(shell: Shell, m: BusinessMessages, view: BusinessView): string {
  const { t } = shell;
  const { values, problems } = view;
  const title = view.state.status === 'rejected' ? m.resubmitTitle : m.formTitle;
  const docProblem = problems.documents;
  const described = ['f-documents-hint', ...(docProblem === undefined ? [] : ['f-documents-error'])].join(' ');
  return `<section class="card" aria-labelledby="business-form-title">
<h2 id="business-form-title">${escapeHtml(title)}</h2>
${summary(t, problems)}
<form method="post" action="/dashboard/business" enctype="multipart/form-data" novalidate>${hidden(shell)}
${field(t, { name: 'legal_name', label: m.legalName, type: 'text', autocomplete: 'organization', value: values.legal_name, hint: m.legalNameHint, problem: problemText(m, problems, 'legal_name') })}
${field(t, { name: 'tin', label: m.tin, type: 'text', autocomplete: 'off', inputmode: 'numeric', value: values.tin, hint: m.tinHint, problem: problemText(m, problems, 'tin') })}
${field(t, { name: 'address', label: m.address, type: 'text', autocomplete: 'street-address', value: values.address, hint: m.addressHint, problem: problemText(m, problems, 'address') })}
${field(t, { name: 'phone', label: m.phone, type: 'tel', autocomplete: 'tel', inputmode: 'tel', value: values.phone, hint: m.phoneHint, problem: problemText(m, problems, 'phone') })}
<label for="f-documents">${escapeHtml(m.documents)}</label>
<input id="f-documents" name="documents" type="file" multiple required accept=".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg" aria-describedby="${described}"${docProblem === undefined ? '' : ' aria-invalid="true"'}>
<p class="hint" id="f-documents-hint">${escapeHtml(m.documentsHint)}</p>
${docProblem === undefined ? '' : `<p class="field-error" id="f-documents-error">${escapeHtml(m.problems[docProblem])}</p>`}
<button type="submit">${escapeHtml(m.send)}</button>
</form>
</section>`;
}

export function businessPage(shell: Shell, view: BusinessView): string {
  const m = businessMessages(shell);
  const manager = shell.viewer !== null && mayManage(shell.viewer.role);
  const open = maySubmit(view.state.status);
  const parts = [
    `<h1>${escapeHtml(m.title)}</h1>`,
    `<p class="muted">${escapeHtml(m.intro)}</p>`,
    notice(view.notice),
    alert(view.error),
    statusCard(shell.lang, m, view.state),
  ];
  if (open && manager) parts.push(formCard(shell, m, view));
  if (!manager) parts.push(`<p class="muted">${escapeHtml(m.viewerNote)}</p>`);
  parts.push(detailsCard(shell.lang, m, view.state, manager));
  return layout(shell, m.title, `<div class="business">${parts.join('\n')}</div>`);
}
