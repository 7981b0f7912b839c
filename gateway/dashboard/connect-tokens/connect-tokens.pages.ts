/**
 * The connect tokens pages: the list (domain, platform, environment, created, expires, last used)
 * with the create form and a revoke button per token for the owner and admins; the new token, shown
 * once, with its plugin's install steps; the confirmation of a revocation. Viewers get the list only.
 */
import { escapeHtml } from '../../checkout/html.js';
import type { ConnectTokenView } from '../../connect/connect-token.service.js';
import { CONNECT_PLATFORMS, type ConnectPlatform } from '../../domain/connect-tokens.js';
import { choices, liveExplanation, timeTag } from '../api-keys/api-keys.pages.js';
import { alert, confirmRevokePage, hidden, layout, notice, type Shell, secretBox } from '../layout.js';
import { CONNECT_TOKENS_MESSAGES, type ConnectTokensMessages } from './messages.js';

export function connectTokensText(shell: Shell): ConnectTokensMessages {
  return CONNECT_TOKENS_MESSAGES[shell.lang];
}

/** The first part of a token's id, to tell tokens apart on a page. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

export interface TokenForm {
  readonly domain: string;
  readonly platform: string;
  readonly environment: string;
  readonly problems: { domain?: string; platform?: string; environment?: string };
  /** Why the token was not created (a live token before verification), or null. */
  readonly error: string | null;
}

export interface TokensView {
  readonly tokens: readonly ConnectTokenView[];
  /** The verified store domains a token may be created for. */
  readonly domains: readonly string[];
  readonly businessVerified: boolean;
  readonly manage: boolean;
  readonly notice: string | null;
  readonly nowMs: number;
  readonly form: TokenForm;
}

function statusCell(shell: Shell, m: ConnectTokensMessages, token: ConnectTokenView, view: TokensView): string {
  if (token.revoked_at !== null) {
    return `<span class="keys-badge off">${escapeHtml(m.revokedOn(token.revoked_at))}</span>`;
  }
  if (Date.parse(token.expires_at) <= view.nowMs) return `<span class="keys-badge off">${escapeHtml(m.expired)}</span>`;
  const badge = `<span class="keys-badge on">${escapeHtml(m.active)}</span>`;
  if (!view.manage) return badge;
  const label = m.revoke(m.platforms[token.platform], token.domain ?? m.domainGone, shortId(token.id));
  return `${badge}<form class="keys-row-action" method="post" action="/dashboard/connect-tokens/${escapeHtml(token.id)}/revoke">${hidden(shell)}<button type="submit" class="keys-danger small">${escapeHtml(label)}</button></form>`;
}

