/** The texts of the business verification page, in English, Armenian and Russian. */

import { type Catalog, defineMessages } from '../../i18n/messages.js';
import type { BusinessProblem, BusinessStatus } from '../../merchants/business-verification.service.js';

export interface BusinessMessages {
  readonly title: string;
  readonly intro: string;
  readonly statusTitle: string;
  readonly statusLabel: Readonly<Record<BusinessStatus, string>>;
  readonly notSubmittedText: string;
  readonly pendingText: (date: string) => string;
  readonly verifiedText: string;
  readonly rejectedText: string;
  readonly reason: string;
  readonly formTitle: string;
  readonly resubmitTitle: string;
  readonly legalName: string;
  readonly legalNameHint: string;
  readonly tin: string;
  readonly tinHint: string;
  readonly address: string;
  readonly addressHint: string;
  readonly phone: string;
  readonly phoneHint: string;
  readonly documents: string;
  readonly documentsHint: string;
  readonly send: string;
  readonly submitted: string;
  readonly detailsTitle: string;
  readonly submittedAt: string;
  readonly decidedAt: string;
  readonly documentsTitle: string;
  readonly fileName: string;
  readonly fileType: string;
  readonly fileSize: string;
  readonly noDocuments: string;
  readonly viewerNote: string;
  readonly refusedPending: string;
  readonly refusedVerified: string;
  readonly problems: Readonly<Record<BusinessProblem, string>>;
  readonly kilobytes: (n: string) => string;
  readonly megabytes: (n: string) => string;
}

const en: Catalog<BusinessMessages> = {
  title: 'Business verification',
  intro:
    'Live keys and live payments need a verified business. Send the details of your company and the documents that show them; the service checks them and emails you the answer.',
  statusTitle: 'Status',
  statusLabel: { not_submitted: 'Not sent', pending: 'Being checked', verified: 'Verified', rejected: 'Rejected' },
  notSubmittedText: 'Your business is not verified yet. Fill in the form below to ask for verification.',
  pendingText: 'We received your request on {date} and are checking it. We will email you the answer.',
  verifiedText: 'Your business is verified: you can create live keys and take live payments.',
  rejectedText: 'We could not verify your business. Correct what the reason says and send the form again.',
  reason: 'Reason',
  formTitle: 'Your business',
  resubmitTitle: 'Send the corrected details',
  legalName: 'Legal name',
  legalNameHint: 'As in the state register, up to 200 characters.',
  tin: 'Tax id (TIN)',
  tinHint: '8 digits.',
  address: 'Legal address',
  addressHint: 'As in the state register.',
  phone: 'Contact phone',
  phoneHint: 'An Armenian number: +374 and 8 digits, for example +374 10 123456.',
  documents: 'Documents',
  documentsHint:
    'The state register extract, and anything else that shows the details above. PDF, PNG or JPEG; up to 5 files, 5 MB each, 15 MB in all.',
  send: 'Send for verification',
  submitted: 'Your request is sent. We will email you once it is checked.',
  detailsTitle: 'Details sent',
  submittedAt: 'Sent on',
  decidedAt: 'Checked on',
  documentsTitle: 'Documents',
  fileName: 'File',
  fileType: 'Type',
  fileSize: 'Size',
  noDocuments: 'No documents.',
  viewerNote: 'Only the owner or an admin can send the form and download the documents.',
  refusedPending: 'A request is already being checked: you can send another one once it is answered.',
  refusedVerified: 'Your business is already verified.',
  problems: {
    required: 'Fill this in.',
    too_long: 'This is too long.',
    tin_format: 'A TIN is exactly 8 digits.',
    phone_format: 'Enter +374 and 8 digits, for example +374 10 123456.',
    documents_required: 'Add at least one document.',
    document_type: 'Only PDF, PNG and JPEG files are accepted (checked from the file itself, not its name).',
    document_empty: 'A file is empty.',
    document_too_large: 'Each file may be at most 5 MB.',
    too_many_documents: 'Send at most 5 files.',
    documents_too_large: 'All files together may be at most 15 MB.',
    upload_broken: 'The files did not arrive whole. Choose them again and send the form again.',
  },
  kilobytes: '{n} KB',
  megabytes: '{n} MB',
};

