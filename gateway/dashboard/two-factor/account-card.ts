/** The account page's card of two-step sign-in: on or off, and the way to its page. */
import { escapeHtml } from '../../checkout/html.js';
import type { Shell } from '../layout.js';
import { TWO_FACTOR_MESSAGES } from './messages.js';

export function twoFactorCard(shell: Shell, on: boolean): string {
  const m = TWO_FACTOR_MESSAGES[shell.lang];
  return `<section class="card" aria-labelledby="two-factor-title">
<h2 id="two-factor-title">${escapeHtml(m.title)}: <span class="tf-state tf-${on ? 'on' : 'off'}">${escapeHtml(on ? m.on : m.off)}</span></h2>
<p>${escapeHtml(on ? m.statusOn : m.statusOff)}</p>
<div class="links"><a href="/dashboard/account/two-factor">${escapeHtml(on ? m.manage : m.setUp)}</a></div>
</section>`;
}
