/**
 * The texts of the Team section (its pages, the invitation page and the invitation mail), in
 * English, Armenian and Russian. Not escaped here: the pages escape what they print.
 */
import type { DashboardRole } from '../../../storage/dashboard-user.table.js';
import type { Language } from '../i18n/index.js';
import type { InviteProblem } from './team.service.js';

export interface TeamMessages {
  readonly title: string;
  readonly intro: string;
  readonly readOnly: string;
  readonly membersTitle: string;
  readonly pendingTitle: string;
  readonly noPending: string;
  readonly email: string;
  readonly role: string;
  readonly since: string;
  readonly actions: string;
  readonly roles: Readonly<Record<DashboardRole, string>>;
  readonly roleHints: Readonly<Record<DashboardRole, string>>;
  readonly you: string;
  readonly joined: (date: string) => string;
  readonly invitedOn: (date: string, by: string | null) => string;
  readonly expiresOn: (date: string) => string;
  readonly expired: string;
  readonly inviteTitle: string;
  readonly inviteIntro: string;
  readonly invite: string;
  readonly resend: string;
  readonly cancel: string;
  readonly remove: string;
  readonly changeRole: string;
  readonly newRoleOf: (email: string) => string;
  readonly ownerFixed: string;
  readonly problems: Readonly<Record<InviteProblem, string>>;
  readonly notices: {
    readonly invited: string;
    readonly resent: string;
    readonly cancelled: string;
    readonly roleChanged: string;
    readonly removed: string;
  };
  readonly invitationTitle: (account: string) => string;
  readonly invitationText: (account: string, role: string) => string;
  readonly invitationEmail: (email: string) => string;
  readonly acceptInvitation: string;
  readonly invitationInvalidText: string;
  readonly emailTakenTitle: string;
  readonly emailTakenText: string;
  readonly mailSubject: (account: string) => string;
  readonly mailText: (details: {
    account: string;
    role: string;
    inviter: string;
    link: string;
    days: number;
  }) => string;
}

const en: TeamMessages = {
  title: 'Team',
  intro: 'People who can sign in to this account’s dashboard.',
  readOnly: 'You can see the team; only the owner and admins can change it.',
  membersTitle: 'Members',
  pendingTitle: 'Pending invitations',
  noPending: 'No pending invitations.',
  email: 'Email',
  role: 'Role',
  since: 'Since',
  actions: 'Actions',
  roles: { owner: 'Owner', admin: 'Admin', viewer: 'Viewer' },
  roleHints: {
    owner: 'Everything, and the account itself.',
    admin: 'Everything: keys, domains, processors, refunds, the team.',
    viewer: 'Reads pages; never sees secrets; changes nothing.',
  },
  you: '(you)',
  joined: (date) => `Joined ${date}`,
  invitedOn: (date, by) => (by === null ? `Invited ${date}` : `Invited ${date} by ${by}`),
  expiresOn: (date) => `link valid until ${date}`,
  expired: 'link expired: resend it',
  inviteTitle: 'Invite a member',
  inviteIntro: 'We email a link valid for 7 days. The person chooses a password and joins with this role.',
  invite: 'Send invitation',
  resend: 'Resend',
  cancel: 'Cancel invitation',
  remove: 'Remove',
  changeRole: 'Change role',
  newRoleOf: (email) => `New role of ${email}`,
  ownerFixed: 'The owner cannot be removed, and the owner’s role cannot be changed.',
  problems: {
    required: 'Fill this in.',
    invalid_email: 'This is not an email address.',
    already_member: 'This address is already a member of the team.',
    invalid_role: 'Choose Admin or Viewer.',
  },
  notices: {
    invited: 'Invitation sent.',
    resent: 'Invitation sent again, with a new link; the earlier link no longer works.',
    cancelled: 'Invitation cancelled; its link no longer works.',
    roleChanged: 'Role changed.',
    removed: 'Member removed from the team and signed out everywhere.',
  },
  invitationTitle: (account) => `Join ${account}`,
  invitationText: (account, role) => `You are invited to the dashboard of ${account} as ${role}.`,
  invitationEmail: (email) => `Your sign-in email will be ${email}. Choose a password to join.`,
  acceptInvitation: 'Join and sign in',
  invitationInvalidText:
    'This invitation was already used, cancelled, replaced by a newer one, or it expired. Ask whoever invited you to send it again.',
  emailTakenTitle: 'This address already has an account',
  emailTakenText:
    'One email address can belong to one dashboard account only, and this one already has an account. Sign in with it, or ask whoever invited you to invite another address.',
  mailSubject: (account) => `You are invited to the ${account} dashboard`,
  mailText: ({ account, role, inviter, link, days }) =>
    `${inviter} invited you to the payment dashboard of ${account} as ${role}.\n\nOpen this link to choose your password and join (valid ${days} days, once):\n${link}\n\nIf you did not expect this, ignore this message.`,
};

