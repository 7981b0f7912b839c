/**
 * The pages of accounts (sign-up, sign-in, reset, account) and the home page, as HTML, in the
 * frame of gateway/dashboard/layout.ts.
 */
import { escapeHtml } from '../checkout/html.js';
import type { Language } from '../checkout/i18n/index.js';
import type { FieldProblem, FieldProblems } from './accounts.service.js';
import { alert, field, hidden, layout, notice, type Shell, summary } from './layout.js';
import { CHECKLIST_ITEMS, type Checklist, type ChecklistItem } from './onboarding.service.js';
import { twoFactorCard } from './two-factor/account-card.js';

export type { Shell, Viewer } from './layout.js';

export interface SignUpView {
  readonly name: string;
  readonly email: string;
  readonly problems: FieldProblems;
}

export function signUpPage(shell: Shell, view: SignUpView): string {
  const { t } = shell;
  return layout(
    shell,
    t.signUpTitle,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(t.signUpTitle)}</h1>
<p class="muted">${escapeHtml(t.signUpIntro)}</p>
${summary(t, view.problems)}
<form method="post" action="/dashboard/sign-up" novalidate>${hidden(shell)}
${field(t, { name: 'name', label: t.businessName, type: 'text', autocomplete: 'organization', value: view.name, problem: view.problems.name })}
${field(t, { name: 'email', label: t.email, type: 'email', autocomplete: 'email', value: view.email, problem: view.problems.email })}
${field(t, { name: 'password', label: t.password, type: 'password', autocomplete: 'new-password', hint: t.passwordHint, problem: view.problems.password })}
<button type="submit">${escapeHtml(t.createAccount)}</button>
</form>
<div class="links"><a href="/dashboard/sign-in">${escapeHtml(t.haveAccount)}</a></div>
</div></div>`,
  );
}

export interface SignInView {
  readonly email: string;
  readonly notice: string | null;
  readonly error: string | null;
}

export function signInPage(shell: Shell, view: SignInView): string {
  const { t } = shell;
  return layout(
    shell,
    t.signInTitle,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(t.signInTitle)}</h1>
${notice(view.notice)}${alert(view.error)}
<form method="post" action="/dashboard/sign-in">${hidden(shell)}
${field(t, { name: 'email', label: t.email, type: 'email', autocomplete: 'username', value: view.email })}
${field(t, { name: 'password', label: t.password, type: 'password', autocomplete: 'current-password' })}
<button type="submit">${escapeHtml(t.signIn)}</button>
</form>
<div class="links"><a href="/dashboard/reset">${escapeHtml(t.forgotPassword)}</a><a href="/dashboard/sign-up">${escapeHtml(t.noAccount)}</a></div>
</div></div>`,
  );
}

/** A page that only says something (check your email, a dead link, an expired form...). */
export function messagePage(
  shell: Shell,
  title: string,
  text: string,
  link: { href: string; text: string } | null = null,
): string {
  const more =
    link === null ? '' : `<div class="links"><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></div>`;
  return layout(
    shell,
    title,
    `<div class="narrow"><div class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${more}</div></div>`,
  );
}

export function confirmEmailPage(shell: Shell, token: string): string {
  const { t } = shell;
  return layout(
    shell,
    t.confirmEmailTitle,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(t.confirmEmailTitle)}</h1>
<p>${escapeHtml(t.confirmEmailText)}</p>
<form method="post" action="/dashboard/verify-email">${hidden(shell)}
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">${escapeHtml(t.confirmEmail)}</button>
</form>
</div></div>`,
  );
}

export function resetRequestPage(shell: Shell, view: { email: string; problem?: FieldProblem | undefined }): string {
  const { t } = shell;
  return layout(
    shell,
    t.resetTitle,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(t.resetTitle)}</h1>
<p class="muted">${escapeHtml(t.resetIntro)}</p>
<form method="post" action="/dashboard/reset" novalidate>${hidden(shell)}
${field(t, { name: 'email', label: t.email, type: 'email', autocomplete: 'email', value: view.email, problem: view.problem })}
<button type="submit">${escapeHtml(t.sendResetLink)}</button>
</form>
<div class="links"><a href="/dashboard/sign-in">${escapeHtml(t.signInTitle)}</a></div>
</div></div>`,
  );
}

