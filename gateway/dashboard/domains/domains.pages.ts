/**
 * The pages of the Domains section: the account's domains with the form that adds one, and one
 * domain's page (verification by DNS record or HTTPS file, webhook URL, signing secret on request,
 * rotation countdown, test event). Viewers get the same pages without forms and without secrets.
 */
import { escapeHtml } from '../../checkout/html.js';
import { formatDateTimeSeconds } from '../../i18n/format.js';
import type { DomainVerificationView } from '../../merchants/domain-verification.service.js';
import type { TestEventResult } from '../../webhooks/test-event.service.js';
import type { WebhookSettingsView } from '../../webhooks/webhook-settings.service.js';
import { alert, field, hidden, layout, notice, type Shell, secretBox } from '../layout.js';
import { DOMAINS_MESSAGES, type DomainsMessages } from './messages.js';

export function domainsText(shell: Shell): DomainsMessages {
  return DOMAINS_MESSAGES[shell.lang];
}

/** A domain's page path (the host as a path segment). */
export function domainPath(host: string, rest = ''): string {
  return `/dashboard/domains/${encodeURIComponent(host)}${rest}`;
}

export interface DomainListItem {
  readonly host: string;
  readonly hosted: boolean;
  readonly verified: boolean;
  readonly webhookSet: boolean;
}

export interface DomainsListView {
  readonly domains: readonly DomainListItem[];
  readonly canManage: boolean;
  readonly notice: string | null;
  readonly host: string;
  readonly problem: string | undefined;
}

export function domainsListPage(shell: Shell, view: DomainsListView): string {
  const { t } = shell;
  const m = domainsText(shell);
  const rows = view.domains
    .map(
      (d) => `<tr>
<th scope="row"><a href="${escapeHtml(domainPath(d.host))}">${escapeHtml(d.host)}</a></th>
<td data-label="${escapeHtml(m.kind)}">${escapeHtml(d.hosted ? m.hostedBadge : m.ownBadge)}</td>
<td data-label="${escapeHtml(m.status)}"><span class="badge ${d.verified ? 'ok' : 'todo'}">${escapeHtml(d.verified ? m.verified : m.notVerified)}</span></td>
<td data-label="${escapeHtml(m.webhook)}">${escapeHtml(d.webhookSet ? m.webhookSet : m.webhookNotSet)}</td>
</tr>`,
    )
    .join('');
  const add = view.canManage
    ? `<section class="card" aria-labelledby="add-title">
<h2 id="add-title">${escapeHtml(m.addTitle)}</h2>
${view.problem === undefined ? '' : alert(t.errorSummary)}
<form method="post" action="/dashboard/domains" novalidate>${hidden(shell)}
${field(t, { name: 'host', label: m.host, type: 'text', autocomplete: 'off', value: view.host, hint: m.addHint, problem: view.problem === undefined ? undefined : { text: view.problem } })}
<button type="submit">${escapeHtml(m.addButton)}</button>
</form>
</section>`
    : '';
  return layout(
    shell,
    m.title,
    `<h1>${escapeHtml(m.title)}</h1>
${notice(view.notice)}
<p class="muted">${escapeHtml(m.intro)}</p>
<section class="card">
<div class="table-wrap"><table class="domains-table">
<thead><tr><th scope="col">${escapeHtml(m.host)}</th><th scope="col">${escapeHtml(m.kind)}</th><th scope="col">${escapeHtml(m.status)}</th><th scope="col">${escapeHtml(m.webhook)}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>
<p class="hint">${escapeHtml(m.hostedExplain)}</p>
</section>
${add}`,
  );
}

/** A value to publish or paste: its label, the value, and a copy button. */
function copyValue(shell: Shell, id: string, label: string, value: string): string {
  const { t } = shell;
  return `<p class="value-label" id="${id}-label">${escapeHtml(label)}</p>
<p class="key" id="${id}">${escapeHtml(value)}</p>
<div class="copy-row"><button type="button" class="secondary" data-copy="${id}" data-copied="${escapeHtml(t.copied)}" aria-describedby="${id}-label">${escapeHtml(t.copy)}</button><span class="copied" role="status" aria-live="polite"></span></div>`;
}

export interface RevealedSecrets {
  readonly current: string;
  readonly next: string | null;
}

export interface TestOutcome extends TestEventResult {
  readonly sent_at: string;
}

export interface DomainView {
  readonly host: string;
  readonly hosted: boolean;
  readonly verified: boolean;
  /** What to publish (null for the hosted domain, which needs nothing). */
  readonly verification: DomainVerificationView | null;
  readonly settings: WebhookSettingsView;
  readonly canManage: boolean;
  readonly notice: string | null;
  readonly error: string | null;
  readonly url: string;
  readonly urlProblem: string | undefined;
  readonly revealed: RevealedSecrets | null;
  readonly test: TestOutcome | null;
}