const hy: Catalog<BusinessMessages> = {
  title: 'Բիզնեսի հաստատում',
  intro:
    'Իրական բանալիների և իրական վճարումների համար անհրաժեշտ է հաստատված բիզնես։ Ուղարկեք ձեր ընկերության տվյալները և դրանք հավաստող փաստաթղթերը. ծառայությունը կստուգի դրանք և պատասխանը կուղարկի ձեզ էլ. փոստով։',
  statusTitle: 'Կարգավիճակ',
  statusLabel: {
    not_submitted: 'Չի ուղարկվել',
    pending: 'Ստուգվում է',
    verified: 'Հաստատված է',
    rejected: 'Մերժված է',
  },
  notSubmittedText: 'Ձեր բիզնեսը դեռ հաստատված չէ։ Լրացրեք ստորև ձևը՝ հաստատում խնդրելու համար։',
  pendingText: 'Ձեր հայտը ստացվել է՝ {date}։ Մենք ստուգում ենք այն և պատասխանը կուղարկենք էլ. փոստով։',
  verifiedText: 'Ձեր բիզնեսը հաստատված է. կարող եք ստեղծել իրական բանալիներ և ընդունել իրական վճարումներ։',
  rejectedText: 'Չկարողացանք հաստատել ձեր բիզնեսը։ Ուղղեք պատճառում նշվածը և կրկին ուղարկեք ձևը։',
  reason: 'Պատճառ',
  formTitle: 'Ձեր բիզնեսը',
  resubmitTitle: 'Ուղարկեք ուղղված տվյալները',
  legalName: 'Իրավաբանական անվանում',
  legalNameHint: 'Ինչպես պետական ռեգիստրում է, մինչև 200 նիշ։',
  tin: 'ՀՎՀՀ',
  tinHint: '8 թվանշան։',
  address: 'Իրավաբանական հասցե',
  addressHint: 'Ինչպես պետական ռեգիստրում է։',
  phone: 'Կոնտակտային հեռախոս',
  phoneHint: 'Հայաստանի համար. +374 և 8 թվանշան, օրինակ՝ +374 10 123456։',
  documents: 'Փաստաթղթեր',
  documentsHint:
    'Պետական ռեգիստրի քաղվածքը և այլ փաստաթղթեր, որոնք հավաստում են վերը նշված տվյալները։ PDF, PNG կամ JPEG. մինչև 5 ֆայլ, յուրաքանչյուրը՝ մինչև 5 ՄԲ, ընդհանուրը՝ մինչև 15 ՄԲ։',
  send: 'Ուղարկել հաստատման',
  submitted: 'Ձեր հայտն ուղարկված է։ Ստուգելուց հետո կտեղեկացնենք էլ. փոստով։',
  detailsTitle: 'Ուղարկված տվյալներ',
  submittedAt: 'Ուղարկվել է',
  decidedAt: 'Ստուգվել է',
  documentsTitle: 'Փաստաթղթեր',
  fileName: 'Ֆայլ',
  fileType: 'Տեսակ',
  fileSize: 'Չափ',
  noDocuments: 'Փաստաթղթեր չկան։',
  viewerNote: 'Ձևն ուղարկել և փաստաթղթերը ներբեռնել կարող են միայն սեփականատերը կամ ադմինիստրատորը։',
  refusedPending: 'Մեկ հայտ արդեն ստուգվում է. նորը կարող եք ուղարկել պատասխանը ստանալուց հետո։',
  refusedVerified: 'Ձեր բիզնեսն արդեն հաստատված է։',
  problems: {
    required: 'Լրացրեք այս դաշտը։',
    too_long: 'Չափազանց երկար է։',
    tin_format: 'ՀՎՀՀ-ն ուղիղ 8 թվանշան է։',
    phone_format: 'Մուտքագրեք +374 և 8 թվանշան, օրինակ՝ +374 10 123456։',
    documents_required: 'Ավելացրեք առնվազն մեկ փաստաթուղթ։',
    document_type: 'Ընդունվում են միայն PDF, PNG և JPEG ֆայլեր (ստուգվում է ֆայլի բովանդակությունը, ոչ թե անունը)։',
    document_empty: 'Ֆայլերից մեկը դատարկ է։',
    document_too_large: 'Յուրաքանչյուր ֆայլ կարող է լինել առավելագույնը 5 ՄԲ։',
    too_many_documents: 'Ուղարկեք առավելագույնը 5 ֆայլ։',
    documents_too_large: 'Բոլոր ֆայլերը միասին կարող են լինել առավելագույնը 15 ՄԲ։',
    upload_broken: 'Ֆայլերն ամբողջությամբ չհասան։ Ընտրեք դրանք նորից և կրկին ուղարկեք ձևը։',
  },
  kilobytes: '{n} ԿԲ',
  megabytes: '{n} ՄԲ',
};

