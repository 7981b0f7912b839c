/**
 * A fake Shopify Admin GraphQL API for one shop: a real HTTP server on 127.0.0.1 answering
 * `POST /admin/api/<version>/graphql.json` as Shopify does. Every document is parsed, validated and
 * executed with graphql-js against Shopify's published Admin schema of the version served
 * (test/support/shopify-schemas.ts): a document Shopify would refuse (a field the type does not have,
 * a directive the version does not know, a variable of the wrong type) is answered HTTP 200 with
 * `errors` and no `data`, and an accepted one gets exactly the fields it selected, under its aliases,
 * from the fake's own orders (`shop`, `order`, `orders`, `metafieldsSet`, `orderMarkAsPaid`,
 * `orderUpdate`, `refundCreate`, `tagsAdd`), in Shopify's shapes (`data`, `errors`,
 * `extensions.cost`; money as `Decimal` strings "12000.0"; ids as `gid://shopify/<Type>/<n>`).
 *
 * Versions: every answer carries the version served in `X-Shopify-API-Version`; a stable version
 * older than the oldest served is served by that oldest one (Shopify "falls forward"), an unknown one
 * is 404 `{"errors":"Not Found"}`.
 *
 * It refuses what Shopify refuses:
 * - a missing or wrong `X-Shopify-Access-Token`: 401 with Shopify's string `errors`
 *   (test/fixtures/shopify/admin/unauthorized.json);
 * - `orderMarkAsPaid` on an order with no outstanding balance or already PAID: `userErrors`;
 * - `refundCreate` above the refundable amount, without a SALE/CAPTURE parent, or (from 2026-04)
 *   without `@idempotent(key:)`; a key used again answers the first refund (Shopify's replay);
 * - `metafieldsSet` with a namespace or key outside Shopify's lengths; `orderUpdate` with a note over
 *   5000 characters.
 * Failures can be injected (THROTTLED, any HTTP status, delays) for the next requests, and every
 * request is recorded. `moneyMoved` counts refunds made against a transaction that is not a manual
 * gateway's: in a real shop those would reach a payment provider.
 */

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GraphQLResolveInfo } from 'graphql';
import { SUPPORTED_API_VERSIONS } from '../../plugins/shopify/api-versions.js';
import { runShopifyGraphql, shopifySchema } from './shopify-schemas.js';

export const FAKE_SHOP = 'example-shop.myshopify.com';
/** The stable versions served by default (each with its published schema), oldest first. */
export const SUPPORTED_VERSIONS: readonly string[] = SUPPORTED_API_VERSIONS;
const MAX_NOTE = 5000;

const FIXTURES = new URL('../fixtures/shopify/admin/', import.meta.url);
function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
}

export interface FakeTransaction {
  id: number;
  kind: 'SALE' | 'CAPTURE' | 'AUTHORIZATION' | 'REFUND';
  status: 'SUCCESS' | 'PENDING' | 'FAILURE';
  gateway: string;
  manualPaymentGateway: boolean;
  /** Minor units (AMD has two decimals in Shopify). */
  cents: number;
  parentId: number | null;
}

export interface FakeRefund {
  id: number;
  note: string | null;
  cents: number;
  idempotencyKey: string | null;
}

export interface FakeOrder {
  id: number;
  name: string;
  createdAt: string;
  paymentGatewayNames: string[];
  /** Whether the order's payment method is a manual one (the SALE that marking paid creates is too). */
  manual: boolean;
  totalCents: number;
  currency: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  note: string | null;
  tags: string[];
  metafields: Map<string, string>;
  transactions: FakeTransaction[];
  refunds: FakeRefund[];
}

export type Injected =
  | { readonly kind: 'throttled' }
  | { readonly kind: 'status'; readonly status: number }
  | { readonly kind: 'graphql'; readonly code: string; readonly message: string }
  | { readonly kind: 'delay'; readonly ms: number };