function verificationCard(shell: Shell, view: DomainView): string {
  const m = domainsText(shell);
  if (view.hosted) {
    return `<section class="card" aria-labelledby="verification-title">
<h2 id="verification-title">${escapeHtml(m.hostedTitle)}</h2>
<p><span class="badge ok">${escapeHtml(m.verified)}</span></p>
<p>${escapeHtml(m.hostedExplain)}</p>
</section>`;
  }
  const v = view.verification;
  if (v === null) return '';
  let status: string;
  if (v.verified) {
    const method = v.verified_method === null ? m.methodNames.operator : m.methodNames[v.verified_method];
    status = `<p><span class="badge ok">${escapeHtml(m.verified)}</span> ${escapeHtml(v.verified_at === null ? m.verifiedBy(method) : m.verifiedOn(method, v.verified_at))}</p>`;
  } else {
    status = `<p><span class="badge todo">${escapeHtml(m.notVerified)}</span> ${escapeHtml(m.notVerifiedYet)}</p>`;
  }
  let failure = '';
  const last = v.last_check;
  if (!v.verified && last !== null && !last.ok) {
    const method = last.method === null ? '' : m.methodNames[last.method];
    const code = last.failure_code;
    const known = code !== null && Object.hasOwn(m.failures, code) ? m.failures[code as keyof typeof m.failures] : null;
    const reason = known ?? last.failure_message ?? '';
    const detail =
      known !== null && last.failure_message !== null
        ? `<p class="detail"><span>${escapeHtml(m.detail)}:</span> ${escapeHtml(last.failure_message)}</p>`
        : '';
    failure = `<div class="alert check-failure" role="alert" data-code="${escapeHtml(code ?? '')}"><p>${escapeHtml(m.checkedFailed(method, last.checked_at))}</p><p><strong>${escapeHtml(reason)}</strong></p>${detail}</div>`;
  }
  const action = escapeHtml(domainPath(view.host, '/verify'));
  const button = (method: 'dns' | 'https', text: string) =>
    view.canManage
      ? `<form method="post" action="${action}">${hidden(shell)}<input type="hidden" name="method" value="${method}"><button type="submit">${escapeHtml(text)}</button></form>`
      : '';
  return `<section class="card" aria-labelledby="verification-title">
<h2 id="verification-title">${escapeHtml(m.verificationTitle)}</h2>
${status}
${failure}
<p class="muted">${escapeHtml(m.verifyIntro)}</p>
${copyValue(shell, 'verification-token', m.token, v.token)}
<div class="verify-ways">
<div class="verify-way">
<h3>${escapeHtml(m.dnsTitle)}</h3>
<p class="hint">${escapeHtml(m.dnsHint)}</p>
${copyValue(shell, 'txt-name', m.recordName, v.txt_name)}
<p class="value-label">${escapeHtml(m.recordType)}</p><p class="key">TXT</p>
${copyValue(shell, 'txt-value', m.recordValue, v.txt_value)}
${button('dns', m.checkDns)}
</div>
<div class="verify-way">
<h3>${escapeHtml(m.fileTitle)}</h3>
<p class="hint">${escapeHtml(m.fileHint)}</p>
${copyValue(shell, 'file-url', m.fileUrl, v.file_url)}
${copyValue(shell, 'file-content', m.fileContent, v.file_content)}
${button('https', m.checkFile)}
</div>
</div>
</section>`;
}

function countdown(m: DomainsMessages, settings: WebhookSettingsView): string {
  const rotation = settings.secret_rotation;
  if (rotation === null) return '';
  const hours = Math.floor(rotation.seconds_left / 3600);
  const minutes = Math.floor((rotation.seconds_left % 3600) / 60);
  return `<p class="countdown" id="rotation-countdown">${escapeHtml(m.rotationLeft(hours, minutes, rotation.ends_at))}</p>`;
}

