/**
 * The demo merchant's page: the link `gateway serve` prints on an empty database opens it, and its
 * visitor chooses the email and password that make them the demo merchant's owner.
 */
import { escapeHtml } from '../../checkout/html.js';
import type { FieldProblems } from '../accounts.service.js';
import { field, hidden, layout, type Shell, summary } from '../layout.js';
import { DEMO_CLAIM_PATH } from './demo.service.js';
import { DEMO_MESSAGES } from './messages.js';

export interface DemoClaimView {
  readonly token: string;
  readonly accountName: string;
  readonly email: string;
  readonly problems: FieldProblems;
}

export function demoClaimPage(shell: Shell, view: DemoClaimView): string {
  const { t } = shell;
  const m = DEMO_MESSAGES[shell.lang];
  const title = m.title(view.accountName);
  return layout(
    shell,
    title,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(m.text(view.accountName))}</p>
<p class="muted">${escapeHtml(m.once)}</p>
${summary(t, view.problems)}
<form method="post" action="${DEMO_CLAIM_PATH}" novalidate>${hidden(shell)}
<input type="hidden" name="token" value="${escapeHtml(view.token)}">
${field(t, { name: 'email', label: m.email, type: 'email', autocomplete: 'email', value: view.email, problem: view.problems.email })}
${field(t, { name: 'password', label: t.password, type: 'password', autocomplete: 'new-password', hint: t.passwordHint, problem: view.problems.password })}
<button type="submit">${escapeHtml(m.submit)}</button>
</form>
</div></div>`,
  );
}
