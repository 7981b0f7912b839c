/**
 * The texts of the Team section (its pages, the invitation page and the invitation mail), in
 * English, Armenian and Russian. Not escaped here: the pages escape what they print.
 */
import type { DashboardRole } from '../../../storage/dashboard-user.table.js';
import { type Catalog, defineMessages } from '../../i18n/messages.js';
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
  /** `date`: an instant (the day in Yerevan time). */
  readonly joined: (date: string) => string;
  readonly invitedOn: (date: string) => string;
  readonly invitedBy: (date: string, by: string) => string;
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

const en: Catalog<TeamMessages> = {
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
  joined: 'Joined {date, date, day}',
  invitedOn: 'Invited {date, date, day}',
  invitedBy: 'Invited {date, date, day} by {by}',
  expiresOn: 'link valid until {date, date, datetime}',
  expired: 'link expired: resend it',
  inviteTitle: 'Invite a member',
  inviteIntro: 'We email a link valid for 7 days. The person chooses a password and joins with this role.',
  invite: 'Send invitation',
  resend: 'Resend',
  cancel: 'Cancel invitation',
  remove: 'Remove',
  changeRole: 'Change role',
  newRoleOf: 'New role of {email}',
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
  invitationTitle: 'Join {account}',
  invitationText: 'You are invited to the dashboard of {account} as {role}.',
  invitationEmail: 'Your sign-in email will be {email}. Choose a password to join.',
  acceptInvitation: 'Join and sign in',
  invitationInvalidText:
    'This invitation was already used, cancelled, replaced by a newer one, or it expired. Ask whoever invited you to send it again.',
  emailTakenTitle: 'This address already has an account',
  emailTakenText:
    'One email address can belong to one dashboard account only, and this one already has an account. Sign in with it, or ask whoever invited you to invite another address.',
  mailSubject: 'You are invited to the {account} dashboard',
  mailText:
    '{inviter} invited you to the payment dashboard of {account} as {role}.\n\nOpen this link to choose your password and join (valid {days, plural, one {# day} other {# days}}, once):\n{link}\n\nIf you did not expect this, ignore this message.',
};

const hy: Catalog<TeamMessages> = {
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
    admin: 'Ամեն ինչ՝ բանալիներ, դոմեններ, վճարային համակարգեր, վերադարձներ, թիմ։',
    viewer: 'Կարդում է էջերը, երբեք չի տեսնում գաղտնիքները, ոչինչ չի փոխում։',
  },
  you: '(դուք)',
  joined: 'Միացել է {date, date, day}',
  invitedOn: 'Հրավերն ուղարկվել է {date, date, day}',
  invitedBy: 'Հրավերն ուղարկվել է {date, date, day}, հրավիրողը՝ {by}',
  expiresOn: 'հղումը գործում է մինչև {date, date, datetime}',
  expired: 'հղումի ժամկետն անցել է․ ուղարկեք նորից',
  inviteTitle: 'Հրավիրել անդամ',
  inviteIntro: 'Մենք կուղարկենք 7 օր գործող հղում։ Անձը կընտրի գաղտնաբառ և կմիանա այս դերով։',
  invite: 'Ուղարկել հրավեր',
  resend: 'Ուղարկել նորից',
  cancel: 'Չեղարկել հրավերը',
  remove: 'Հեռացնել',
  changeRole: 'Փոխել դերը',
  newRoleOf: '{email} հասցեով անդամի նոր դերը',
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
  invitationTitle: 'Միանալ {account} հաշվին',
  invitationText: 'Դուք հրավիրված եք {account} հաշվի վահանակ՝ «{role}» դերով։',
  invitationEmail: 'Ձեր մուտքի էլ. փոստը կլինի {email}։ Ընտրեք գաղտնաբառ՝ միանալու համար։',
  acceptInvitation: 'Միանալ և մուտք գործել',
  invitationInvalidText:
    'Այս հրավերն արդեն օգտագործվել է, չեղարկվել է, փոխարինվել է ավելի նորով կամ դրա ժամկետն անցել է։ Խնդրեք ձեզ հրավիրողին ուղարկել այն նորից։',
  emailTakenTitle: 'Այս հասցեն արդեն հաշիվ ունի',
  emailTakenText:
    'Մեկ էլ. փոստի հասցեն կարող է պատկանել միայն մեկ վահանակի հաշվի, և այս հասցեն արդեն հաշիվ ունի։ Մուտք գործեք դրանով կամ խնդրեք ձեզ հրավիրողին հրավիրել այլ հասցե։',
  mailSubject: 'Դուք հրավիրված եք {account} հաշվի վահանակ',
  mailText:
    'Ձեզ հրավիրում են {account} հաշվի վճարումների վահանակ՝ «{role}» դերով։ Հրավիրողը՝ {inviter}։\n\nԲացեք այս հղումը՝ գաղտնաբառ ընտրելու և միանալու համար (գործում է {days, number} օր, մեկ անգամ)․\n{link}\n\nԵթե սա չէիք սպասում, անտեսեք այս նամակը։',
};

