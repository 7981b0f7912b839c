/**
 * The pages of two-step sign-in: setup (QR code and key, then a code and the password), the
 * recovery codes (shown once, on the answer that made them), the page of a user who has it on
 * (turn off, new recovery codes), and the second step of sign-in.
 */
import { escapeHtml } from '../../checkout/html.js';
import { alert, type FieldSpec, field, hidden, layout, notice, type Shell, secretBox, summary } from '../layout.js';
import { TWO_FACTOR_MESSAGES } from './messages.js';
import type { TwoFactorProblems } from './two-factor.service.js';

function codeProblem(shell: Shell, problems: TwoFactorProblems): FieldSpec['problem'] {
  const m = TWO_FACTOR_MESSAGES[shell.lang];
  if (problems.code === undefined) return undefined;
  return problems.code === 'wrong_code' ? { text: m.wrongCode } : problems.code;
}

function backLink(shell: Shell): string {
  return `<div class="links"><a href="/dashboard/account">${escapeHtml(TWO_FACTOR_MESSAGES[shell.lang].backToAccount)}</a></div>`;
}

export interface EnrolView {
  readonly notice: string | null;
  /** The pending secret, base32. */
  readonly secret: string;
  /** The QR code of the otpauth URI, as a `data:image/png` URL. */
  readonly qrDataUrl: string;
  readonly problems: TwoFactorProblems;
}

export function enrolPage(shell: Shell, view: EnrolView): string {
  const { t } = shell;
  const m = TWO_FACTOR_MESSAGES[shell.lang];
  const grouped = view.secret.replace(/(.{4})(?!$)/g, '$1 ');
  return layout(
    shell,
    m.title,
    `<h1>${escapeHtml(m.title)}</h1>
${notice(view.notice)}
<p>${escapeHtml(m.intro)}</p>
<div class="grid tf-grid">
<section class="card" aria-labelledby="scan-title">
<h2 id="scan-title">${escapeHtml(m.scanTitle)}</h2>
<p>${escapeHtml(m.scanText)}</p>
<p class="tf-qr"><img src="${escapeHtml(view.qrDataUrl)}" width="200" height="200" alt="${escapeHtml(m.qrAlt)}"></p>
<h3>${escapeHtml(m.secretLabel)}</h3>
${secretBox(shell, 'totp-secret', grouped, null)}
</section>
<section class="card" aria-labelledby="confirm-title">
<h2 id="confirm-title">${escapeHtml(m.confirmTitle)}</h2>
<p>${escapeHtml(m.confirmText)}</p>
${summary(t, view.problems)}
<form method="post" action="/dashboard/account/two-factor/enable" novalidate>${hidden(shell)}
${field(t, { name: 'code', label: m.code, type: 'text', autocomplete: 'one-time-code', inputmode: 'numeric', hint: m.codeHint, problem: codeProblem(shell, view.problems) })}
${field(t, { name: 'current_password', label: t.currentPassword, type: 'password', autocomplete: 'current-password', problem: view.problems.current_password })}
<button type="submit">${escapeHtml(m.turnOn)}</button>
</form>
</section>
</div>
${backLink(shell)}`,
  );
}

export interface ManageView {
  readonly notice: string | null;
  /** Sign-in is paused (too many wrong codes): the lockout message. */
  readonly error: string | null;
  /** When it was turned on (stored instant). */
  readonly enabledAt: string;
  readonly unusedRecoveryCodes: number;
  readonly disableProblems: TwoFactorProblems;
  readonly codesProblems: TwoFactorProblems;
}

