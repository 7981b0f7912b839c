/**
 * The API keys pages: the list (prefix and last four, environment, access, created, last used)
 * with the create form and a revoke button per key for the owner and admins; the new key, shown
 * once; the confirmation of a revocation. Viewers get the list only.
 */
import { escapeHtml } from '../../checkout/html.js';
import { keyLabel } from '../../domain/api-keys.js';
import { formatDateTime } from '../../i18n/format.js';
import type { Language } from '../../i18n/languages.js';
import type { ApiKeyView } from '../../merchants/merchant.service.js';
import { alert, confirmRevokePage, hidden, layout, notice, type Shell, secretBox } from '../layout.js';
import { API_KEYS_MESSAGES, type ApiKeysMessages } from './messages.js';

export function apiKeysText(shell: Shell): ApiKeysMessages {
  return API_KEYS_MESSAGES[shell.lang];
}

/** A stored instant as a person reads it: Yerevan time in the reader's language (`Nov 21, 2026, 2:32 PM`). */
export function formatInstant(language: Language, stored: string): string {
  return Number.isNaN(Date.parse(stored)) ? stored : formatDateTime(language, stored);
}

/** `<time>` of a stored instant (the machine-readable UTC instant in `datetime`). */
export function timeTag(language: Language, stored: string): string {
  return `<time datetime="${escapeHtml(stored)}">${escapeHtml(formatInstant(language, stored))}</time>`;
}

export interface Choice {
  readonly value: string;
  readonly label: string;
  readonly hint: string;
  readonly disabled?: boolean;
}

/** A group of radio buttons with its legend, each choice with a hint; the problem, if any, first. */
export function choices(
  name: string,
  legend: string,
  options: readonly Choice[],
  checked: string,
  problem: string | undefined,
  extra = '',
): string {
  const errorId = `${name}-error`;
  const error = problem === undefined ? '' : `<p class="field-error" id="${errorId}">${escapeHtml(problem)}</p>`;
  const items = options
    .map((option) => {
      const id = `${name}-${option.value}`;
      const isChecked = option.value === checked && option.disabled !== true ? ' checked' : '';
      const disabled = option.disabled === true ? ' disabled' : '';
      const described = [`${id}-hint`, ...(problem === undefined ? [] : [errorId])].join(' ');
      return `<div class="keys-choice"><input type="radio" id="${id}" name="${name}" value="${escapeHtml(option.value)}"${isChecked}${disabled} aria-describedby="${described}">
<label for="${id}">${escapeHtml(option.label)}</label><p class="hint" id="${id}-hint">${escapeHtml(option.hint)}</p></div>`;
    })
    .join('');
  return `<fieldset class="keys-choices"><legend>${escapeHtml(legend)}</legend>${error}${extra}${items}</fieldset>`;
}

export interface KeyForm {
  readonly environment: string;
  readonly access: string;
  readonly problems: { environment?: string; access?: string };
  /** Why the key was not created (a live key before verification), or null. */
  readonly error: string | null;
}

export interface KeysView {
  readonly keys: readonly ApiKeyView[];
  readonly businessVerified: boolean;
  /** Owner or admin: the create form and the revoke buttons. */
  readonly manage: boolean;
  readonly notice: string | null;
  readonly form: KeyForm;
}

function statusCell(shell: Shell, m: ApiKeysMessages, key: ApiKeyView, manage: boolean): string {
  if (key.revoked_at !== null) return `<span class="keys-badge off">${escapeHtml(m.revokedOn(key.revoked_at))}</span>`;
  const badge = `<span class="keys-badge on">${escapeHtml(m.active)}</span>`;
  if (!manage) return badge;
  return `${badge}<form class="keys-row-action" method="post" action="/dashboard/api-keys/${escapeHtml(key.key_id)}/revoke">${hidden(shell)}<button type="submit" class="keys-danger small">${escapeHtml(m.revoke(keyLabel(key)))}</button></form>`;
}