export function newPasswordPage(shell: Shell, token: string, problem?: FieldProblem): string {
  const { t } = shell;
  return layout(
    shell,
    t.newPasswordTitle,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(t.newPasswordTitle)}</h1>
${problem === undefined ? '' : summary(t, { password: problem })}
<form method="post" action="/dashboard/reset/new" novalidate>${hidden(shell)}
<input type="hidden" name="token" value="${escapeHtml(token)}">
${field(t, { name: 'password', label: t.newPassword, type: 'password', autocomplete: 'new-password', hint: t.passwordHint, problem })}
<button type="submit">${escapeHtml(t.setPassword)}</button>
</form>
</div></div>`,
  );
}

export interface AccountView {
  readonly notice: string | null;
  readonly newEmail: string;
  readonly emailProblems: FieldProblems;
  readonly passwordProblems: FieldProblems;
  /** Whether the user has two-step sign-in on (its card links to its page). */
  readonly twoFactorOn: boolean;
  /** The language of the account's emails, for an owner or admin (who may change it); null: no card. */
  readonly emailLanguage: Language | null;
  /** The language posted was not one of the three. */
  readonly languageProblem: boolean;
}

const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { en: 'English', hy: 'Հայերեն', ru: 'Русский' };

function emailLanguageCard(shell: Shell, view: AccountView): string {
  if (view.emailLanguage === null) return '';
  const { t } = shell;
  const options = (Object.keys(LANGUAGE_NAMES) as Language[])
    .map(
      (language) =>
        `<option value="${language}" lang="${language}"${language === view.emailLanguage ? ' selected' : ''}>${escapeHtml(LANGUAGE_NAMES[language])}</option>`,
    )
    .join('');
  const error = view.languageProblem
    ? `<p class="field-error" id="language-error">${escapeHtml(t.emailLanguageInvalid)}</p>`
    : '';
  const invalid = view.languageProblem ? ' aria-invalid="true" aria-describedby="language-error"' : '';
  return `<section class="card" aria-labelledby="language-title">
<h2 id="language-title">${escapeHtml(t.emailLanguageTitle)}</h2>
<p class="hint">${escapeHtml(t.emailLanguageText)}</p>
<form method="post" action="/dashboard/account/email-language" novalidate>${hidden(shell)}
<label for="email-language">${escapeHtml(t.emailLanguageLabel)}</label>
<select id="email-language" name="language"${invalid}>${options}</select>${error}
<button type="submit">${escapeHtml(t.emailLanguageSave)}</button>
</form>
</section>`;
}

export function accountPage(shell: Shell, view: AccountView): string {
  const { t } = shell;
  return layout(
    shell,
    t.accountTitle,
    `<h1>${escapeHtml(t.accountTitle)}</h1>
${notice(view.notice)}
<div class="grid">
<section class="card" aria-labelledby="email-title">
<h2 id="email-title">${escapeHtml(t.changeEmailTitle)}</h2>
${summary(t, view.emailProblems)}
<form method="post" action="/dashboard/account/email" novalidate>${hidden(shell)}
${field(t, { name: 'email', label: t.newEmail, type: 'email', autocomplete: 'email', value: view.newEmail, problem: view.emailProblems.email })}
${field(t, { name: 'current_password', label: t.currentPassword, type: 'password', autocomplete: 'current-password', problem: view.emailProblems.current_password })}
<button type="submit">${escapeHtml(t.changeEmail)}</button>
</form>
</section>
<section class="card" aria-labelledby="password-title">
<h2 id="password-title">${escapeHtml(t.changePasswordTitle)}</h2>
${summary(t, view.passwordProblems)}
<form method="post" action="/dashboard/account/password" novalidate>${hidden(shell)}
${field(t, { name: 'current_password', id: 'p-current_password', label: t.currentPassword, type: 'password', autocomplete: 'current-password', problem: view.passwordProblems.current_password })}
${field(t, { name: 'password', label: t.newPassword, type: 'password', autocomplete: 'new-password', hint: t.passwordHint, problem: view.passwordProblems.password })}
<button type="submit">${escapeHtml(t.changePassword)}</button>
</form>
</section>
${twoFactorCard(shell, view.twoFactorOn)}
${emailLanguageCard(shell, view)}
</div>`,
  );
}

export interface HomeView {
  readonly notice: string | null;
  /** The test key, on the one view that shows it; else null. */
  readonly testKey: string | null;
  readonly curl: string;
  readonly checklist: Checklist;
}

/** Where each step of the checklist is done (the first: with the curl on the same page). */
const CHECKLIST_PAGES: Readonly<Record<ChecklistItem, string | null>> = {
  test_payment: null,
  domain_added: '/dashboard/domains',
  domain_verified: '/dashboard/domains',
  processor_enabled: '/dashboard/processors',
  business_verified: '/dashboard/business',
  live_key: '/dashboard/api-keys',
};

export function homePage(shell: Shell, view: HomeView): string {
  const { t } = shell;
  const key =
    view.testKey === null
      ? ''
      : `<section class="card" aria-labelledby="key-title">
<h2 id="key-title">${escapeHtml(t.testKeyTitle)}</h2>
<p class="alert" role="note">${escapeHtml(t.testKeyOnce)}</p>
<p class="key" id="test-key">${escapeHtml(view.testKey)}</p>
</section>`;
  const items = CHECKLIST_ITEMS.map((item) => {
    const done = view.checklist[item];
    const href = CHECKLIST_PAGES[item];
    const text =
      href === null || done ? escapeHtml(t.checklist[item]) : `<a href="${href}">${escapeHtml(t.checklist[item])}</a>`;
    return `<li class="${done ? 'done' : 'todo'}" data-item="${item}"><span class="tick" aria-hidden="true">${done ? '✓' : ''}</span><span>${text}</span><span class="state">${escapeHtml(done ? t.done : t.notYet)}</span></li>`;
  }).join('');
  return layout(
    shell,
    t.homeTitle,
    `<h1>${escapeHtml(t.homeTitle)}</h1>
${notice(view.notice)}
<div class="grid">
<div>
${key}
<section class="card" aria-labelledby="try-title">
<h2 id="try-title">${escapeHtml(t.tryItTitle)}</h2>
<p>${escapeHtml(t.tryItText)}</p>
${view.testKey === null ? `<p class="muted">${escapeHtml(t.keyPlaceholderText)}</p>` : ''}
<pre id="curl" tabindex="0" aria-label="curl"><code>${escapeHtml(view.curl)}</code></pre>
</section>
</div>
<section class="card" aria-labelledby="checklist-title">
<h2 id="checklist-title">${escapeHtml(t.checklistTitle)}</h2>
<ul class="checklist">${items}</ul>
</section>
</div>`,
  );
}
