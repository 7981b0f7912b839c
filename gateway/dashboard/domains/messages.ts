/**
 * The texts of the Domains section (list, one domain's verification and webhook settings), in
 * English, Armenian and Russian. Not escaped here: the pages escape what they print.
 */
import type { VerificationFailureCode } from '../../domain/domain-verification.js';
import { type Catalog, defineMessages } from '../../i18n/messages.js';

export interface DomainsMessages {
  readonly title: string;
  readonly intro: string;
  readonly host: string;
  readonly kind: string;
  readonly status: string;
  readonly webhook: string;
  readonly hostedBadge: string;
  readonly ownBadge: string;
  readonly verified: string;
  readonly notVerified: string;
  readonly webhookSet: string;
  readonly webhookNotSet: string;
  readonly open: (host: string) => string;
  readonly hostedExplain: string;

  readonly addTitle: string;
  readonly addHint: string;
  readonly addButton: string;
  readonly hostRequired: string;
  readonly hostNeverVerifiable: string;
  readonly hostInvalid: string;
  readonly hostSingleLabel: string;
  readonly hostDuplicate: (host: string) => string;
  readonly added: (host: string) => string;

  readonly back: string;
  readonly verificationTitle: string;
  /** A domain verified without a recorded time (by the operator). */
  readonly verifiedBy: (method: string) => string;
  /** `at`: an instant (Yerevan time). */
  readonly verifiedOn: (method: string, at: string) => string;
  readonly methodNames: Readonly<Record<'dns' | 'https' | 'operator' | 'hosted', string>>;
  readonly notVerifiedYet: string;
  readonly verifyIntro: string;
  readonly token: string;
  readonly dnsTitle: string;
  readonly dnsHint: string;
  readonly recordName: string;
  readonly recordType: string;
  readonly recordValue: string;
  readonly fileTitle: string;
  readonly fileHint: string;
  readonly fileUrl: string;
  readonly fileContent: string;
  readonly checkDns: string;
  readonly checkFile: string;
  /** `at`: an instant (Yerevan time). */
  readonly checkedFailed: (method: string, at: string) => string;
  readonly failures: Readonly<Record<VerificationFailureCode, string>>;
  readonly detail: string;
  readonly verifiedNow: (host: string) => string;
  readonly hostedTitle: string;
  readonly neverVerifiable: string;

  readonly webhookTitle: string;
  readonly webhookIntro: string;
  readonly webhookUrl: string;
  readonly webhookUrlHint: string;
  readonly saveUrl: string;
  readonly urlRequired: string;
  readonly urlInvalid: string;
  readonly urlNotHttp: string;
  readonly urlPrivate: string;
  readonly urlSaved: string;
  readonly noWebhookUrl: string;

  readonly secretTitle: string;
  readonly secretIntro: string;
  readonly reveal: string;
  readonly currentSecret: string;
  readonly nextSecret: string;
  readonly secretNote: string;
  readonly rotate: string;
  readonly rotateConfirm: string;
  readonly rotated: string;
  /** `until`: an instant (Yerevan time, the zone named). */
  readonly rotationLeft: (hours: number, minutes: number, until: string) => string;
  readonly viewerNoSecret: string;

  readonly testTitle: string;
  readonly testIntro: string;
  readonly sendTest: string;
  readonly testNeedsUrl: string;
  readonly testResultTitle: string;
  readonly testDelivered: string;
  readonly testNotDelivered: string;
  readonly testStatus: string;
  readonly testNoStatus: string;
  readonly testSentAt: string;
  readonly testDuration: (ms: number) => string;
  readonly testAnswer: string;
  readonly testNoAnswer: string;
  readonly testError: string;

  readonly processorsLink: string;
}