const hy: TeamMessages = {
  title: 'Թիմ',
  intro: 'Մարդիկ, ովքեր կարող են մուտք գործել այս հաշվի վահանակ։',
  readOnly: 'Դուք կարող եք տեսնել թիմը․ փոխել կարող են միայն սեփականատերը և ադմինները։',
  membersTitle: 'Անդամներ',
  pendingTitle: 'Սպասվող հրավերներ',
  noPending: 'Սպասվող հրավերներ չկան։',
  email: 'Էլ. փոստ',
  role: 'Դեր',
  since: 'Սկսած',
  actions: 'Գործողություններ',
  roles: { owner: 'Սեփականատեր', admin: 'Ադմին', viewer: 'Դիտորդ' },
  roleHints: {
    owner: 'Ամեն ինչ, ներառյալ հաշիվը։',
    admin: 'Ամեն ինչ՝ բանալիներ, դոմեններ, պրոցեսորներ, վերադարձներ, թիմ։',
    viewer: 'Կարդում է էջերը, երբեք չի տեսնում գաղտնիքները, ոչինչ չի փոխում։',
  },
  you: '(դուք)',
  joined: (date) => `Միացել է ${date}`,
  invitedOn: (date, by) => (by === null ? `Հրավիրված է ${date}` : `Հրավիրված է ${date}, հրավիրող՝ ${by}`),
  expiresOn: (date) => `հղումը գործում է մինչև ${date}`,
  expired: 'հղումի ժամկետն անցել է․ ուղարկեք նորից',
  inviteTitle: 'Հրավիրել անդամ',
  inviteIntro: 'Մենք կուղարկենք 7 օր գործող հղում։ Անձը կընտրի գաղտնաբառ և կմիանա այս դերով։',
  invite: 'Ուղարկել հրավեր',
  resend: 'Ուղարկել նորից',
  cancel: 'Չեղարկել հրավերը',
  remove: 'Հեռացնել',
  changeRole: 'Փոխել դերը',
  newRoleOf: (email) => `${email}-ի նոր դերը`,
  ownerFixed: 'Սեփականատիրոջը հնարավոր չէ հեռացնել, և նրա դերը հնարավոր չէ փոխել։',
  problems: {
    required: 'Լրացրեք այս դաշտը։',
    invalid_email: 'Սա էլ. փոստի հասցե չէ։',
    already_member: 'Այս հասցեն արդեն թիմի անդամ է։',
    invalid_role: 'Ընտրեք Ադմին կամ Դիտորդ։',
  },
  notices: {
    invited: 'Հրավերն ուղարկված է։',
    resent: 'Հրավերը նորից ուղարկված է նոր հղումով․ նախորդ հղումն այլևս չի գործում։',
    cancelled: 'Հրավերը չեղարկված է․ դրա հղումն այլևս չի գործում։',
    roleChanged: 'Դերը փոխված է։',
    removed: 'Անդամը հեռացված է թիմից, նրա բոլոր սեանսներն ավարտված են։',
  },
  invitationTitle: (account) => `Միանալ ${account}-ին`,
  invitationText: (account, role) => `Դուք հրավիրված եք ${account}-ի վահանակ՝ «${role}» դերով։`,
  invitationEmail: (email) => `Ձեր մուտքի էլ. փոստը կլինի ${email}։ Ընտրեք գաղտնաբառ՝ միանալու համար։`,
  acceptInvitation: 'Միանալ և մուտք գործել',
  invitationInvalidText:
    'Այս հրավերն արդեն օգտագործվել է, չեղարկվել է, փոխարինվել է ավելի նորով կամ դրա ժամկետն անցել է։ Խնդրեք ձեզ հրավիրողին ուղարկել այն նորից։',
  emailTakenTitle: 'Այս հասցեն արդեն հաշիվ ունի',
  emailTakenText:
    'Մեկ էլ. փոստի հասցեն կարող է պատկանել միայն մեկ վահանակի հաշվի, և այս հասցեն արդեն հաշիվ ունի։ Մուտք գործեք դրանով կամ խնդրեք ձեզ հրավիրողին հրավիրել այլ հասցե։',
  mailSubject: (account) => `Դուք հրավիրված եք ${account}-ի վահանակ`,
  mailText: ({ account, role, inviter, link, days }) =>
    `${inviter}-ը ձեզ հրավիրել է ${account}-ի վճարումների վահանակ՝ «${role}» դերով։\n\nԲացեք այս հղումը՝ գաղտնաբառ ընտրելու և միանալու համար (գործում է ${days} օր, մեկ անգամ)․\n${link}\n\nԵթե սա չէիք սպասում, անտեսեք այս նամակը։`,
};

