/**
 * Every text of the dashboard (pages and mails), by key. One dictionary per language implements
 * this interface, so a missing key in a translation is a type error. Texts are not escaped here:
 * the pages escape everything they print.
 */
import type { FieldProblem, OutgoingKind } from '../accounts.service.js';
import type { NavId } from '../nav.js';
import type { ChecklistItem } from '../onboarding.service.js';

export interface DashboardMessages {
  readonly locale: string;
  readonly languageName: string;
  readonly product: string;
  readonly skipToContent: string;
  readonly language: string;
  readonly mainNavigation: string;
  /** The button that opens the main navigation on a narrow screen. */
  readonly menu: string;
  /** The main navigation's entries (gateway/dashboard/nav.ts `NAV`). */
  readonly nav: Readonly<Record<NavId, string>>;
  /** The mark beside an entry whose page is still to come. */
  readonly soon: string;
  /** A copy button, and what it says once the value is copied. */
  readonly copy: string;
  readonly copied: string;
  readonly signedInAs: (email: string) => string;
  readonly signOut: string;

  readonly signUpTitle: string;
  readonly signUpIntro: string;
  readonly businessName: string;
  readonly email: string;
  readonly password: string;
  readonly passwordHint: string;
  readonly createAccount: string;
  readonly haveAccount: string;
  readonly signInTitle: string;
  readonly signIn: string;
  readonly noAccount: string;
  readonly forgotPassword: string;
  readonly wrongCredentials: string;
  readonly lockedOut: (minutes: number) => string;
  readonly checkEmailTitle: string;
  readonly checkEmailText: (email: string) => string;
  readonly unverifiedText: (email: string) => string;
  readonly confirmEmailTitle: string;
  readonly confirmEmailText: string;
  readonly confirmEmail: string;
  readonly linkInvalidTitle: string;
  readonly linkInvalidText: string;
  readonly emailConfirmed: string;
  readonly emailChanged: string;
  readonly emailTaken: string;
  readonly signedOut: string;
  readonly sessionEnded: string;

  readonly resetTitle: string;
  readonly resetIntro: string;
  readonly sendResetLink: string;
  readonly resetSentText: string;
  readonly newPasswordTitle: string;
  readonly newPassword: string;
  readonly setPassword: string;
  readonly passwordReset: string;

  readonly accountTitle: string;
  readonly changeEmailTitle: string;
  readonly newEmail: string;
  readonly currentPassword: string;
  readonly changeEmail: string;
  readonly changeEmailSent: (email: string) => string;
  readonly changePasswordTitle: string;
  readonly changePassword: string;
  readonly passwordChanged: string;
  readonly emailLanguageTitle: string;
  readonly emailLanguageText: string;
  readonly emailLanguageLabel: string;
  readonly emailLanguageSave: string;
  readonly emailLanguageInvalid: string;
  readonly emailLanguageChanged: string;

  readonly homeTitle: string;
  readonly testKeyTitle: string;
  readonly testKeyOnce: string;
  readonly tryItTitle: string;
  readonly tryItText: string;
  readonly keyPlaceholderText: string;
  readonly checklistTitle: string;
  readonly checklist: Readonly<Record<ChecklistItem, string>>;
  readonly done: string;
  readonly notYet: string;

  readonly problems: Readonly<Record<FieldProblem, string>>;
  readonly formExpiredTitle: string;
  readonly formExpiredText: string;
  readonly forbiddenTitle: string;
  readonly forbiddenText: string;
  readonly notFoundTitle: string;
  readonly notFoundText: string;
  readonly errorSummary: string;

  /** The mails, by what they are for; `link` is the mail's own link (with its token). */
  readonly mail: Readonly<
    Record<OutgoingKind, { readonly subject: string; readonly text: (links: MailLinks) => string }>
  >;
}

export interface MailLinks {
  readonly link: string;
  readonly signIn: string;
  readonly reset: string;
}