const en: Catalog<DomainsMessages> = {
  title: 'Domains',
  intro:
    'The sites you take payments on. Live payments are accepted only on a verified domain; each domain has its own webhook URL and signing secret.',
  host: 'Domain',
  kind: 'Kind',
  status: 'Verification',
  webhook: 'Webhook URL',
  hostedBadge: 'Hosted by the gateway',
  ownBadge: 'Your site',
  verified: 'Verified',
  notVerified: 'Not verified',
  webhookSet: 'Set',
  webhookNotSet: 'Not set',
  open: 'Open {host}',
  hostedExplain:
    "The hosted domain is the gateway's own address for your account: test payments that name none of your domains use it, and it always offers the sandbox. It is verified already and needs nothing from you.",

  addTitle: 'Add a domain',
  addHint: 'The domain name of your site, for example shop.example.am (no https://, no path).',
  addButton: 'Add domain',
  hostRequired: 'Enter a domain name.',
  hostNeverVerifiable: 'localhost and IP addresses can never be verified: add the domain name your customers visit.',
  hostInvalid: 'This is not a valid domain name. Write it like shop.example.am, without https:// or a path.',
  hostSingleLabel: 'Write the full domain name, with its dot (for example shop.example.am).',
  hostDuplicate: '{host} is already one of your domains.',
  added: '{host} is added. Verify it to take live payments on it.',

  back: 'All domains',
  verificationTitle: 'Verification',
  verifiedBy: 'Verified ({method}).',
  verifiedOn: 'Verified ({method}) on {at, date, datetime}.',
  methodNames: { dns: 'DNS record', https: 'HTTPS file', operator: 'by the operator', hosted: 'hosted domain' },
  notVerifiedYet: 'Not verified yet.',
  verifyIntro:
    'Prove that the domain is yours in one of two ways: publish a DNS TXT record, or serve a small file over HTTPS. Then press the matching button.',
  token: 'Your verification token',
  dnsTitle: 'By DNS record',
  dnsHint: 'Add this TXT record at your DNS provider. New records can take a few minutes to appear.',
  recordName: 'Name',
  recordType: 'Type',
  recordValue: 'Value',
  fileTitle: 'By HTTPS file',
  fileHint: 'Serve this text as the whole content of the file, over HTTPS with a valid certificate, without redirects.',
  fileUrl: 'File address',
  fileContent: 'File content',
  checkDns: 'Check DNS record',
  checkFile: 'Check file',
  checkedFailed: 'The last check ({method}, {at, date, datetime}) did not verify the domain:',
  failures: {
    dns_no_record: 'No TXT record was found under the name shown. Add it, wait a few minutes, and check again.',
    dns_wrong_value: 'A TXT record exists, but none holds the exact value shown. Correct it and check again.',
    dns_timeout: 'The DNS servers did not answer in time. Check again in a moment.',
    dns_servfail: 'The DNS servers of the domain answered with an error (SERVFAIL). Check your DNS provider.',
    dns_error: 'The DNS lookup failed. Check again in a moment.',
    https_not_found: 'The file was not found at the address shown.',
    https_redirect: 'The file address answered with a redirect; serve the file there directly.',
    https_wrong_content: 'The file was found, but its content is not exactly the value shown.',
    https_too_large: 'The file is too large: it must hold only the value shown.',
    https_tls_error: "The site's HTTPS certificate could not be trusted.",
    https_private_address: 'The domain points to a private address, which the gateway never contacts.',
    https_timeout: 'The site did not answer in time.',
    https_unreachable: 'The site could not be reached.',
    taken: 'This domain is already verified for another account. Contact support if it is yours.',
  },
  detail: 'Details',
  verifiedNow: '{host} is verified. Live payments can now be taken on it.',
  hostedTitle: 'Your hosted domain',
  neverVerifiable: 'localhost and IP addresses can never be verified.',

  webhookTitle: 'Webhooks',
  webhookIntro: 'The gateway sends signed payment events of this domain to this address.',
  webhookUrl: 'Webhook URL',
  webhookUrlHint: 'An https:// address of your server that receives the events.',
  saveUrl: 'Save webhook URL',
  urlRequired: 'Enter the address that receives the events.',
  urlInvalid: 'This is not a valid address. Write it like https://shop.example.am/webhooks.',
  urlNotHttp: 'The address must start with https:// (or http://).',
  urlPrivate: 'This address is private (localhost or a private network): webhooks are never delivered there.',
  urlSaved: 'The webhook URL is saved.',
  noWebhookUrl: 'No webhook URL yet.',

  secretTitle: 'Signing secret',
  secretIntro: 'Your server checks each webhook’s signature with this secret.',
  reveal: 'Reveal secret',
  currentSecret: 'Current secret',
  nextSecret: 'New secret (after rotation)',
  secretNote: 'Keep it on your server only. It is shown because you asked; reload the page to hide it.',
  rotate: 'Rotate secret',
  rotateConfirm:
    'Rotating creates a new secret. For 24 hours both are accepted: each webhook is signed with both, so you can update your server without losing any event. Then only the new one works.',
  rotated: 'A new secret is created. Reveal it and update your server within 24 hours.',
  rotationLeft:
    'Rotation in progress: the old secret is accepted for {hours} h {minutes} min more (until {until, date, zoned}).',
  viewerNoSecret: 'Only the owner and admins can see and rotate the signing secret.',

  testTitle: 'Send a test event',
  testIntro:
    'Sends a signed sample transaction.status.updated event to the webhook URL now and shows what your server answered.',
  sendTest: 'Send a test event',
  testNeedsUrl: 'Set a webhook URL first.',
  testResultTitle: 'Test event result',
  testDelivered: 'Delivered: your server accepted the event.',
  testNotDelivered: 'Not delivered.',
  testStatus: 'Status',
  testNoStatus: 'No answer',
  testSentAt: 'Sent at',
  testDuration: '{ms, number} ms',
  testAnswer: 'Start of the answer',
  testNoAnswer: '(empty)',
  testError: 'Error',

  processorsLink: 'Processors of this domain',
};