function webhookCard(shell: Shell, view: DomainView): string {
  const { t } = shell;
  const m = domainsText(shell);
  const url = view.settings.webhook_url;
  const urlPart = view.canManage
    ? `<form method="post" action="${escapeHtml(domainPath(view.host, '/webhook-url'))}" novalidate>${hidden(shell)}
${field(t, { name: 'url', label: m.webhookUrl, type: 'url', autocomplete: 'url', inputmode: 'url', value: view.url, hint: m.webhookUrlHint, problem: view.urlProblem === undefined ? undefined : { text: view.urlProblem } })}
<button type="submit">${escapeHtml(m.saveUrl)}</button>
</form>`
    : `<p class="value-label">${escapeHtml(m.webhookUrl)}</p><p class="key" id="webhook-url">${escapeHtml(url ?? m.noWebhookUrl)}</p>`;
  let secret: string;
  if (view.canManage) {
    const revealed =
      view.revealed === null
        ? ''
        : `<h3>${escapeHtml(m.currentSecret)}</h3>${secretBox(shell, 'webhook-secret', view.revealed.current, m.secretNote)}${
            view.revealed.next === null
              ? ''
              : `<h3>${escapeHtml(m.nextSecret)}</h3>${secretBox(shell, 'webhook-secret-next', view.revealed.next, null)}`
          }`;
    secret = `<h3>${escapeHtml(m.secretTitle)}</h3>
<p class="muted">${escapeHtml(m.secretIntro)}</p>
${countdown(m, view.settings)}
${revealed}
<form method="post" action="${escapeHtml(domainPath(view.host, '/webhook-secret/reveal'))}">${hidden(shell)}<button type="submit" class="secondary">${escapeHtml(m.reveal)}</button></form>
<p class="hint" id="rotate-confirm">${escapeHtml(m.rotateConfirm)}</p>
<form method="post" action="${escapeHtml(domainPath(view.host, '/webhook-secret/rotate'))}">${hidden(shell)}<button type="submit" class="secondary" aria-describedby="rotate-confirm">${escapeHtml(m.rotate)}</button></form>`;
  } else {
    secret = `<h3>${escapeHtml(m.secretTitle)}</h3>
${countdown(m, view.settings)}
<p class="muted">${escapeHtml(m.viewerNoSecret)}</p>`;
  }
  return `<section class="card" aria-labelledby="webhook-title">
<h2 id="webhook-title">${escapeHtml(m.webhookTitle)}</h2>
<p class="muted">${escapeHtml(m.webhookIntro)}</p>
${urlPart}
${secret}
</section>`;
}

function testCard(shell: Shell, view: DomainView): string {
  if (!view.canManage) return '';
  const m = domainsText(shell);
  const test = view.test;
  let result = '';
  if (test !== null) {
    const answer = test.answer === null || test.answer === '' ? m.testNoAnswer : test.answer;
    result = `<div class="test-result" role="status" aria-labelledby="test-result-title">
<h3 id="test-result-title">${escapeHtml(m.testResultTitle)}</h3>
<p class="${test.delivered ? 'notice' : 'alert'}">${escapeHtml(test.delivered ? m.testDelivered : m.testNotDelivered)}</p>
<dl class="facts">
<dt>${escapeHtml(m.testStatus)}</dt><dd id="test-status">${escapeHtml(test.status_code === null ? m.testNoStatus : String(test.status_code))}</dd>
<dt>${escapeHtml(m.testSentAt)}</dt><dd>${escapeHtml(formatDateTimeSeconds(shell.lang, test.sent_at))} · ${escapeHtml(m.testDuration(test.duration_ms))}</dd>
<dt>URL</dt><dd class="wrap">${escapeHtml(test.url)}</dd>
${test.error === null ? '' : `<dt>${escapeHtml(m.testError)}</dt><dd class="wrap">${escapeHtml(test.error)}</dd>`}
</dl>
<p class="value-label">${escapeHtml(m.testAnswer)}</p>
<pre id="test-answer" tabindex="0">${escapeHtml(answer)}</pre>
</div>`;
  }
  const form =
    view.settings.webhook_url === null
      ? `<p class="muted">${escapeHtml(m.testNeedsUrl)}</p>`
      : `<form method="post" action="${escapeHtml(domainPath(view.host, '/webhook-test'))}">${hidden(shell)}<button type="submit">${escapeHtml(m.sendTest)}</button></form>`;
  return `<section class="card" aria-labelledby="test-title">
<h2 id="test-title">${escapeHtml(m.testTitle)}</h2>
<p class="muted">${escapeHtml(m.testIntro)}</p>
${result}
${form}
</section>`;
}

export function domainPage(shell: Shell, view: DomainView): string {
  const m = domainsText(shell);
  return layout(
    shell,
    view.host,
    `<p class="crumbs"><a href="/dashboard/domains">${escapeHtml(m.back)}</a></p>
<h1 class="wrap">${escapeHtml(view.host)}</h1>
${notice(view.notice)}${alert(view.error)}
<div class="domain-grid">
${verificationCard(shell, view)}
${webhookCard(shell, view)}
${testCard(shell, view)}
</div>
<p><a href="${escapeHtml(domainPath(view.host, '/processors'))}">${escapeHtml(m.processorsLink)}</a></p>`,
  );
}