const ru: Catalog<TeamMessages> = {
  title: 'Команда',
  intro: 'Люди, которые могут входить в панель этого аккаунта.',
  readOnly: 'Вы видите команду; изменять её могут только владелец и администраторы.',
  membersTitle: 'Участники',
  pendingTitle: 'Ожидающие приглашения',
  noPending: 'Ожидающих приглашений нет.',
  email: 'Эл. почта',
  role: 'Роль',
  since: 'С',
  actions: 'Действия',
  roles: { owner: 'Владелец', admin: 'Администратор', viewer: 'Наблюдатель' },
  roleHints: {
    owner: 'Всё, включая сам аккаунт.',
    admin: 'Всё: ключи, домены, платёжные системы, возвраты, команда.',
    viewer: 'Читает страницы, никогда не видит секреты, ничего не меняет.',
  },
  you: '(вы)',
  joined: 'В команде с {date, date, day}',
  invitedOn: 'Приглашение отправлено {date, date, day}',
  invitedBy: 'Приглашение от {by}, отправлено {date, date, day}',
  expiresOn: 'ссылка действует до {date, date, datetime}',
  expired: 'срок ссылки истёк: отправьте снова',
  inviteTitle: 'Пригласить участника',
  inviteIntro: 'Мы отправим ссылку, действующую 7 дней. Человек выберет пароль и войдёт с этой ролью.',
  invite: 'Отправить приглашение',
  resend: 'Отправить снова',
  cancel: 'Отменить приглашение',
  remove: 'Удалить',
  changeRole: 'Изменить роль',
  newRoleOf: 'Новая роль {email}',
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
  invitationTitle: 'Присоединиться к {account}',
  invitationText: 'Вас пригласили в панель {account} с ролью «{role}».',
  invitationEmail: 'Ваш email для входа: {email}. Выберите пароль, чтобы присоединиться.',
  acceptInvitation: 'Присоединиться и войти',
  invitationInvalidText:
    'Это приглашение уже использовано, отменено, заменено более новым или его срок истёк. Попросите пригласившего отправить его снова.',
  emailTakenTitle: 'У этого адреса уже есть аккаунт',
  emailTakenText:
    'Один адрес электронной почты может принадлежать только одному аккаунту панели, а у этого адреса аккаунт уже есть. Войдите с ним или попросите пригласившего пригласить другой адрес.',
  mailSubject: 'Вас пригласили в панель {account}',
  mailText:
    '{inviter} приглашает вас в платёжную панель {account} с ролью «{role}».\n\nОткройте ссылку, чтобы выбрать пароль и присоединиться (действует {days, plural, one {# день} few {# дня} many {# дней} other {# дня}}, один раз):\n{link}\n\nЕсли вы этого не ждали, просто проигнорируйте письмо.',
};

export const TEAM_MESSAGES = defineMessages<TeamMessages>(
  'dashboard.team',
  { en, hy, ru },
  {
    joined: ['date'],
    invitedOn: ['date'],
    invitedBy: ['date', 'by'],
    expiresOn: ['date'],
    newRoleOf: ['email'],
    invitationTitle: ['account'],
    invitationText: ['account', 'role'],
    invitationEmail: ['email'],
    mailSubject: ['account'],
    mailText: 'values',
  },
);