const hy: Catalog<DomainsMessages> = {
  title: 'Դոմեններ',
  intro:
    'Կայքերը, որոնցում ընդունում եք վճարումներ։ Իրական վճարումներն ընդունվում են միայն հաստատված դոմենում. յուրաքանչյուր դոմեն ունի իր վեբհուքի հասցեն և ստորագրման գաղտնի բանալին։',
  host: 'Դոմեն',
  kind: 'Տեսակ',
  status: 'Հաստատում',
  webhook: 'Վեբհուքի հասցե',
  hostedBadge: 'Դարպասի կողմից տրամադրված',
  ownBadge: 'Ձեր կայքը',
  verified: 'Հաստատված է',
  notVerified: 'Հաստատված չէ',
  webhookSet: 'Նշված է',
  webhookNotSet: 'Նշված չէ',
  open: 'Բացել {host}',
  hostedExplain:
    'Տրամադրված դոմենը դարպասի սեփական հասցեն է ձեր հաշվի համար. թեստային վճարումները, որոնք ձեր դոմեններից ոչ մեկը չեն նշում, օգտագործում են այն, և այն միշտ առաջարկում է թեստային քարտերը։ Այն արդեն հաստատված է և ձեզնից ոչինչ չի պահանջում։',

  addTitle: 'Ավելացնել դոմեն',
  addHint: 'Ձեր կայքի դոմենային անունը, օրինակ՝ shop.example.am (առանց https://, առանց ուղու)։',
  addButton: 'Ավելացնել դոմենը',
  hostRequired: 'Մուտքագրեք դոմենային անուն։',
  hostNeverVerifiable:
    'localhost-ը և IP հասցեները երբեք չեն կարող հաստատվել. ավելացրեք այն դոմենային անունը, որն այցելում են ձեր հաճախորդները։',
  hostInvalid: 'Սա վավեր դոմենային անուն չէ։ Գրեք այսպես՝ shop.example.am, առանց https:// և ուղու։',
  hostSingleLabel: 'Գրեք ամբողջական դոմենային անունը՝ կետով (օրինակ՝ shop.example.am)։',
  hostDuplicate: '{host} դոմենն արդեն ձեր դոմեններից է։',
  added: '{host} դոմենն ավելացված է։ Հաստատեք այն՝ իրական վճարումներ ընդունելու համար։',

  back: 'Բոլոր դոմենները',
  verificationTitle: 'Հաստատում',
  verifiedBy: 'Հաստատված է ({method})։',
  verifiedOn: 'Հաստատվել է {at, date, datetime} ({method})։',
  methodNames: { dns: 'DNS գրառում', https: 'HTTPS ֆայլ', operator: 'օպերատորի կողմից', hosted: 'տրամադրված դոմեն' },
  notVerifiedYet: 'Դեռ հաստատված չէ։',
  verifyIntro:
    'Ապացուցեք, որ դոմենը ձերն է երկու եղանակից մեկով՝ հրապարակեք DNS TXT գրառում կամ HTTPS-ով մատուցեք փոքր ֆայլ։ Ապա սեղմեք համապատասխան կոճակը։',
  token: 'Ձեր հաստատման նշանը',
  dnsTitle: 'DNS գրառումով',
  dnsHint: 'Ավելացրեք այս TXT գրառումը ձեր DNS մատակարարի մոտ։ Նոր գրառումները կարող են երևալ մի քանի րոպեից։',
  recordName: 'Անուն',
  recordType: 'Տեսակ',
  recordValue: 'Արժեք',
  fileTitle: 'HTTPS ֆայլով',
  fileHint: 'Մատուցեք այս տեքստը որպես ֆայլի ամբողջ պարունակություն՝ HTTPS-ով, վավեր վկայագրով, առանց վերահղումների։',
  fileUrl: 'Ֆայլի հասցե',
  fileContent: 'Ֆայլի պարունակություն',
  checkDns: 'Ստուգել DNS գրառումը',
  checkFile: 'Ստուգել ֆայլը',
  checkedFailed: 'Վերջին ստուգումը ({method}, {at, date, datetime}) չհաստատեց դոմենը։',
  failures: {
    dns_no_record: 'Նշված անունով TXT գրառում չգտնվեց։ Ավելացրեք այն, սպասեք մի քանի րոպե և նորից ստուգեք։',
    dns_wrong_value: 'TXT գրառում կա, բայց ոչ մեկը չունի նշված ճշգրիտ արժեքը։ Ուղղեք այն և նորից ստուգեք։',
    dns_timeout: 'DNS սերվերները ժամանակին չպատասխանեցին։ Մի փոքր անց նորից ստուգեք։',
    dns_servfail: 'Դոմենի DNS սերվերները պատասխանեցին սխալով (SERVFAIL)։ Ստուգեք ձեր DNS մատակարարը։',
    dns_error: 'DNS հարցումը ձախողվեց։ Մի փոքր անց նորից ստուգեք։',
    https_not_found: 'Ֆայլը նշված հասցեում չգտնվեց։',
    https_redirect: 'Ֆայլի հասցեն պատասխանեց վերահղումով. մատուցեք ֆայլն անմիջապես այնտեղ։',
    https_wrong_content: 'Ֆայլը գտնվեց, բայց դրա պարունակությունը ճշգրտորեն նշված արժեքը չէ։',
    https_too_large: 'Ֆայլը չափազանց մեծ է. այն պետք է պարունակի միայն նշված արժեքը։',
    https_tls_error: 'Կայքի HTTPS վկայագիրը վստահելի չէ։',
    https_private_address: 'Դոմենը ցույց է տալիս մասնավոր հասցե, որի հետ դարպասը երբեք չի կապվում։',
    https_timeout: 'Կայքը ժամանակին չպատասխանեց։',
    https_unreachable: 'Կայքը հասանելի չէ։',
    taken: 'Այս դոմենն արդեն հաստատված է այլ հաշվի համար։ Դիմեք աջակցությանը, եթե այն ձերն է։',
  },
  detail: 'Մանրամասներ',
  verifiedNow: '{host} դոմենը հաստատված է։ Այժմ կարող եք դրանում ընդունել իրական վճարումներ։',
  hostedTitle: 'Ձեր տրամադրված դոմենը',
  neverVerifiable: 'localhost-ը և IP հասցեները երբեք չեն կարող հաստատվել։',

  webhookTitle: 'Վեբհուքներ',
  webhookIntro: 'Դարպասն այս դոմենի ստորագրված վճարային իրադարձություններն ուղարկում է այս հասցեին։',
  webhookUrl: 'Վեբհուքի հասցե',
  webhookUrlHint: 'Ձեր սերվերի https:// հասցեն, որն ընդունում է իրադարձությունները։',
  saveUrl: 'Պահպանել վեբհուքի հասցեն',
  urlRequired: 'Մուտքագրեք իրադարձություններն ընդունող հասցեն։',
  urlInvalid: 'Սա վավեր հասցե չէ։ Գրեք այսպես՝ https://shop.example.am/webhooks։',
  urlNotHttp: 'Հասցեն պետք է սկսվի https://-ով (կամ http://-ով)։',
  urlPrivate: 'Այս հասցեն մասնավոր է (localhost կամ մասնավոր ցանց). վեբհուքներն այնտեղ երբեք չեն առաքվում։',
  urlSaved: 'Վեբհուքի հասցեն պահպանված է։',
  noWebhookUrl: 'Վեբհուքի հասցե դեռ չկա։',

  secretTitle: 'Ստորագրման գաղտնի բանալի',
  secretIntro: 'Ձեր սերվերը յուրաքանչյուր վեբհուքի ստորագրությունը ստուգում է այս բանալիով։',
  reveal: 'Ցույց տալ բանալին',
  currentSecret: 'Ընթացիկ բանալի',
  nextSecret: 'Նոր բանալի (փոխարինումից հետո)',
  secretNote: 'Պահեք այն միայն ձեր սերվերում։ Այն ցուցադրված է ձեր խնդրանքով. վերաբեռնեք էջը՝ թաքցնելու համար։',
  rotate: 'Փոխարինել բանալին',
  rotateConfirm:
    'Փոխարինումը ստեղծում է նոր բանալի։ 24 ժամ ընդունվում են երկուսն էլ. յուրաքանչյուր վեբհուք ստորագրվում է երկուսով, որպեսզի կարողանաք թարմացնել ձեր սերվերը՝ առանց իրադարձություն կորցնելու։ Հետո աշխատում է միայն նորը։',
  rotated: 'Նոր բանալի է ստեղծված։ Ցույց տվեք այն և թարմացրեք ձեր սերվերը 24 ժամվա ընթացքում։',
  rotationLeft:
    'Փոխարինումն ընթացքի մեջ է. հին բանալին ընդունվում է ևս {hours} ժ {minutes} ր (մինչև {until, date, zoned})։',
  viewerNoSecret: 'Ստորագրման բանալին տեսնել և փոխարինել կարող են միայն սեփականատերը և ադմինները։',

  testTitle: 'Ուղարկել թեստային իրադարձություն',
  testIntro:
    'Հիմա ուղարկում է ստորագրված transaction.status.updated նմուշային իրադարձություն վեբհուքի հասցեին և ցույց է տալիս ձեր սերվերի պատասխանը։',
  sendTest: 'Ուղարկել թեստային իրադարձություն',
  testNeedsUrl: 'Նախ նշեք վեբհուքի հասցե։',
  testResultTitle: 'Թեստային իրադարձության արդյունքը',
  testDelivered: 'Առաքված է. ձեր սերվերն ընդունեց իրադարձությունը։',
  testNotDelivered: 'Չառաքվեց։',
  testStatus: 'Կարգավիճակ',
  testNoStatus: 'Պատասխան չկա',
  testSentAt: 'Ուղարկման ժամը',
  testDuration: '{ms, number} մվ',
  testAnswer: 'Պատասխանի սկիզբը',
  testNoAnswer: '(դատարկ)',
  testError: 'Սխալ',

  processorsLink: 'Այս դոմենի վճարային համակարգերը',
};

