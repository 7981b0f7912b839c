/**
 * The frame of every dashboard page and the small pieces pages are built from. Every value
 * printed goes through `escapeHtml`; pages carry no inline handler, and their one script (the copy
 * buttons, the menu's fallback) runs under the page's CSP nonce; every form that changes something
 * carries the form token.
 *
 * A page of a section (API keys, domains...) is `layout(shell, title, body)` with its body built
 * from `field`, `notice`, `alert`, `hidden`, `secretBox` and its own section's texts.
 */
import type { DashboardRole } from '../../storage/dashboard-user.table.js';
import { escapeHtml } from '../checkout/html.js';
import type { FieldProblem, FieldProblems } from './accounts.service.js';
import { DASHBOARD_DICTIONARIES, type DashboardMessages, LANGUAGES, type Language } from './i18n/index.js';
import { NAV, type NavId } from './nav.js';
import { mayReadAudit } from './roles.js';
import { DASHBOARD_CSS } from './styles.js';

/** The signed-in person, for the header and for what a page offers them. */
export interface Viewer {
  readonly email: string;
  readonly role: DashboardRole;
}

/** Facts of one answer that every page needs. */
export interface Shell {
  readonly t: DashboardMessages;
  readonly lang: Language;
  readonly nonce: string;
  /** The token every form of the page carries. */
  readonly formToken: string;
  /** This page's path and query, without `lang` (for the language links). */
  readonly selfUrl: string;
  readonly viewer: Viewer | null;
  /** Which navigation entry this page is. */
  readonly section: NavId | null;
}

function languageLink(selfUrl: string, lang: Language): string {
  return `${selfUrl}${selfUrl.includes('?') ? '&' : '?'}lang=${lang}`;
}

/** The form token field every state-changing form carries. */
export function hidden(shell: Shell): string {
  return `<input type="hidden" name="form_token" value="${escapeHtml(shell.formToken)}">`;
}

function header(shell: Shell): string {
  const { t } = shell;
  const languages = LANGUAGES.map((lang) => {
    const current = lang === shell.lang ? ' aria-current="true"' : '';
    const name = DASHBOARD_DICTIONARIES[lang].languageName;
    return `<a href="${escapeHtml(languageLink(shell.selfUrl, lang))}" lang="${lang}" hreflang="${lang}"${current}>${escapeHtml(name)}</a>`;
  }).join('');
  let account = '';
  let nav = '';
  if (shell.viewer !== null) {
    account = `<span class="who">${escapeHtml(t.signedInAs(shell.viewer.email))}</span>
<form class="inline" method="post" action="/dashboard/sign-out">${hidden(shell)}<button class="link" type="submit">${escapeHtml(t.signOut)}</button></form>`;
    const role = shell.viewer.role;
    const items = NAV.map((item) => {
      if (item.id === 'audit_log' && !mayReadAudit(role)) return '';
      const text = t.nav[item.id];
      if (item.href === null) {
        return `<li><span class="soon" aria-disabled="true">${escapeHtml(text)}<small>${escapeHtml(t.soon)}</small></span></li>`;
      }
      const current = shell.section === item.id ? ' aria-current="page"' : '';
      return `<li><a href="${item.href}"${current}>${escapeHtml(text)}</a></li>`;
    }).join('');
    // A <details>: on a narrow screen the entries fold behind a Menu button that works without
    // script; on a wide one the stylesheet shows them and hides the button.
    nav = `<nav class="main" aria-label="${escapeHtml(t.mainNavigation)}"><details class="menu"><summary>${escapeHtml(t.menu)}</summary><ul>${items}</ul></details></nav>`;
  }
  return `<header class="top"><div class="bar"><div class="brand">${escapeHtml(t.product)}</div>${account}
<nav class="langs" aria-label="${escapeHtml(t.language)}">${languages}</nav></div>${nav}</header>`;
}

/**
 * The page's one script. The copy buttons: `<button type="button" data-copy="ID">` copies the text
 * of the element `ID` and says so in its own `aria-live` status; without script the value stays
 * selectable. And the menu on a wide screen, in a browser whose stylesheet cannot show the entries
 * of a closed <details> (no `::details-content`): opened, as the stylesheet would show it.
 */
const PAGE_SCRIPT = `(function(){var d=document.querySelector('nav.main details');if(d&&window.CSS&&CSS.supports&&!CSS.supports('selector(::details-content)')&&matchMedia('(min-width:761px)').matches)d.open=true;})();document.addEventListener('click',function(e){var b=e.target instanceof Element?e.target.closest('button[data-copy]'):null;if(!b)return;var el=document.getElementById(b.getAttribute('data-copy'));if(!el||!navigator.clipboard)return;navigator.clipboard.writeText(el.textContent.trim()).then(function(){var s=b.parentElement&&b.parentElement.querySelector('.copied');if(s)s.textContent=b.getAttribute('data-copied')||'';});});`;