function keysTable(shell: Shell, m: ApiKeysMessages, view: KeysView): string {
  if (view.keys.length === 0) return `<p class="muted">${escapeHtml(m.none)}</p>`;
  const rows = view.keys
    .map(
      (key) => `<tr${key.revoked_at === null ? '' : ' class="revoked"'} data-key-id="${escapeHtml(key.key_id)}">
<td><code>${escapeHtml(keyLabel(key))}</code></td>
<td>${escapeHtml(m.environments[key.environment])}</td>
<td>${escapeHtml(m.accesses[key.access])}</td>
<td>${timeTag(shell.lang, key.created_at)}</td>
<td>${key.last_used_at === null ? escapeHtml(m.never) : timeTag(shell.lang, key.last_used_at)}</td>
<td>${statusCell(shell, m, key, view.manage)}</td>
</tr>`,
    )
    .join('');
  return `<div class="keys-wrap" tabindex="0" role="region" aria-labelledby="keys-title"><table class="keys-table">
<thead><tr><th scope="col">${escapeHtml(m.key)}</th><th scope="col">${escapeHtml(m.environment)}</th><th scope="col">${escapeHtml(m.access)}</th><th scope="col">${escapeHtml(m.created)}</th><th scope="col">${escapeHtml(m.lastUsed)}</th><th scope="col">${escapeHtml(m.status)}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

/** Why live is not offered yet, with the way to the business page. */
export function liveExplanation(text: string, linkText: string): string {
  return `<p class="keys-why" id="live-why">${escapeHtml(text)} <a href="/dashboard/business">${escapeHtml(linkText)}</a></p>`;
}

function createForm(shell: Shell, m: ApiKeysMessages, view: KeysView): string {
  const { form } = view;
  const why = view.businessVerified ? '' : liveExplanation(m.liveNeedsVerification, m.verifyBusiness);
  return `<div class="card"><h2 id="create-title">${escapeHtml(m.createTitle)}</h2>
${alert(form.error)}
<form method="post" action="/dashboard/api-keys" aria-labelledby="create-title">${hidden(shell)}
${choices(
  'environment',
  m.environment,
  [
    { value: 'test', label: m.environments.test, hint: m.testHint },
    { value: 'live', label: m.environments.live, hint: m.liveHint, disabled: !view.businessVerified },
  ],
  form.environment,
  form.problems.environment,
  why,
)}
${choices(
  'access',
  m.access,
  [
    { value: 'full', label: m.accesses.full, hint: m.fullHint },
    { value: 'payments', label: m.accesses.payments, hint: m.paymentsHint },
  ],
  form.access,
  form.problems.access,
)}
<button type="submit">${escapeHtml(m.create)}</button>
</form></div>`;
}

export function apiKeysPage(shell: Shell, view: KeysView): string {
  const m = apiKeysText(shell);
  const manage = view.manage ? createForm(shell, m, view) : `<p class="muted">${escapeHtml(m.viewerNote)}</p>`;
  return layout(
    shell,
    m.title,
    `<h1>${escapeHtml(m.title)}</h1>
<p class="muted">${escapeHtml(m.intro)}</p>
${notice(view.notice)}
<div class="card"><h2 id="keys-title">${escapeHtml(m.listTitle)}</h2>
${keysTable(shell, m, view)}
</div>
${manage}`,
  );
}

export function createdKeyPage(
  shell: Shell,
  created: { key: string; environment: 'test' | 'live'; access: 'full' | 'payments' },
): string {
  const m = apiKeysText(shell);
  return layout(
    shell,
    m.createdTitle,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(m.createdTitle)}</h1>
<p>${escapeHtml(m.createdText(created.environment, created.access))}</p>
${secretBox(shell, 'new-key', created.key, m.once)}
<div class="links"><a href="/dashboard/api-keys">${escapeHtml(m.backToKeys)}</a></div>
</div></div>`,
  );
}

export function revokeKeyPage(shell: Shell, key: ApiKeyView): string {
  const m = apiKeysText(shell);
  const label = keyLabel(key);
  return confirmRevokePage(shell, {
    title: m.revokeTitle(label),
    text: m.revokeText,
    action: `/dashboard/api-keys/${key.key_id}/revoke`,
    button: m.revoke(label),
    back: '/dashboard/api-keys',
    cancel: m.cancel,
  });
}