export function managePage(shell: Shell, view: ManageView): string {
  const { t } = shell;
  const m = TWO_FACTOR_MESSAGES[shell.lang];
  return layout(
    shell,
    m.title,
    `<h1>${escapeHtml(m.title)}: ${escapeHtml(m.on)}</h1>
${notice(view.notice)}${alert(view.error)}
<p>${escapeHtml(m.statusOn)} ${escapeHtml(m.onSince(view.enabledAt))} ${escapeHtml(m.recoveryLeft(view.unusedRecoveryCodes))}</p>
<div class="grid tf-grid">
<section class="card" aria-labelledby="disable-title">
<h2 id="disable-title">${escapeHtml(m.disableTitle)}</h2>
<p>${escapeHtml(m.disableText)}</p>
${summary(t, view.disableProblems)}
<form method="post" action="/dashboard/account/two-factor/disable" novalidate>${hidden(shell)}
${field(t, { name: 'code', id: 'd-code', label: m.codeOrRecovery, type: 'text', autocomplete: 'one-time-code', hint: m.codeOrRecoveryHint, problem: codeProblem(shell, view.disableProblems) })}
${field(t, { name: 'current_password', id: 'd-current_password', label: t.currentPassword, type: 'password', autocomplete: 'current-password', problem: view.disableProblems.current_password })}
<button type="submit" class="tf-danger">${escapeHtml(m.turnOff)}</button>
</form>
</section>
<section class="card" aria-labelledby="codes-title">
<h2 id="codes-title">${escapeHtml(m.newCodesTitle)}</h2>
<p>${escapeHtml(m.newCodesText)}</p>
${summary(t, view.codesProblems)}
<form method="post" action="/dashboard/account/two-factor/recovery-codes" novalidate>${hidden(shell)}
${field(t, { name: 'code', id: 'r-code', label: m.code, type: 'text', autocomplete: 'one-time-code', inputmode: 'numeric', hint: m.codeHint, problem: codeProblem(shell, view.codesProblems) })}
${field(t, { name: 'current_password', id: 'r-current_password', label: t.currentPassword, type: 'password', autocomplete: 'current-password', problem: view.codesProblems.current_password })}
<button type="submit" class="tf-secondary">${escapeHtml(m.makeNewCodes)}</button>
</form>
</section>
</div>
${backLink(shell)}`,
  );
}

/** The recovery codes, on the one answer that shows them. */
export function recoveryCodesPage(shell: Shell, view: { notice: string | null; codes: readonly string[] }): string {
  const { t } = shell;
  const m = TWO_FACTOR_MESSAGES[shell.lang];
  const items = view.codes.map((code) => `<li>${escapeHtml(code)}</li>`).join('\n');
  return layout(
    shell,
    m.recoveryTitle,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(m.recoveryTitle)}</h1>
${notice(view.notice)}
<p>${escapeHtml(m.recoveryText)}</p>
<p class="alert" role="note">${escapeHtml(m.recoveryOnce)}</p>
<ul class="key tf-codes" id="recovery-codes">
${items}
</ul>
<div class="copy-row"><button type="button" class="secondary" data-copy="recovery-codes" data-copied="${escapeHtml(t.copied)}">${escapeHtml(t.copy)}</button><span class="copied" role="status" aria-live="polite"></span></div>
<div class="links"><a href="/dashboard/account">${escapeHtml(m.savedThem)}</a></div>
</div></div>`,
  );
}

/** The second step of sign-in: a code from the app or a recovery code. */
export function secondStepPage(shell: Shell, view: { error: string | null }): string {
  const { t } = shell;
  const m = TWO_FACTOR_MESSAGES[shell.lang];
  return layout(
    shell,
    m.stepTitle,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(m.stepTitle)}</h1>
${alert(view.error)}
<p>${escapeHtml(m.stepText)}</p>
<form method="post" action="/dashboard/sign-in/two-factor">${hidden(shell)}
${field(t, { name: 'code', label: m.stepCode, type: 'text', autocomplete: 'one-time-code', hint: m.stepHint })}
<button type="submit">${escapeHtml(m.stepContinue)}</button>
</form>
<div class="links"><a href="/dashboard/sign-in">${escapeHtml(m.stepCancel)}</a></div>
</div></div>`,
  );
}
