/**
 * The Team page (members, pending invitations, the invitation form) and the invitation page a
 * mailed link opens. Viewers get the lists only: no form that changes anything.
 */
import type { DashboardInvitationRow } from '../../../storage/dashboard-invitation.table.js';
import type { DashboardUserRow } from '../../../storage/dashboard-user.table.js';
import { escapeHtml } from '../../checkout/html.js';
import { alert, field, hidden, layout, notice, type Shell } from '../layout.js';
import type { PasswordProblem } from '../passwords.js';
import { mayManage } from '../roles.js';
import { TEAM_MESSAGES } from './messages.js';
import { INVITED_ROLES, type InviteProblems, type Team } from './team.service.js';

/** The day of a stored instant (`2026-11-26`). */
export interface TeamView {
  readonly team: Team;
  /** The signed-in user's id (marked "you"). */
  readonly selfId: string;
  readonly nowIso: string;
  readonly notice: string | null;
  readonly error: string | null;
  readonly invite: { readonly email: string; readonly role: string; readonly problems: InviteProblems };
}

function memberItem(shell: Shell, view: TeamView, member: DashboardUserRow, manage: boolean): string {
  const m = TEAM_MESSAGES[shell.lang];
  const self = member.id === view.selfId ? ` <span class="muted">${escapeHtml(m.you)}</span>` : '';
  let actions = '';
  if (manage && member.role !== 'owner') {
    const base = `/dashboard/team/members/${encodeURIComponent(member.id)}`;
    const options = INVITED_ROLES.map(
      (role) =>
        `<option value="${role}"${member.role === role ? ' selected' : ''}>${escapeHtml(m.roles[role])}</option>`,
    ).join('');
    actions = `<div class="team-actions">
<form method="post" action="${base}/role">${hidden(shell)}<select name="role" aria-label="${escapeHtml(m.newRoleOf(member.email))}">${options}</select><button type="submit" class="team-secondary">${escapeHtml(m.changeRole)}</button></form>
<form method="post" action="${base}/remove">${hidden(shell)}<button type="submit" class="team-danger" aria-label="${escapeHtml(`${m.remove} ${member.email}`)}">${escapeHtml(m.remove)}</button></form>
</div>`;
  }
  return `<li data-member="${escapeHtml(member.email)}"><div class="team-who"><span class="team-email">${escapeHtml(member.email)}</span>${self}</div>
<div class="team-meta"><span class="team-role">${escapeHtml(m.roles[member.role])}</span> · <span>${escapeHtml(m.joined(member.created_at))}</span></div>${actions}</li>`;
}

function invitationItem(shell: Shell, view: TeamView, invitation: DashboardInvitationRow, manage: boolean): string {
  const m = TEAM_MESSAGES[shell.lang];
  const expired = invitation.expires_at <= view.nowIso;
  let actions = '';
  if (manage) {
    const base = `/dashboard/team/invitations/${encodeURIComponent(invitation.id)}`;
    actions = `<div class="team-actions">
<form method="post" action="${base}/resend">${hidden(shell)}<button type="submit" class="team-secondary" aria-label="${escapeHtml(`${m.resend}: ${invitation.email}`)}">${escapeHtml(m.resend)}</button></form>
<form method="post" action="${base}/cancel">${hidden(shell)}<button type="submit" class="team-danger" aria-label="${escapeHtml(`${m.cancel}: ${invitation.email}`)}">${escapeHtml(m.cancel)}</button></form>
</div>`;
  }
  const validity = expired ? m.expired : m.expiresOn(invitation.expires_at);
  return `<li data-invitation="${escapeHtml(invitation.email)}"><div class="team-who"><span class="team-email">${escapeHtml(invitation.email)}</span></div>
<div class="team-meta"><span class="team-role">${escapeHtml(m.roles[invitation.role])}</span> · <span>${escapeHtml(invitation.invited_by_email === null ? m.invitedOn(invitation.sent_at) : m.invitedBy(invitation.sent_at, invitation.invited_by_email))}</span> · <span>${escapeHtml(validity)}</span></div>${actions}</li>`;
}

