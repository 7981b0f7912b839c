/**
 * The names buyers and merchants read for each payment method (one per processor), in each
 * language: the descriptive part translated, the brand kept as the brand writes it. A name stands
 * alone (a list item, a table cell, after a colon), never inside a sentence that would have to
 * decline it. A processor without a name here shows its adapter's `displayName`.
 */
import type { Language } from './languages.js';
import { type Catalog, defineMessages } from './messages.js';

export interface MethodNames {
  readonly sandbox: string;
  readonly ameria: string;
  readonly arca: string;
  readonly idram: string;
  readonly telcell: string;
  readonly fastshift: string;
}

const en: Catalog<MethodNames> = {
  sandbox: 'Test card (sandbox)',
  ameria: 'Bank card (Ameriabank)',
  arca: 'Bank card (ArCa)',
  idram: 'Idram',
  telcell: 'Telcell Wallet',
  fastshift: 'FastShift wallet',
};

const hy: Catalog<MethodNames> = {
  sandbox: 'Թեստային քարտ',
  ameria: 'Բանկային քարտ (Ամերիաբանկ)',
  arca: 'Բանկային քարտ (ԱրՔա)',
  idram: 'Idram',
  telcell: 'Telcell դրամապանակ',
  fastshift: 'FastShift դրամապանակ',
};

const ru: Catalog<MethodNames> = {
  sandbox: 'Тестовая карта',
  ameria: 'Банковская карта (Америабанк)',
  arca: 'Банковская карта (ArCa)',
  idram: 'Idram',
  telcell: 'Кошелёк Telcell',
  fastshift: 'Кошелёк FastShift',
};

export const METHOD_NAMES = defineMessages<MethodNames>('methodNames', { en, hy, ru }, {});

/** The name of the method of processor `slug` in `language`; `fallback` for a processor not named here. */
export function methodName(language: Language, slug: string, fallback: string = slug): string {
  const names = METHOD_NAMES[language] as unknown as Readonly<Record<string, string>>;
  return Object.hasOwn(names, slug) ? (names[slug] ?? fallback) : fallback;
}
