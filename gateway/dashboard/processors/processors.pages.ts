/**
 * The Processors pages: the overview of every domain, a domain's processors (the checkout's order,
 * every processor with its state, why live payments would be refused), and a processor's settings
 * form generated from its adapter's schema. No stored setting is ever printed; a viewer gets the
 * same pages without any form.
 */
import { escapeHtml } from '../../checkout/html.js';
import { isKnownProcessor, type ProcessorSlug, processorFor } from '../../processors/registry.js';
import { alert, field, hidden, layout, notice, type Shell } from '../layout.js';
import { mayManage } from '../roles.js';
import { PROCESSORS_MESSAGES, type ProcessorsMessages } from './messages.js';
import type { DomainProcessorsView, MerchantDomainSummary, ProcessorState } from './processors.service.js';
import type { SettingsField, SettingsProblem } from './settings-form.js';

export function texts(shell: Shell): ProcessorsMessages {
  return PROCESSORS_MESSAGES[shell.lang];
}

export function processorName(pm: ProcessorsMessages, slug: ProcessorSlug): string {
  return slug === 'sandbox' ? pm.sandboxName : processorFor(slug).displayName;
}

function manages(shell: Shell): boolean {
  return shell.viewer !== null && mayManage(shell.viewer.role);
}

export function domainPath(host: string): string {
  return `/dashboard/domains/${encodeURIComponent(host)}/processors`;
}

function processorPath(host: string, slug: string): string {
  return `${domainPath(host)}/${slug}`;
}

function tags(pm: ProcessorsMessages, domain: { hosted: boolean; verified: boolean }): string {
  const items = [domain.verified ? pm.verified : pm.notVerified];
  if (domain.hosted) items.unshift(pm.hostedTag);
  return items.map((text) => `<span class="proc-tag">${escapeHtml(text)}</span>`).join(' ');
}

export function overviewPage(shell: Shell, domains: readonly MerchantDomainSummary[]): string {
  const pm = texts(shell);
  const rows = domains
    .map((domain) => {
      const offered =
        domain.hosted && !domain.enabled.includes('sandbox') ? [...domain.enabled, 'sandbox'] : domain.enabled;
      const names = offered.filter(isKnownProcessor).map((slug) => escapeHtml(processorName(pm, slug)));
      const live = offered.some((slug) => slug !== 'sandbox');
      const list =
        names.length === 0
          ? `<span class="muted">${escapeHtml(pm.noneEnabled)}</span>`
          : `<ol class="proc-inline">${names.map((n) => `<li>${n}</li>`).join('')}</ol>`;
      const warn = live ? '' : `<p class="proc-warn">${escapeHtml(pm.noLiveShort)}</p>`;
      return `<tr><th scope="row"><span class="proc-host">${escapeHtml(domain.host)}</span><br>${tags(pm, domain)}</th>
<td>${list}${warn}</td>
<td><a href="${escapeHtml(domainPath(domain.host))}">${escapeHtml(pm.manage)}<span class="proc-sr"> ${escapeHtml(domain.host)}</span></a></td></tr>`;
    })
    .join('');
  const body = `<h1>${escapeHtml(pm.overviewTitle)}</h1>
<p class="muted">${escapeHtml(pm.overviewIntro)}</p>
<div class="card"><div class="table-wrap"><table class="proc-table">
<thead><tr><th scope="col">${escapeHtml(pm.domain)}</th><th scope="col">${escapeHtml(pm.checkoutOrder)}</th><th scope="col"><span class="proc-sr">${escapeHtml(pm.actions)}</span></th></tr></thead>
<tbody>${rows}</tbody></table></div></div>`;
  return layout(shell, pm.overviewTitle, body);
}

function postButton(shell: Shell, action: string, text: string, extra = '', className = 'secondary'): string {
  return `<form class="inline" method="post" action="${escapeHtml(action)}">${hidden(shell)}${extra}<button type="submit" class="${className}">${text}</button></form>`;
}

