/**
 * The email that tells the merchant the operator's decision on its business verification, in the
 * account's language: verified (live keys and payments are open), or rejected with the reason and
 * the way to send the form again.
 */
import type { Language } from '../checkout/i18n/index.js';
import { nameInMail } from '../notifications/mail-names.js';

/** The words of the decision email in each language of the service. */
const DECISION_TEXTS: Readonly<
  Record<
    Language,
    {
      readonly verifiedSubject: string;
      readonly verified: (legalName: string | null) => string;
      readonly liveNow: string;
      readonly rejectedSubject: string;
      readonly rejected: (legalName: string | null) => string;
      readonly reason: string;
      readonly again: string;
      readonly hello: string;
      readonly signature: string;
    }
  >
> = {
  en: {
    hello: 'Hello,',
    signature: 'Payment Gateway',
    verifiedSubject: 'Your business is verified',
    verified: (name) =>
      name === null ? 'We verified your business.' : `We checked the details you sent and verified ${name}.`,
    liveNow: 'You can now create live API keys and take live payments:',
    rejectedSubject: 'Business verification: changes needed',
    rejected: (name) => `We could not verify ${name ?? 'your business'} from the details you sent.`,
    reason: 'Reason:',
    again: 'Correct what is needed and send the form again:',
  },
  hy: {
    hello: 'Բարև Ձեզ,',
    signature: 'Վճարային դարպաս',
    verifiedSubject: 'Ձեր բիզնեսը հաստատված է',
    verified: (name) =>
      name === null
        ? 'Մենք հաստատեցինք ձեր բիզնեսը։'
        : `Մենք ստուգեցինք ձեր ուղարկած տվյալները և հաստատեցինք ${name} ընկերությունը։`,
    liveNow: 'Այժմ կարող եք ստեղծել իրական API բանալիներ և ընդունել իրական վճարումներ՝',
    rejectedSubject: 'Բիզնեսի հաստատում. անհրաժեշտ են փոփոխություններ',
    rejected: (name) =>
      name === null
        ? 'Ձեր ուղարկած տվյալներով չկարողացանք հաստատել ձեր բիզնեսը։'
        : `Ձեր ուղարկած տվյալներով չկարողացանք հաստատել ${name} ընկերությունը։`,
    reason: 'Պատճառը՝',
    again: 'Ուղղեք անհրաժեշտը և կրկին ուղարկեք ձևը՝',
  },
  ru: {
    hello: 'Здравствуйте!',
    signature: 'Платёжный шлюз',
    verifiedSubject: 'Ваш бизнес подтверждён',
    verified: (name) =>
      name === null ? 'Мы подтвердили ваш бизнес.' : `Мы проверили присланные данные и подтвердили ${name}.`,
    liveNow: 'Теперь вы можете создавать боевые API-ключи и принимать боевые платежи:',
    rejectedSubject: 'Подтверждение бизнеса: нужны исправления',
    rejected: (name) =>
      name === null
        ? 'Нам не удалось подтвердить ваш бизнес по присланным данным.'
        : `Нам не удалось подтвердить ${name} по присланным данным.`,
    reason: 'Причина:',
    again: 'Исправьте необходимое и отправьте форму ещё раз:',
  },
};

/** Subject and plain text of the decision email, in the account's language. */
export function decisionEmail(
  decision: { kind: 'verified' | 'rejected'; legalName: string | null; reason: string | null },
  publicUrl: string,
  language: Language = 'en',
): { subject: string; text: string } {
  const w = DECISION_TEXTS[language];
  // The legal name is the merchant's text: quoted and neutralised like every name a mail prints.
  const legalName = decision.legalName === null ? null : nameInMail(decision.legalName, language);
  if (decision.kind === 'verified') {
    return {
      subject: w.verifiedSubject,
      text: [w.hello, '', w.verified(legalName), w.liveNow, `  ${publicUrl}/dashboard`, '', '--', w.signature, ''].join(
        '\n',
      ),
    };
  }
  return {
    subject: w.rejectedSubject,
    text: [
      w.hello,
      '',
      w.rejected(legalName),
      '',
      w.reason,
      `  ${decision.reason ?? ''}`,
      '',
      w.again,
      `  ${publicUrl}/dashboard/business`,
      '',
      '--',
      w.signature,
      '',
    ].join('\n'),
  };
}