function tokensTable(shell: Shell, m: ConnectTokensMessages, view: TokensView): string {
  if (view.tokens.length === 0) return `<p class="muted">${escapeHtml(m.none)}</p>`;
  const rows = view.tokens
    .map(
      (token) => `<tr${token.revoked_at === null ? '' : ' class="revoked"'} data-token-id="${escapeHtml(token.id)}">
<td><code>${escapeHtml(shortId(token.id))}</code></td>
<td>${escapeHtml(token.domain ?? m.domainGone)}</td>
<td>${escapeHtml(m.platforms[token.platform])}</td>
<td>${escapeHtml(m.environments[token.environment])}</td>
<td>${timeTag(shell.lang, token.created_at)}</td>
<td>${timeTag(shell.lang, token.expires_at)}</td>
<td>${token.last_used_at === null ? escapeHtml(m.never) : timeTag(shell.lang, token.last_used_at)}</td>
<td>${statusCell(shell, m, token, view)}</td>
</tr>`,
    )
    .join('');
  const head = [m.token, m.domain, m.platform, m.environment, m.created, m.expires, m.lastUsed, m.status]
    .map((text) => `<th scope="col">${escapeHtml(text)}</th>`)
    .join('');
  return `<div class="keys-wrap" tabindex="0" role="region" aria-labelledby="tokens-title"><table class="keys-table">
<thead><tr>${head}</tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function domainSelect(m: ConnectTokensMessages, domains: readonly string[], chosen: string, problem?: string): string {
  const options = domains
    .map(
      (host) => `<option value="${escapeHtml(host)}"${host === chosen ? ' selected' : ''}>${escapeHtml(host)}</option>`,
    )
    .join('');
  const error = problem === undefined ? '' : `<p class="field-error" id="domain-error">${escapeHtml(problem)}</p>`;
  const invalid = problem === undefined ? '' : ' aria-invalid="true" aria-describedby="domain-error"';
  return `<label for="domain">${escapeHtml(m.domain)}</label>
<select class="keys-select" id="domain" name="domain" required${invalid}>${options}</select>${error}`;
}

function createForm(shell: Shell, m: ConnectTokensMessages, view: TokensView): string {
  const { form } = view;
  if (view.domains.length === 0) {
    return `<div class="card"><h2>${escapeHtml(m.createTitle)}</h2>
<p class="keys-why">${escapeHtml(m.noVerifiedDomain)} <a href="/dashboard/domains">${escapeHtml(m.goToDomains)}</a></p></div>`;
  }
  const why = view.businessVerified ? '' : liveExplanation(m.liveNeedsVerification, m.verifyBusiness);
  return `<div class="card"><h2 id="create-title">${escapeHtml(m.createTitle)}</h2>
${alert(form.error)}
<form method="post" action="/dashboard/connect-tokens" aria-labelledby="create-title">${hidden(shell)}
${domainSelect(m, view.domains, form.domain, form.problems.domain)}
${choices(
  'platform',
  m.platform,
  CONNECT_PLATFORMS.map((platform) => ({
    value: platform,
    label: m.platforms[platform],
    hint: m.platformHints[platform],
  })),
  form.platform,
  form.problems.platform,
)}
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
<button type="submit">${escapeHtml(m.create)}</button>
</form></div>`;
}

export function connectTokensPage(shell: Shell, view: TokensView): string {
  const m = connectTokensText(shell);
  const manage = view.manage ? createForm(shell, m, view) : `<p class="muted">${escapeHtml(m.viewerNote)}</p>`;
  return layout(
    shell,
    m.title,
    `<h1>${escapeHtml(m.title)}</h1>
<p class="muted">${escapeHtml(m.intro)}</p>
${notice(view.notice)}
<div class="card"><h2 id="tokens-title">${escapeHtml(m.listTitle)}</h2>
${tokensTable(shell, m, view)}
</div>
${manage}`,
  );
}

export interface CreatedTokenView {
  readonly token: string;
  readonly domain: string;
  readonly platform: ConnectPlatform;
  readonly environment: 'test' | 'live';
  /** API form (`2027-11-21T10:00:30+00:00`). */
  readonly expiresAt: string;
}

export function createdTokenPage(shell: Shell, created: CreatedTokenView): string {
  const m = connectTokensText(shell);
  const platform = m.platforms[created.platform];
  const steps = m.installSteps[created.platform].map((step) => `<li>${escapeHtml(step)}</li>`).join('');
  return layout(
    shell,
    m.createdTitle,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(m.createdTitle)}</h1>
<p>${escapeHtml(m.createdText(created.environment, platform, created.domain, created.expiresAt))}</p>
${secretBox(shell, 'new-token', created.token, m.once)}
</div>
<div class="card"><h2>${escapeHtml(m.installTitle(platform))}</h2>
<ol class="keys-steps">${steps}</ol>
</div>
<div class="links"><a href="/dashboard/connect-tokens">${escapeHtml(m.backToTokens)}</a></div>
</div>`,
  );
}

export function revokeTokenPage(shell: Shell, token: ConnectTokenView): string {
  const m = connectTokensText(shell);
  const platform = m.platforms[token.platform];
  const host = token.domain ?? m.domainGone;
  return confirmRevokePage(shell, {
    title: m.revokeTitle,
    text: m.revokeText(platform, host),
    action: `/dashboard/connect-tokens/${token.id}/revoke`,
    button: m.revoke(platform, host, shortId(token.id)),
    back: '/dashboard/connect-tokens',
    cancel: m.cancel,
  });
}