function whyBox(pm: ProcessorsMessages, view: DomainProcessorsView): string {
  const parts: string[] = [];
  if (!view.hasLive) {
    const why = view.offered.length === 0 ? pm.noLiveNothing : pm.noLiveSandboxOnly;
    const hosted = view.domain.hosted === 1 ? `<p>${escapeHtml(pm.hostedLiveText)}</p>` : '';
    parts.push(`<section class="proc-why" id="no-live" aria-labelledby="no-live-title">
<h2 id="no-live-title">${escapeHtml(pm.noLiveTitle)}</h2>
<p>${escapeHtml(why)}</p><p>${escapeHtml(pm.noLiveWhat)}</p>${hosted}</section>`);
  }
  if (view.domain.verified !== 1) {
    parts.push(`<section class="proc-why" id="unverified" aria-labelledby="unverified-title">
<h2 id="unverified-title">${escapeHtml(pm.unverifiedTitle)}</h2>
<p>${escapeHtml(pm.unverifiedText)}</p>
<p><a href="/dashboard/domains/${escapeHtml(encodeURIComponent(view.domain.host))}">${escapeHtml(pm.domainPage)}</a></p></section>`);
  }
  return parts.join('\n');
}

function orderCard(shell: Shell, pm: ProcessorsMessages, view: DomainProcessorsView): string {
  const host = view.domain.host;
  const canManage = manages(shell);
  const items = view.offered
    .map((slug, index) => {
      const name = processorName(pm, slug);
      let buttons = '';
      if (canManage && view.offered.length > 1) {
        const action = `${processorPath(host, slug)}/move`;
        const up =
          index === 0
            ? ''
            : postButton(
                shell,
                action,
                `<span aria-hidden="true">↑</span><span class="proc-sr">${escapeHtml(pm.moveUp(name))}</span>`,
                '<input type="hidden" name="direction" value="up">',
                'secondary proc-move',
              );
        const down =
          index === view.offered.length - 1
            ? ''
            : postButton(
                shell,
                action,
                `<span aria-hidden="true">↓</span><span class="proc-sr">${escapeHtml(pm.moveDown(name))}</span>`,
                '<input type="hidden" name="direction" value="down">',
                'secondary proc-move',
              );
        buttons = `<span class="proc-moves">${up}${down}</span>`;
      }
      return `<li><span class="proc-name">${escapeHtml(name)}</span>${buttons}</li>`;
    })
    .join('');
  const list =
    items === ''
      ? `<p class="muted">${escapeHtml(pm.orderEmpty)}</p>`
      : `<ol class="proc-order" id="checkout-order">${items}</ol>`;
  return `<section class="card" aria-labelledby="order-title"><h2 id="order-title">${escapeHtml(pm.orderTitle)}</h2>
<p class="muted">${escapeHtml(pm.orderIntro)}</p>${list}</section>`;
}

function settingsCell(pm: ProcessorsMessages, state: ProcessorState): string {
  if (!state.needsSettings) return escapeHtml(pm.settingsNotNeeded);
  return escapeHtml(state.configured ? pm.settingsSaved : pm.settingsNone);
}

function statusCell(pm: ProcessorsMessages, state: ProcessorState): string {
  if (state.alwaysOn) return escapeHtml(pm.alwaysOn);
  if (state.enabled) return escapeHtml(pm.enabled);
  return escapeHtml(state.installed ? pm.disabled : pm.notInstalled);
}

function actionsCell(shell: Shell, pm: ProcessorsMessages, host: string, state: ProcessorState): string {
  if (!manages(shell)) return '';
  const name = processorName(pm, state.slug);
  const path = processorPath(host, state.slug);
  const sr = `<span class="proc-sr"> ${escapeHtml(name)}</span>`;
  const parts: string[] = [];
  if (state.alwaysOn) {
    parts.push(`<span class="muted">${escapeHtml(pm.sandboxNote)}</span>`);
  } else if (state.enabled) {
    parts.push(postButton(shell, `${path}/disable`, `${escapeHtml(pm.disable)}${sr}`));
  } else if (!state.needsSettings || state.configured) {
    parts.push(
      postButton(
        shell,
        `${path}/enable`,
        `${escapeHtml(state.needsSettings ? pm.enable : pm.install)}${sr}`,
        '',
        'proc-primary',
      ),
    );
  }
  if (state.needsSettings) {
    const text = state.configured ? pm.savedReplaceNote : pm.configure;
    parts.push(`<a class="proc-link" href="${escapeHtml(path)}">${escapeHtml(text)}${sr}</a>`);
  }
  return `<div class="proc-actions">${parts.join('')}</div>`;
}