const ru: Catalog<BusinessMessages> = {
  title: 'Проверка компании',
  intro:
    'Для боевых ключей и настоящих платежей нужна проверенная компания. Отправьте данные компании и подтверждающие их документы: сервис проверит их и пришлёт ответ по электронной почте.',
  statusTitle: 'Статус',
  statusLabel: { not_submitted: 'Не отправлено', pending: 'На проверке', verified: 'Проверено', rejected: 'Отклонено' },
  notSubmittedText: 'Ваша компания ещё не проверена. Заполните форму ниже, чтобы запросить проверку.',
  pendingText: 'Мы получили вашу заявку {date} и проверяем её. Ответ придёт по электронной почте.',
  verifiedText: 'Ваша компания проверена: можно создавать боевые ключи и принимать настоящие платежи.',
  rejectedText: 'Нам не удалось проверить вашу компанию. Исправьте то, что указано в причине, и отправьте форму снова.',
  reason: 'Причина',
  formTitle: 'Ваша компания',
  resubmitTitle: 'Отправьте исправленные данные',
  legalName: 'Юридическое название',
  legalNameHint: 'Как в государственном реестре, до 200 символов.',
  tin: 'ИНН (ՀՎՀՀ)',
  tinHint: '8 цифр.',
  address: 'Юридический адрес',
  addressHint: 'Как в государственном реестре.',
  phone: 'Контактный телефон',
  phoneHint: 'Армянский номер: +374 и 8 цифр, например +374 10 123456.',
  documents: 'Документы',
  documentsHint:
    'Выписка из государственного реестра и другие документы, подтверждающие данные выше. PDF, PNG или JPEG; до 5 файлов, каждый до 5 МБ, всего до 15 МБ.',
  send: 'Отправить на проверку',
  submitted: 'Заявка отправлена. Мы сообщим по электронной почте, когда проверим её.',
  detailsTitle: 'Отправленные данные',
  submittedAt: 'Отправлено',
  decidedAt: 'Проверено',
  documentsTitle: 'Документы',
  fileName: 'Файл',
  fileType: 'Тип',
  fileSize: 'Размер',
  noDocuments: 'Документов нет.',
  viewerNote: 'Отправить форму и скачать документы могут только владелец или администратор.',
  refusedPending: 'Одна заявка уже на проверке: новую можно отправить после ответа.',
  refusedVerified: 'Ваша компания уже проверена.',
  problems: {
    required: 'Заполните это поле.',
    too_long: 'Слишком длинно.',
    tin_format: 'ИНН состоит ровно из 8 цифр.',
    phone_format: 'Введите +374 и 8 цифр, например +374 10 123456.',
    documents_required: 'Добавьте хотя бы один документ.',
    document_type: 'Принимаются только файлы PDF, PNG и JPEG (проверяется содержимое файла, а не его имя).',
    document_empty: 'Один из файлов пуст.',
    document_too_large: 'Каждый файл — не больше 5 МБ.',
    too_many_documents: 'Отправьте не больше 5 файлов.',
    documents_too_large: 'Все файлы вместе — не больше 15 МБ.',
    upload_broken: 'Файлы дошли не целиком. Выберите их заново и отправьте форму ещё раз.',
  },
  kilobytes: '{n} КБ',
  megabytes: '{n} МБ',
};

export const BUSINESS_MESSAGES = defineMessages<BusinessMessages>(
  'dashboard.business',
  { en, hy, ru },
  {
    pendingText: ['date'],
    kilobytes: ['n'],
    megabytes: ['n'],
  },
);