const ru: TeamMessages = {
  title: 'Команда',
  intro: 'Люди, которые могут входить в панель этого аккаунта.',
  readOnly: 'Вы видите команду; изменять её могут только владелец и администраторы.',
  membersTitle: 'Участники',
  pendingTitle: 'Ожидающие приглашения',
  noPending: 'Ожидающих приглашений нет.',
  email: 'Email',
  role: 'Роль',
  since: 'С',
  actions: 'Действия',
  roles: { owner: 'Владелец', admin: 'Администратор', viewer: 'Наблюдатель' },
  roleHints: {
    owner: 'Всё, включая сам аккаунт.',
    admin: 'Всё: ключи, домены, процессоры, возвраты, команда.',
    viewer: 'Читает страницы, никогда не видит секреты, ничего не меняет.',
  },
  you: '(вы)',
  joined: (date) => `Присоединился ${date}`,
  invitedOn: (date, by) => (by === null ? `Приглашён ${date}` : `Приглашён ${date}, пригласил ${by}`),
  expiresOn: (date) => `ссылка действует до ${date}`,
  expired: 'срок ссылки истёк: отправьте снова',
  inviteTitle: 'Пригласить участника',
  inviteIntro: 'Мы отправим ссылку, действующую 7 дней. Человек выберет пароль и войдёт с этой ролью.',
  invite: 'Отправить приглашение',
  resend: 'Отправить снова',
  cancel: 'Отменить приглашение',
  remove: 'Удалить',
  changeRole: 'Изменить роль',
  newRoleOf: (email) => `Новая роль ${email}`,
  ownerFixed: 'Владельца нельзя удалить, и его роль нельзя изменить.',
  problems: {
    required: 'Заполните это поле.',
    invalid_email: 'Это не адрес электронной почты.',
    already_member: 'Этот адрес уже состоит в команде.',
    invalid_role: 'Выберите «Администратор» или «Наблюдатель».',
  },
  notices: {
    invited: 'Приглашение отправлено.',
    resent: 'Приглашение отправлено снова с новой ссылкой; прежняя ссылка больше не работает.',
    cancelled: 'Приглашение отменено; его ссылка больше не работает.',
    roleChanged: 'Роль изменена.',
    removed: 'Участник удалён из команды, все его сеансы завершены.',
  },
  invitationTitle: (account) => `Присоединиться к ${account}`,
  invitationText: (account, role) => `Вас пригласили в панель ${account} с ролью «${role}».`,
  invitationEmail: (email) => `Ваш email для входа: ${email}. Выберите пароль, чтобы присоединиться.`,
  acceptInvitation: 'Присоединиться и войти',
  invitationInvalidText:
    'Это приглашение уже использовано, отменено, заменено более новым или его срок истёк. Попросите пригласившего отправить его снова.',
  emailTakenTitle: 'У этого адреса уже есть аккаунт',
  emailTakenText:
    'Один адрес электронной почты может принадлежать только одному аккаунту панели, а у этого адреса аккаунт уже есть. Войдите с ним или попросите пригласившего пригласить другой адрес.',
  mailSubject: (account) => `Вас пригласили в панель ${account}`,
  mailText: ({ account, role, inviter, link, days }) =>
    `${inviter} пригласил вас в платёжную панель ${account} с ролью «${role}».\n\nОткройте ссылку, чтобы выбрать пароль и присоединиться (действует ${days} дней, один раз):\n${link}\n\nЕсли вы этого не ждали, просто проигнорируйте письмо.`,
};

export const TEAM_MESSAGES: Readonly<Record<Language, TeamMessages>> = { en, hy, ru };
