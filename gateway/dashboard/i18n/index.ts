/**
 * The dashboard's languages, the checkout's three: English (the default), Armenian and Russian.
 * The language is `?lang=` when it names one of them (then remembered in a cookie), else the
 * cookie, else the best match of `Accept-Language`, else English.
 */
import {
  DEFAULT_LANGUAGE,
  fromAcceptLanguage,
  isLanguage,
  LANGUAGES,
  type Language,
} from '../../checkout/i18n/index.js';
import { defineMessages } from '../../i18n/messages.js';
import { en } from './en.js';
import { hy } from './hy.js';
import type { DashboardMessages } from './messages.js';
import { ru } from './ru.js';

export type { DashboardMessages } from './messages.js';
export { isLanguage, LANGUAGES, type Language };

export const DASHBOARD_DICTIONARIES = defineMessages<DashboardMessages>(
  'dashboard',
  { en, hy, ru },
  {
    signedInAs: ['email'],
    lockedOut: ['minutes'],
    checkEmailText: ['email'],
    unverifiedText: ['email'],
    changeEmailSent: ['email'],
    mail: {
      verify_email: { text: 'values' },
      change_email: { text: 'values' },
      reset_password: { text: 'values' },
      already_registered: { text: 'values' },
    },
  },
);

export function chooseDashboardLanguage(
  query: unknown,
  cookie: string | undefined,
  acceptLanguage: string | undefined,
): Language {
  if (isLanguage(query)) return query;
  if (isLanguage(cookie)) return cookie;
  return fromAcceptLanguage(acceptLanguage) ?? DEFAULT_LANGUAGE;
}