const ru: Catalog<DomainsMessages> = {
  title: 'Домены',
  intro:
    'Сайты, на которых вы принимаете платежи. Боевые платежи принимаются только на подтверждённом домене; у каждого домена свой адрес вебхука и свой секрет подписи.',
  host: 'Домен',
  kind: 'Вид',
  status: 'Подтверждение',
  webhook: 'Адрес вебхука',
  hostedBadge: 'Предоставлен шлюзом',
  ownBadge: 'Ваш сайт',
  verified: 'Подтверждён',
  notVerified: 'Не подтверждён',
  webhookSet: 'Задан',
  webhookNotSet: 'Не задан',
  open: 'Открыть {host}',
  hostedExplain:
    'Предоставленный домен — собственный адрес шлюза для вашего аккаунта: его используют тестовые платежи, не указавшие ни один из ваших доменов, и на нём всегда доступны тестовые карты. Он уже подтверждён и ничего от вас не требует.',

  addTitle: 'Добавить домен',
  addHint: 'Доменное имя вашего сайта, например shop.example.am (без https:// и без пути).',
  addButton: 'Добавить домен',
  hostRequired: 'Введите доменное имя.',
  hostNeverVerifiable:
    'localhost и IP-адреса никогда не могут быть подтверждены: добавьте доменное имя, которое открывают ваши покупатели.',
  hostInvalid: 'Это не доменное имя. Напишите его так: shop.example.am, без https:// и без пути.',
  hostSingleLabel: 'Напишите полное доменное имя, с точкой (например, shop.example.am).',
  hostDuplicate: '{host} уже есть среди ваших доменов.',
  added: '{host} добавлен. Подтвердите его, чтобы принимать на нём боевые платежи.',

  back: 'Все домены',
  verificationTitle: 'Подтверждение',
  verifiedBy: 'Подтверждён ({method}).',
  verifiedOn: 'Подтверждён {at, date, datetime} ({method}).',
  methodNames: { dns: 'запись DNS', https: 'файл HTTPS', operator: 'оператором', hosted: 'предоставленный домен' },
  notVerifiedYet: 'Ещё не подтверждён.',
  verifyIntro:
    'Докажите, что домен ваш, одним из двух способов: опубликуйте TXT-запись в DNS или отдайте небольшой файл по HTTPS. Затем нажмите соответствующую кнопку.',
  token: 'Ваш код подтверждения',
  dnsTitle: 'Записью DNS',
  dnsHint: 'Добавьте эту TXT-запись у вашего DNS-провайдера. Новые записи могут появиться через несколько минут.',
  recordName: 'Имя',
  recordType: 'Тип',
  recordValue: 'Значение',
  fileTitle: 'Файлом по HTTPS',
  fileHint:
    'Отдавайте этот текст как всё содержимое файла, по HTTPS с действительным сертификатом, без перенаправлений.',
  fileUrl: 'Адрес файла',
  fileContent: 'Содержимое файла',
  checkDns: 'Проверить запись DNS',
  checkFile: 'Проверить файл',
  checkedFailed: 'Последняя проверка ({method}, {at, date, datetime}) не подтвердила домен:',
  failures: {
    dns_no_record:
      'TXT-запись с указанным именем не найдена. Добавьте её, подождите несколько минут и проверьте снова.',
    dns_wrong_value:
      'TXT-запись есть, но ни одна не содержит точно указанное значение. Исправьте её и проверьте снова.',
    dns_timeout: 'DNS-серверы не ответили вовремя. Проверьте снова чуть позже.',
    dns_servfail: 'DNS-серверы домена ответили ошибкой (SERVFAIL). Проверьте настройки у DNS-провайдера.',
    dns_error: 'Запрос DNS не удался. Проверьте снова чуть позже.',
    https_not_found: 'Файл не найден по указанному адресу.',
    https_redirect: 'Адрес файла ответил перенаправлением; отдавайте файл прямо по этому адресу.',
    https_wrong_content: 'Файл найден, но его содержимое не совпадает в точности с указанным значением.',
    https_too_large: 'Файл слишком большой: в нём должно быть только указанное значение.',
    https_tls_error: 'HTTPS-сертификату сайта нельзя доверять.',
    https_private_address: 'Домен указывает на частный адрес, к которому шлюз никогда не обращается.',
    https_timeout: 'Сайт не ответил вовремя.',
    https_unreachable: 'Сайт недоступен.',
    taken: 'Этот домен уже подтверждён для другого аккаунта. Если он ваш, обратитесь в поддержку.',
  },
  detail: 'Подробности',
  verifiedNow: '{host} подтверждён. Теперь на нём можно принимать боевые платежи.',
  hostedTitle: 'Ваш предоставленный домен',
  neverVerifiable: 'localhost и IP-адреса никогда не могут быть подтверждены.',

  webhookTitle: 'Вебхуки',
  webhookIntro: 'Шлюз отправляет подписанные события платежей этого домена на этот адрес.',
  webhookUrl: 'Адрес вебхука',
  webhookUrlHint: 'Адрес https:// вашего сервера, принимающего события.',
  saveUrl: 'Сохранить адрес вебхука',
  urlRequired: 'Введите адрес, принимающий события.',
  urlInvalid: 'Это не адрес. Напишите его так: https://shop.example.am/webhooks.',
  urlNotHttp: 'Адрес должен начинаться с https:// (или http://).',
  urlPrivate: 'Это частный адрес (localhost или частная сеть): вебхуки туда никогда не доставляются.',
  urlSaved: 'Адрес вебхука сохранён.',
  noWebhookUrl: 'Адрес вебхука ещё не задан.',

  secretTitle: 'Секрет подписи',
  secretIntro: 'Ваш сервер проверяет подпись каждого вебхука этим секретом.',
  reveal: 'Показать секрет',
  currentSecret: 'Текущий секрет',
  nextSecret: 'Новый секрет (после замены)',
  secretNote: 'Храните его только на своём сервере. Он показан по вашему запросу; обновите страницу, чтобы скрыть его.',
  rotate: 'Заменить секрет',
  rotateConfirm:
    'Замена создаёт новый секрет. 24 часа принимаются оба: каждый вебхук подписывается обоими, чтобы вы успели обновить сервер, не потеряв ни одного события. Затем работает только новый.',
  rotated: 'Новый секрет создан. Покажите его и обновите свой сервер в течение 24 часов.',
  rotationLeft: 'Идёт замена: старый секрет принимается ещё {hours} ч {minutes} мин (до {until, date, zoned}).',
  viewerNoSecret: 'Видеть и заменять секрет подписи могут только владелец и администраторы.',

  testTitle: 'Отправить тестовое событие',
  testIntro:
    'Сейчас отправит подписанный образец события transaction.status.updated на адрес вебхука и покажет ответ вашего сервера.',
  sendTest: 'Отправить тестовое событие',
  testNeedsUrl: 'Сначала задайте адрес вебхука.',
  testResultTitle: 'Результат тестового события',
  testDelivered: 'Доставлено: ваш сервер принял событие.',
  testNotDelivered: 'Не доставлено.',
  testStatus: 'Статус',
  testNoStatus: 'Нет ответа',
  testSentAt: 'Отправлено',
  testDuration: '{ms, number} мс',
  testAnswer: 'Начало ответа',
  testNoAnswer: '(пусто)',
  testError: 'Ошибка',

  processorsLink: 'Платёжные системы этого домена',
};

export const DOMAINS_MESSAGES = defineMessages<DomainsMessages>(
  'dashboard.domains',
  { en, hy, ru },
  {
    open: ['host'],
    hostDuplicate: ['host'],
    added: ['host'],
    verifiedBy: ['method'],
    verifiedOn: ['method', 'at'],
    checkedFailed: ['method', 'at'],
    verifiedNow: ['host'],
    rotationLeft: ['hours', 'minutes', 'until'],
    testDuration: ['ms'],
  },
);