function inviteForm(shell: Shell, view: TeamView): string {
  const { t } = shell;
  const m = TEAM_MESSAGES[shell.lang];
  const { problems } = view.invite;
  const emailProblem = problems.email === undefined ? undefined : { text: m.problems[problems.email] };
  const roleError =
    problems.role === undefined
      ? ''
      : `<p class="field-error" id="f-role-error">${escapeHtml(m.problems[problems.role])}</p>`;
  const radios = INVITED_ROLES.map((role) => {
    const checked = view.invite.role === role || (view.invite.role === '' && role === 'viewer') ? ' checked' : '';
    return `<div class="team-radio"><input type="radio" id="f-role-${role}" name="role" value="${role}"${checked} aria-describedby="f-role-${role}-hint"><label for="f-role-${role}">${escapeHtml(m.roles[role])}</label><p class="hint" id="f-role-${role}-hint">${escapeHtml(m.roleHints[role])}</p></div>`;
  }).join('');
  return `<section class="card" aria-labelledby="invite-title">
<h2 id="invite-title">${escapeHtml(m.inviteTitle)}</h2>
<p class="muted">${escapeHtml(m.inviteIntro)}</p>
<form method="post" action="/dashboard/team/invitations" novalidate>${hidden(shell)}
${field(t, { name: 'email', label: m.email, type: 'email', autocomplete: 'off', value: view.invite.email, problem: emailProblem })}
<fieldset class="team-roles"${problems.role === undefined ? '' : ' aria-describedby="f-role-error"'}><legend>${escapeHtml(m.role)}</legend>${radios}${roleError}</fieldset>
<button type="submit">${escapeHtml(m.invite)}</button>
</form>
</section>`;
}

export function teamPage(shell: Shell, view: TeamView): string {
  const m = TEAM_MESSAGES[shell.lang];
  const manage = shell.viewer !== null && mayManage(shell.viewer.role);
  const members = view.team.members.map((member) => memberItem(shell, view, member, manage)).join('');
  const invitations =
    view.team.invitations.length === 0
      ? `<p class="muted">${escapeHtml(m.noPending)}</p>`
      : `<ul class="team-list">${view.team.invitations.map((i) => invitationItem(shell, view, i, manage)).join('')}</ul>`;
  const owner = manage
    ? `<p class="muted">${escapeHtml(m.ownerFixed)}</p>`
    : `<p class="muted">${escapeHtml(m.readOnly)}</p>`;
  return layout(
    shell,
    m.title,
    `<h1>${escapeHtml(m.title)}</h1>
<p class="muted">${escapeHtml(m.intro)}</p>
${notice(view.notice)}${alert(view.error)}
<div class="grid">
<div>
<section class="card" aria-labelledby="members-title">
<h2 id="members-title">${escapeHtml(m.membersTitle)}</h2>
<ul class="team-list">${members}</ul>
${owner}
</section>
<section class="card" aria-labelledby="pending-title">
<h2 id="pending-title">${escapeHtml(m.pendingTitle)}</h2>
${invitations}
</section>
</div>
${manage ? inviteForm(shell, view) : ''}
</div>`,
  );
}

export interface InvitationView {
  readonly token: string;
  readonly accountName: string;
  readonly role: DashboardUserRow['role'];
  readonly email: string;
  readonly problem?: PasswordProblem | undefined;
}

export function invitationPage(shell: Shell, view: InvitationView): string {
  const { t } = shell;
  const m = TEAM_MESSAGES[shell.lang];
  const title = m.invitationTitle(view.accountName);
  return layout(
    shell,
    title,
    `<div class="narrow"><div class="card">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(m.invitationText(view.accountName, m.roles[view.role]))}</p>
<p class="muted">${escapeHtml(m.invitationEmail(view.email))}</p>
${view.problem === undefined ? '' : alert(t.errorSummary)}
<form method="post" action="/dashboard/invitation" novalidate>${hidden(shell)}
<input type="hidden" name="token" value="${escapeHtml(view.token)}">
<label for="f-username">${escapeHtml(t.email)}</label>
<input id="f-username" name="username" type="email" autocomplete="username" value="${escapeHtml(view.email)}" readonly>
${field(t, { name: 'password', label: t.password, type: 'password', autocomplete: 'new-password', hint: t.passwordHint, problem: view.problem })}
<button type="submit">${escapeHtml(m.acceptInvitation)}</button>
</form>
</div></div>`,
  );
}