export function domainPage(shell: Shell, view: DomainProcessorsView, noticeText: string | null): string {
  const pm = texts(shell);
  const host = view.domain.host;
  const canManage = manages(shell);
  const rows = view.processors
    .map(
      (state) => `<tr><th scope="row">${escapeHtml(processorName(pm, state.slug))}</th>
<td>${statusCell(pm, state)}</td><td>${settingsCell(pm, state)}</td>${canManage ? `<td>${actionsCell(shell, pm, host, state)}</td>` : ''}</tr>`,
    )
    .join('');
  const body = `<p class="proc-back"><a href="/dashboard/processors">${escapeHtml(pm.backToOverview)}</a></p>
<h1>${escapeHtml(pm.domainTitle(host))}</h1>
<p>${tags(pm, { hosted: view.domain.hosted === 1, verified: view.domain.verified === 1 })}</p>
${notice(noticeText)}
<p class="muted">${escapeHtml(pm.domainIntro)}</p>
${canManage ? '' : `<p class="notice" role="note">${escapeHtml(pm.readOnly)}</p>`}
${whyBox(pm, view)}
${orderCard(shell, pm, view)}
<section class="card" aria-labelledby="all-title"><h2 id="all-title">${escapeHtml(pm.allTitle)}</h2>
<div class="table-wrap"><table class="proc-table">
<thead><tr><th scope="col">${escapeHtml(pm.processor)}</th><th scope="col">${escapeHtml(pm.status)}</th><th scope="col">${escapeHtml(pm.settings)}</th>${canManage ? `<th scope="col">${escapeHtml(pm.actions)}</th>` : ''}</tr></thead>
<tbody>${rows}</tbody></table></div></section>`;
  return layout(shell, pm.domainTitle(host), body);
}

export interface SettingsFormView {
  readonly host: string;
  readonly state: ProcessorState;
  readonly fields: readonly SettingsField[];
  /** What was posted, for fields that are not secret (re-shown after a problem). */
  readonly values: Readonly<Record<string, string>>;
  readonly problems: Readonly<Record<string, SettingsProblem>>;
}

function problemText(pm: ProcessorsMessages, problem: SettingsProblem | undefined): { text: string } | undefined {
  if (problem === undefined) return undefined;
  return { text: problem.kind === 'required' ? pm.required : pm.invalid(problem.message) };
}