export interface RecordedRequest {
  readonly path: string;
  readonly token: string | null;
  readonly operationName: string | null;
  readonly query: string;
  // biome-ignore lint/suspicious/noExplicitAny: variables are whatever JSON the driver sent
  readonly variables: Record<string, any>;
  /** The version the request was served with (null: 404). */
  readonly servedVersion: string | null;
}

export interface NewOrder {
  readonly total?: string;
  readonly gateway?: string;
  readonly manual?: boolean;
  readonly createdAt?: string;
  readonly currency?: string;
  readonly email?: string | null;
  readonly firstName?: string | null;
  readonly lastName?: string | null;
  readonly note?: string | null;
  /** Starts paid (a SALE for the total) without the driver. */
  readonly paid?: boolean;
}

export interface FakeShopifyAdmin {
  readonly shop: string;
  readonly accessToken: string;
  readonly url: string;
  /** The stable versions served, oldest first. */
  readonly versions: readonly string[];
  readonly orders: Map<number, FakeOrder>;
  readonly requests: RecordedRequest[];
  /** Refunds that a real shop would have sent to a payment provider. */
  readonly moneyMoved: { cents: number };
  /** Routes `https://<shop>/...` to this server; any other address fails as a network error would. */
  fetch(url: string, init: RequestInit): Promise<Response>;
  addOrder(order?: NewOrder): FakeOrder;
  inject(...failures: Injected[]): void;
  operations(): (string | null)[];
  financialStatus(order: FakeOrder): string;
  close(): Promise<void>;
}

function decimal(cents: number): string {
  const whole = Math.trunc(cents / 100);
  const fraction = String(Math.abs(cents % 100))
    .padStart(2, '0')
    .replace(/0$/, '');
  return `${whole}.${fraction === '' ? '0' : fraction}`;
}

function parseCents(amount: unknown): number | null {
  if (typeof amount !== 'string' && typeof amount !== 'number') return null;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(amount));
  if (match === null) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

function money(cents: number, currency: string) {
  return {
    shopMoney: { amount: decimal(cents), currencyCode: currency },
    presentmentMoney: { amount: decimal(cents), currencyCode: currency },
  };
}

function gidNumber(gid: unknown, type: string): number | null {
  if (typeof gid !== 'string') return null;
  const match = new RegExp(`^gid://shopify/${type}/(\\d+)$`).exec(gid);
  return match ? Number(match[1]) : null;
}

function cost(requested: number) {
  return {
    cost: {
      requestedQueryCost: requested,
      actualQueryCost: requested,
      throttleStatus: { maximumAvailable: 2000.0, currentlyAvailable: 2000 - requested, restoreRate: 100.0 },
    },
  };
}