export function layout(shell: Shell, title: string, body: string): string {
  return `<!doctype html>
<html lang="${shell.t.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(shell.t.product)}</title>
<style nonce="${shell.nonce}">${DASHBOARD_CSS}</style>
</head>
<body>
<a class="skip" href="#main">${escapeHtml(shell.t.skipToContent)}</a>
${header(shell)}
<main id="main" tabindex="-1">
${body}
</main>
<script nonce="${shell.nonce}">${PAGE_SCRIPT}</script>
</body>
</html>`;
}

export interface FieldSpec {
  readonly name: string;
  /** The input's id when two forms of a page have a field of one name. */
  readonly id?: string;
  readonly label: string;
  readonly type: 'text' | 'email' | 'password' | 'url' | 'tel' | 'number';
  readonly autocomplete: string;
  readonly value?: string;
  readonly hint?: string;
  /** A problem word from the core dictionary, or a text already in the reader's language. */
  readonly problem?: FieldProblem | { readonly text: string } | undefined;
  /** Optional fields drop `required`. */
  readonly optional?: boolean;
  readonly inputmode?: 'numeric' | 'tel' | 'email' | 'url';
}

export function field(t: DashboardMessages, spec: FieldSpec): string {
  const id = spec.id ?? `f-${spec.name}`;
  const described: string[] = [];
  let extra = '';
  if (spec.hint !== undefined) {
    described.push(`${id}-hint`);
    extra += `<p class="hint" id="${id}-hint">${escapeHtml(spec.hint)}</p>`;
  }
  if (spec.problem !== undefined) {
    described.push(`${id}-error`);
    const text = typeof spec.problem === 'string' ? t.problems[spec.problem] : spec.problem.text;
    extra += `<p class="field-error" id="${id}-error">${escapeHtml(text)}</p>`;
  }
  const value = spec.value === undefined || spec.type === 'password' ? '' : ` value="${escapeHtml(spec.value)}"`;
  const aria = `${described.length > 0 ? ` aria-describedby="${described.join(' ')}"` : ''}${spec.problem !== undefined ? ' aria-invalid="true"' : ''}`;
  const mode = spec.inputmode === undefined ? '' : ` inputmode="${spec.inputmode}"`;
  return `<label for="${id}">${escapeHtml(spec.label)}</label>
<input id="${id}" name="${spec.name}" type="${spec.type}" autocomplete="${spec.autocomplete}"${spec.optional === true ? '' : ' required'}${mode}${value}${aria}>${extra}`;
}

export function notice(text: string | null): string {
  return text === null ? '' : `<p class="notice" role="status">${escapeHtml(text)}</p>`;
}

export function alert(text: string | null): string {
  return text === null ? '' : `<p class="alert" role="alert">${escapeHtml(text)}</p>`;
}

export function summary(t: DashboardMessages, problems: FieldProblems | Readonly<Record<string, unknown>>): string {
  return Object.keys(problems).length === 0 ? '' : alert(t.errorSummary);
}

/**
 * A secret shown once (a new key, a token, a webhook secret on request): the value, a copy button,
 * and the warning that it will not be shown again (`once`), or null for no warning.
 */
export function secretBox(shell: Shell, id: string, value: string, once: string | null): string {
  const { t } = shell;
  return `${once === null ? '' : `<p class="alert" role="note">${escapeHtml(once)}</p>`}
<p class="key" id="${escapeHtml(id)}">${escapeHtml(value)}</p>
<div class="copy-row"><button type="button" class="secondary" data-copy="${escapeHtml(id)}" data-copied="${escapeHtml(t.copied)}">${escapeHtml(t.copy)}</button><span class="copied" role="status" aria-live="polite"></span></div>`;
}

/** What a revoke confirmation says, in the section's own words (its messages.ts). */
export interface ConfirmRevoke {
  readonly title: string;
  readonly text: string;
  /** Where the confirmation is posted (with `confirm=yes`). */
  readonly action: string;
  readonly button: string;
  /** The section's list, where cancel leads. */
  readonly back: string;
  readonly cancel: string;
}

/** The page asking to confirm a revocation (an API key, a connect token). */
export function confirmRevokePage(shell: Shell, page: ConfirmRevoke): string {
  return layout(
    shell,
    page.title,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.text)}</p>
<form method="post" action="${escapeHtml(page.action)}">${hidden(shell)}<input type="hidden" name="confirm" value="yes">
<button type="submit" class="keys-danger">${escapeHtml(page.button)}</button>
</form>
<div class="links"><a href="${escapeHtml(page.back)}">${escapeHtml(page.cancel)}</a></div>
</div></div>`,
  );
}