function settingsInput(shell: Shell, pm: ProcessorsMessages, view: SettingsFormView, spec: SettingsField): string {
  const fieldText = pm.fields[spec.key];
  const name = `setting_${spec.key}`;
  const id = `f-${name}`;
  const label = `${fieldText?.label ?? spec.description ?? spec.key}${spec.required ? '' : ` ${pm.optional}`}`;
  const secret = spec.kind === 'secret' || spec.kind === 'pem';
  const hints = [
    fieldText?.hint ?? (fieldText !== undefined ? spec.description : undefined),
    secret ? pm.secretHint : undefined,
    spec.defaultValue !== undefined && !spec.required ? pm.defaultHint(spec.defaultValue) : undefined,
  ].filter((h): h is string => h !== undefined && h !== '');
  const hint = hints.length === 0 ? undefined : hints.join(' ');
  const problem = problemText(pm, view.problems[spec.key]);
  const posted = secret ? undefined : view.values[spec.key];
  const value = posted ?? spec.defaultValue;
  const described = [hint === undefined ? null : `${id}-hint`, problem === undefined ? null : `${id}-error`].filter(
    (d) => d !== null,
  );
  const aria = `${described.length > 0 ? ` aria-describedby="${described.join(' ')}"` : ''}${problem === undefined ? '' : ' aria-invalid="true"'}`;
  const extra = `${hint === undefined ? '' : `<p class="hint" id="${id}-hint">${escapeHtml(hint)}</p>`}${problem === undefined ? '' : `<p class="field-error" id="${id}-error">${escapeHtml(problem.text)}</p>`}`;
  const required = spec.required ? ' required' : '';
  switch (spec.kind) {
    case 'boolean':
      return `<div class="proc-check"><input id="${id}" name="${name}" type="checkbox" value="on"${value === 'true' || value === 'on' ? ' checked' : ''}${aria}><label for="${id}">${escapeHtml(label)}</label></div>${extra}`;
    case 'enum': {
      const options = [
        spec.required ? '' : '<option value=""></option>',
        ...spec.options.map(
          (o) => `<option value="${escapeHtml(o)}"${o === value ? ' selected' : ''}>${escapeHtml(o)}</option>`,
        ),
      ].join('');
      return `<label for="${id}">${escapeHtml(label)}</label><select id="${id}" name="${name}"${required}${aria}>${options}</select>${extra}`;
    }
    case 'pem':
      return `<label for="${id}">${escapeHtml(label)}</label><textarea id="${id}" name="${name}" rows="6" autocomplete="off" spellcheck="false"${required}${aria}></textarea>${extra}`;
    default: {
      const type =
        spec.kind === 'secret' ? 'password' : spec.kind === 'url' ? 'url' : spec.kind === 'text' ? 'text' : 'number';
      return field(shell.t, {
        name,
        id,
        label,
        type,
        autocomplete: spec.kind === 'secret' ? 'new-password' : 'off',
        optional: !spec.required,
        ...(value === undefined ? {} : { value }),
        ...(hint === undefined ? {} : { hint }),
        ...(problem === undefined ? {} : { problem }),
        ...(spec.kind === 'integer' ? { inputmode: 'numeric' as const } : {}),
      });
    }
  }
}

export function settingsPage(shell: Shell, view: SettingsFormView, noticeText: string | null = null): string {
  const pm = texts(shell);
  const name = processorName(pm, view.state.slug);
  const title = pm.settingsTitle(name, view.host);
  const back = `<p class="proc-back"><a href="${escapeHtml(domainPath(view.host))}">${escapeHtml(pm.domainTitle(view.host))}</a></p>`;
  const status = `<p><strong>${escapeHtml(pm.status)}:</strong> ${statusCell(pm, view.state)} · <strong>${escapeHtml(pm.settings)}:</strong> ${settingsCell(pm, view.state)}</p>`;
  let content: string;
  if (!view.state.needsSettings) {
    content = `<p>${escapeHtml(pm.noSettingsNeeded)}</p>`;
  } else if (!manages(shell)) {
    content = `<p class="muted">${escapeHtml(view.state.configured ? pm.readOnly : pm.notInstalledViewer)}</p>`;
  } else {
    const whole = view.problems[''];
    const anyProblem = Object.keys(view.problems).length > 0;
    const inputs = view.fields.map((spec) => settingsInput(shell, pm, view, spec)).join('\n');
    content = `${anyProblem ? alert(shell.t.errorSummary) : ''}${whole === undefined ? '' : alert(whole.kind === 'invalid' ? pm.wholeSettings(whole.message) : pm.required)}
<p class="muted">${escapeHtml(view.state.configured ? pm.replaceIntro : pm.settingsIntro)}</p>
<form method="post" action="${escapeHtml(processorPath(view.host, view.state.slug))}" class="proc-form" novalidate>${hidden(shell)}
${inputs}
<button type="submit">${escapeHtml(pm.saveAndEnable)}</button></form>`;
  }
  const body = `${back}<h1>${escapeHtml(title)}</h1>${notice(noticeText)}${status}<div class="card">${content}</div>`;
  return layout(shell, title, body);
}
