/**
 * Every catalog of the service's pages and mails, as the message tests read them: importing this
 * module defines them all (gateway/i18n/messages.ts records each), and its helpers name each
 * message `area.path` and read its ICU syntax tree.
 */
import { LANGUAGES, type Language } from '../../../gateway/i18n/languages.js';
import { compileMessage, recordedCatalogs } from '../../../gateway/i18n/messages.js';
// Each module below defines its catalogs when imported.
import '../../../gateway/billing/auto-topup.service.js';
import '../../../gateway/checkout/i18n/index.js';
import '../../../gateway/dashboard/i18n/index.js';
import '../../../gateway/dashboard/api-keys/messages.js';
import '../../../gateway/dashboard/audit/messages.js';
import '../../../gateway/dashboard/billing/messages.js';
import '../../../gateway/dashboard/business/messages.js';
import '../../../gateway/dashboard/connect-tokens/messages.js';
import '../../../gateway/dashboard/customers/messages.js';
import '../../../gateway/dashboard/demo/messages.js';
import '../../../gateway/dashboard/domains/messages.js';
import '../../../gateway/dashboard/overview/messages.js';
import '../../../gateway/dashboard/payment-detail/hold.messages.js';
import '../../../gateway/dashboard/payment-detail/messages.js';
import '../../../gateway/dashboard/payment-links/messages.js';
import '../../../gateway/dashboard/payments/messages.js';
import '../../../gateway/dashboard/processors/messages.js';
import '../../../gateway/dashboard/team/messages.js';
import '../../../gateway/dashboard/two-factor/messages.js';
import '../../../gateway/i18n/method-names.js';
import '../../../gateway/notifications/delivery-failure-email.js';
import '../../../gateway/payment-links/buyer-messages.js';
import '../../../gateway/receipts/receipt-page.js';

export type Leaf = readonly [path: string, text: string];

function leaves(node: unknown, path = ''): Leaf[] {
  if (typeof node === 'string') return [[path, node]];
  if (Array.isArray(node)) return node.flatMap((item, i) => leaves(item, `${path}[${i}]`));
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) =>
    leaves(value, path === '' ? key : `${path}.${key}`),
  );
}

export const CATALOGS = recordedCatalogs().map((recorded) => ({
  area: recorded.area,
  texts: Object.fromEntries(
    LANGUAGES.map((language) => [language, new Map(leaves(recorded.catalogs[language]))]),
  ) as Record<Language, Map<string, string>>,
}));

/** Every message of `language`, named `area.path`. */
export function messagesOf(language: Language): Leaf[] {
  return CATALOGS.flatMap(({ area, texts }) =>
    [...texts[language]].map(([path, text]) => [`${area}.${path}`, text] as const),
  );
}

// ICU element types (see @formatjs/icu-messageformat-parser): 1 argument, 2 number, 3 date, 5 select, 6 plural.
export interface AstNode {
  readonly type: number;
  readonly value?: string;
  readonly style?: unknown;
  readonly options?: Record<string, { readonly value: readonly AstNode[] }>;
}

function nodes(ast: readonly AstNode[]): AstNode[] {
  return ast.flatMap((node) => [node, ...Object.values(node.options ?? {}).flatMap((option) => nodes(option.value))]);
}

export function astOf(language: Language, text: string): AstNode[] {
  return nodes(compileMessage(language, text).getAst() as unknown as AstNode[]);
}

/** Values for every argument of a message: `n` for `plural`, others plain samples. */
export function sampleValues(
  ast: readonly AstNode[],
  plural: string | null,
  n: number,
): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const node of ast) {
    if (node.value === undefined || node.type === 0) continue;
    if (node.value === plural) values[node.value] = n;
    else if (node.type === 6 || node.type === 2) values[node.value] ??= 3;
    else if (node.type === 3) values[node.value] ??= '2026-03-05T14:00:00Z';
    else if (node.type === 5) values[node.value] ??= 'transactions';
    else values[node.value] ??= node.value.toUpperCase();
  }
  return values;
}