export async function startFakeShopifyAdmin(
  options: {
    shop?: string;
    accessToken?: string;
    acceptsToken?: (token: string) => boolean;
    /** The stable versions served, oldest first (default {@link SUPPORTED_VERSIONS}). */
    versions?: readonly string[];
  } = {},
): Promise<FakeShopifyAdmin> {
  const versions = options.versions ?? SUPPORTED_VERSIONS;
  const shop = options.shop ?? FAKE_SHOP;
  const accessToken = options.accessToken ?? 'shpat_fake_0123456789abcdef0123456789abcdef';
  const orders = new Map<number, FakeOrder>();
  const requests: RecordedRequest[] = [];
  const injected: Injected[] = [];
  const moneyMoved = { cents: 0 };
  let nextId = 450789469;
  let nextNumber = 1001;
  const idempotencyKeys = new Map<string, { orderId: number; refundId: number }>();

  function paidCents(order: FakeOrder): number {
    return order.transactions
      .filter((t) => (t.kind === 'SALE' || t.kind === 'CAPTURE') && t.status === 'SUCCESS')
      .reduce((sum, t) => sum + t.cents, 0);
  }
  function refundedCents(order: FakeOrder): number {
    return order.refunds.reduce((sum, r) => sum + r.cents, 0);
  }
  function financialStatus(order: FakeOrder): string {
    const paid = paidCents(order);
    const refunded = refundedCents(order);
    if (paid === 0) return 'PENDING';
    if (refunded >= paid) return 'REFUNDED';
    if (refunded > 0) return 'PARTIALLY_REFUNDED';
    return paid >= order.totalCents ? 'PAID' : 'PARTIALLY_PAID';
  }

  function addOrder(input: NewOrder = {}): FakeOrder {
    const id = nextId++;
    const gateway = input.gateway ?? 'Pay by card (Connector)';
    const order: FakeOrder = {
      id,
      name: `#${nextNumber++}`,
      createdAt: input.createdAt ?? '2026-05-01T10:00:00Z',
      paymentGatewayNames: [gateway],
      manual: input.manual ?? true,
      totalCents: parseCents(input.total ?? '12000.00') ?? 0,
      currency: input.currency ?? 'AMD',
      email: input.email === undefined ? 'bob.norman@mail.example.com' : input.email,
      firstName: input.firstName === undefined ? 'Bob' : input.firstName,
      lastName: input.lastName === undefined ? 'Norman' : input.lastName,
      note: input.note ?? null,
      tags: [],
      metafields: new Map(),
      transactions: [],
      refunds: [],
    };
    if (input.paid) sale(order);
    orders.set(id, order);
    return order;
  }

  function sale(order: FakeOrder): void {
    const outstanding = order.totalCents - paidCents(order);
    order.transactions.push({
      id: nextId++,
      kind: 'SALE',
      status: 'SUCCESS',
      gateway: order.manual ? (order.paymentGatewayNames[0] ?? 'manual') : 'shopify_payments',
      manualPaymentGateway: order.manual,
      cents: outstanding,
      parentId: null,
    });
  }

  /** An order as the schema's `Order` type: fields, and functions for the fields that take arguments. */
  function orderJson(order: FakeOrder): Json {
    return {
      id: `gid://shopify/Order/${order.id}`,
      legacyResourceId: String(order.id),
      name: order.name,
      createdAt: order.createdAt,
      displayFinancialStatus: financialStatus(order),
      paymentGatewayNames: order.paymentGatewayNames,
      totalPriceSet: money(order.totalCents, order.currency),
      totalRefundedSet: money(refundedCents(order), order.currency),
      email: order.email,
      customer:
        order.firstName === null && order.lastName === null
          ? null
          : { firstName: order.firstName, lastName: order.lastName },
      note: order.note,
      tags: order.tags,
      metafield: ({ namespace, key }: Json) => {
        const value = order.metafields.get(`${namespace}.${key}`);
        return value === undefined ? null : { value };
      },
      transactions: ({ first }: Json) =>
        order.transactions.slice(0, first ?? undefined).map((t) => ({
          id: `gid://shopify/OrderTransaction/${t.id}`,
          kind: t.kind,
          status: t.status,
          gateway: t.gateway,
          manualPaymentGateway: t.manualPaymentGateway,
          amountSet: money(t.cents, order.currency),
        })),
      refunds: ({ first }: Json) =>
        order.refunds.slice(0, first ?? undefined).map((r) => ({
          id: `gid://shopify/Refund/${r.id}`,
          legacyResourceId: String(r.id),
          note: r.note,
        })),
    };
  }

  /** Bounds of `created_at:>=... created_at:<...` in a search query. */
  function createdFilter(search: string): (order: FakeOrder) => boolean {
    const tests: ((ms: number) => boolean)[] = [];
    for (const match of search.matchAll(/created_at:(>=|<=|>|<)'?([0-9T:.\-Z+]+)'?/g)) {
      const [, op, value = ''] = match;
      const bound = Date.parse(value);
      if (Number.isNaN(bound)) continue;
      tests.push((ms) =>
        op === '>=' ? ms >= bound : op === '>' ? ms > bound : op === '<=' ? ms <= bound : ms < bound,
      );
    }
    return (order) => tests.every((test) => test(Date.parse(order.createdAt)));
  }

  // biome-ignore lint/suspicious/noExplicitAny: GraphQL variables and answers are free-form JSON
  type Json = Record<string, any>;

  function userErrors(field: string[], message: string, code?: string) {
    return [{ field, message, ...(code === undefined ? {} : { code }) }];
  }

  /** The key of a field's `@idempotent(key:)` directive, as sent. */
  function idempotencyKey(info: GraphQLResolveInfo): string | undefined {
    const directive = info.fieldNodes[0]?.directives?.find((d) => d.name.value === 'idempotent');
    const argument = directive?.arguments?.find((a) => a.name.value === 'key')?.value;
    if (argument === undefined) return undefined;
    if (argument.kind === 'Variable') return info.variableValues[argument.name.value] as string | undefined;
    return argument.kind === 'StringValue' ? argument.value : undefined;
  }

  /** The schema's root fields the fake answers (graphql-js calls each with its coerced arguments). */
  const rootValue: Json = {
    shop: { name: 'Example Shop' },
    order: ({ id }: Json) => {
      const order = orders.get(gidNumber(id, 'Order') ?? -1);
      return order === undefined ? null : orderJson(order);
    },
    orders: ({ first, after, query }: Json) => {
      const matching = [...orders.values()]
        .filter(createdFilter(String(query ?? '')))
        .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
      let start = 0;
      if (typeof after === 'string') {
        const lastId = Number(JSON.parse(Buffer.from(after, 'base64url').toString('utf8')).last_id);
        start = matching.findIndex((order) => order.id === lastId) + 1;
      }
      const page = matching.slice(start, start + first);
      const last = page.at(-1);
      return {
        nodes: page.map(orderJson),
        pageInfo: {
          hasNextPage: start + first < matching.length,
          endCursor:
            last === undefined
              ? null
              : Buffer.from(JSON.stringify({ last_id: last.id, last_value: last.createdAt })).toString('base64url'),
        },
      };
    },
    metafieldsSet: ({ metafields }: Json) => {
      const inputs: Json[] = Array.isArray(metafields) ? metafields : [];
      const set: Json[] = [];
      for (const [index, input] of inputs.entries()) {
        const order = orders.get(gidNumber(input.ownerId, 'Order') ?? -1);
        if (order === undefined) {
          return {
            metafields: [],
            userErrors: userErrors(['metafields', String(index), 'ownerId'], 'Owner does not exist.', 'INVALID'),
          };
        }
        const namespace = String(input.namespace ?? '');
        const key = String(input.key ?? '');
        if (namespace.length < 3 || namespace.length > 255 || key.length < 2 || key.length > 64) {
          return {
            metafields: [],
            userErrors: userErrors(['metafields', String(index), 'key'], 'is too short or too long', 'INVALID'),
          };
        }
        order.metafields.set(`${namespace}.${key}`, String(input.value));
        set.push({ key, namespace, value: String(input.value) });
      }
      return { metafields: set, userErrors: [] };
    },
    orderMarkAsPaid: ({ input }: Json) => {
      const order = orders.get(gidNumber(input?.id, 'Order') ?? -1);
      if (order === undefined) return { order: null, userErrors: userErrors(['id'], 'Order does not exist') };
      const outstanding = order.totalCents - paidCents(order);
      if (outstanding <= 0 || financialStatus(order) === 'PAID') {
        return { order: orderJson(order), userErrors: userErrors(['id'], 'Order cannot be marked as paid.') };
      }
      sale(order);
      return { order: orderJson(order), userErrors: [] };
    },
    orderUpdate: ({ input }: Json) => {
      const order = orders.get(gidNumber(input?.id, 'Order') ?? -1);
      if (order === undefined) return { order: null, userErrors: userErrors(['id'], 'Order does not exist') };
      const note = input?.note;
      if (typeof note === 'string' && note.length > MAX_NOTE) {
        return {
          order: null,
          userErrors: userErrors(['note'], `Note is too long (maximum is ${MAX_NOTE} characters)`),
        };
      }
      if (note !== undefined) order.note = note;
      return { order: orderJson(order), userErrors: [] };
    },
    tagsAdd: ({ id, tags }: Json) => {
      const order = orders.get(gidNumber(id, 'Order') ?? -1);
      if (order === undefined) return { node: null, userErrors: userErrors(['id'], 'Order does not exist') };
      for (const tag of tags ?? []) if (!order.tags.includes(tag)) order.tags.push(String(tag));
      return { node: { __typename: 'Order', ...orderJson(order) }, userErrors: [] };
    },
    refundCreate: ({ input }: Json, _context: unknown, info: GraphQLResolveInfo) => {
      const key = idempotencyKey(info);
      const refundJson = (order: FakeOrder, refund: FakeRefund) => ({
        refund: { id: `gid://shopify/Refund/${refund.id}`, legacyResourceId: String(refund.id), note: refund.note },
        order: orderJson(order),
        userErrors: [],
      });
      if (typeof key === 'string' && idempotencyKeys.has(key)) {
        const seen = idempotencyKeys.get(key);
        const order = orders.get(seen?.orderId ?? -1);
        const refund = order?.refunds.find((r) => r.id === seen?.refundId);
        if (order && refund) return refundJson(order, refund);
      }
      const refused = (field: string[], message: string) => ({
        refund: null,
        order: null,
        userErrors: userErrors(field, message),
      });
      const order = orders.get(gidNumber(input?.orderId, 'Order') ?? -1);
      if (order === undefined) return refused(['orderId'], 'Order does not exist');
      const transactions: Json[] = Array.isArray(input.transactions) ? input.transactions : [];
      let cents = 0;
      const parents: FakeTransaction[] = [];
      for (const [index, transaction] of transactions.entries()) {
        const parent = order.transactions.find((t) => t.id === gidNumber(transaction.parentId, 'OrderTransaction'));
        if (
          transaction.kind !== 'REFUND' ||
          parent === undefined ||
          (parent.kind !== 'SALE' && parent.kind !== 'CAPTURE') ||
          parent.status !== 'SUCCESS'
        ) {
          return refused(
            ['transactions', String(index), 'parentId'],
            'Parent transaction is not a successful sale or capture',
          );
        }
        const amount = parseCents(transaction.amount);
        if (amount === null || amount <= 0) {
          return refused(['transactions', String(index), 'amount'], 'Amount must be greater than 0');
        }
        cents += amount;
        parents.push(parent);
      }
      const refundable = paidCents(order) - refundedCents(order);
      if (cents > refundable && input.allowOverRefunding !== true) {
        return refused(
          ['transactions'],
          `Refund amount ${decimal(cents)} is greater than net payment received ${decimal(refundable)}`,
        );
      }
      const refund: FakeRefund = {
        id: nextId++,
        note: input.note ?? null,
        cents,
        idempotencyKey: typeof key === 'string' ? key : null,
      };
      order.refunds.push(refund);
      for (const [index, transaction] of transactions.entries()) {
        const parent = parents[index] as FakeTransaction;
        const amount = parseCents(transaction.amount) ?? 0;
        order.transactions.push({
          id: nextId++,
          kind: 'REFUND',
          status: 'SUCCESS',
          gateway: String(transaction.gateway),
          manualPaymentGateway: parent.manualPaymentGateway,
          cents: amount,
          parentId: parent.id,
        });
        if (!parent.manualPaymentGateway) moneyMoved.cents += amount;
      }
      if (typeof key === 'string') idempotencyKeys.set(key, { orderId: order.id, refundId: refund.id });
      return refundJson(order, refund);
    },
  };

  /** What Shopify refuses before running a valid document (HTTP 200 `errors`, no `data`). */
  function refusedBeforeRunning(version: string, query: string, variables: Json): Json[] | null {
    // From 2026-04 refundCreate requires the directive (shopify.dev changelog, "Making idempotency
    // mandatory for inventory adjustments and refund mutations").
    if (version >= '2026-04' && /\brefundCreate\s*\(/.test(query)) {
      const directive = /@idempotent\(key:\s*\$(\w+)\)/.exec(query);
      const key = directive ? variables[directive[1] ?? ''] : undefined;
      if (typeof key !== 'string' || key === '') {
        return [
          { message: 'The @idempotent directive is required for this mutation.', extensions: { code: 'BAD_REQUEST' } },
        ];
      }
    }
    const first = /\borders\s*\(/.test(query) ? Number(variables.first) : 1;
    if (!Number.isInteger(first) || first < 1 || first > 250) {
      return [
        {
          message: 'The first argument must be between 1 and 250',
          extensions: { code: 'argumentLiteralsIncompatible' },
        },
      ];
    }
    return null;
  }

  /** The version a request for `requested` is served with, or null (404). */
  function served(requested: string): string | null {
    if (versions.includes(requested)) return requested;
    const oldest = versions[0];
    if (oldest !== undefined && /^\d{4}-(01|04|07|10)$/.test(requested) && requested < oldest) return oldest;
    return null;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const requested = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(path)?.[1];
    const version = requested === undefined ? null : served(requested);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, {
        'Content-Type': 'application/json; charset=utf-8',
        ...(version === null ? {} : { 'X-Shopify-API-Version': version }),
      });
      response.end(JSON.stringify(body));
    };
    const header = request.headers['x-shopify-access-token'];
    const token = typeof header === 'string' ? header : null;
    let body: Json = {};
    try {
      body = raw === '' ? {} : JSON.parse(raw);
    } catch {
      // recorded below with an empty query
    }
    const query = typeof body.query === 'string' ? body.query : '';
    requests.push({
      path,
      token,
      operationName: /^\s*(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? null,
      query,
      variables: body.variables ?? {},
      servedVersion: version,
    });

    if (request.method !== 'POST' || version === null) return send(404, { errors: 'Not Found' });
    const accepted = token !== null && (token === accessToken || (options.acceptsToken?.(token) ?? false));
    if (!accepted) return send(401, fixture('unauthorized.json'));

    const failure = injected.shift();
    if (failure?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, failure.ms));
    if (failure?.kind === 'throttled') return send(200, fixture('throttled.json'));
    if (failure?.kind === 'status') {
      return send(
        failure.status,
        failure.status === 401 ? fixture('unauthorized.json') : { errors: 'Internal Server Error' },
      );
    }
    if (failure?.kind === 'graphql') {
      return send(200, {
        errors: [{ message: failure.message, extensions: { code: failure.code } }],
        extensions: cost(1),
      });
    }
    if (query === '' || !String(request.headers['content-type'] ?? '').includes('application/json')) {
      return send(400, { errors: { query: 'Required parameter missing or invalid' } });
    }
    const variables: Json = body.variables ?? {};
    const schema = await shopifySchema('admin', version);
    const outcome = await runShopifyGraphql(schema, query, variables, rootValue, () =>
      refusedBeforeRunning(version, query, variables),
    );
    if (outcome.kind === 'refused') return send(200, outcome.body);
    const requestedCost = outcome.rootFields.includes('orders') ? 2 + Number(variables.first) : 10;
    send(200, { ...outcome.body, extensions: cost(requestedCost) });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    shop,
    accessToken,
    url,
    versions,
    orders,
    requests,
    moneyMoved,
    async fetch(target, init) {
      const parsed = new URL(target);
      if (parsed.protocol !== 'https:' || parsed.host !== shop)
        throw new TypeError(`fetch failed: ${parsed.host} is not the fake shop`);
      return fetch(`${url}${parsed.pathname}${parsed.search}`, init);
    },
    addOrder,
    inject(...failures) {
      injected.push(...failures);
    },
    operations: () => requests.map((entry) => entry.operationName),
    financialStatus,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
