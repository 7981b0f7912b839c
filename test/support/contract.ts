/**
 * The contract check of the API tests: every answer a test gateway gives to an API path is checked
 * against the OpenAPI document (status documented for the operation, JSON body valid under its
 * response schema, with ajv's draft 2020-12 and formats), and so is every webhook delivery a test
 * receiver gets. Violations are collected; the setup file `contract-setup.ts` fails the test file
 * that met any, listing them. It also reads the document's examples: where they should be, and
 * whether each is valid under its schema.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument, type OpenApiDocument } from '../../gateway/api/openapi/document.js';
import { OPERATIONS } from '../../gateway/api/openapi/operations.js';
import { loadConfig } from '../../gateway/config.js';

/** The origins of the test gateways of this process: only their answers are checked. */
const gatewayOrigins = new Set<string>();
const violations: string[] = [];

export function watchGatewayContract(url: string): void {
  gatewayOrigins.add(new URL(url).origin);
}

/** The violations met so far, each once, emptied. */
export function takeContractViolations(): string[] {
  return [...new Set(violations.splice(0))];
}

const DOCUMENT_ID = 'https://gateway.test/openapi.json';

interface Checker {
  readonly ajv: Ajv2020;
  readonly routes: ReadonlyArray<{ readonly method: string; readonly path: string; readonly pattern: RegExp }>;
  readonly compiled: Map<string, ValidateFunction>;
  readonly document: ReturnType<typeof buildOpenApiDocument>;
}

let checker: Checker | undefined;

/** An ajv (draft 2020-12, with formats) that holds `document`: its schemas are compiled by JSON pointer. */
function ajvFor(document: OpenApiDocument): Ajv2020 {
  // The document is not itself a schema: refs point into it and only the schemas they reach are compiled.
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
  // ajv-formats is CommonJS: Node hands its `module.exports` as the default import, the plugin is `.default`.
  addFormats.default(ajv);
  ajv.addSchema(document, DOCUMENT_ID);
  return ajv;
}

function theChecker(): Checker {
  if (checker !== undefined) return checker;
  // Response schemas do not depend on the server's settings: the defaults' document serves every test gateway.
  const document = buildOpenApiDocument(loadConfig({ PUBLIC_URL: 'http://gateway.test' }));
  const ajv = ajvFor(document);
  const routes = OPERATIONS.map((o) => ({
    method: o.method.toUpperCase(),
    path: o.path,
    pattern: new RegExp(`^${o.path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
  }));
  checker = { ajv, routes, compiled: new Map(), document };
  return checker;
}

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

function validatorFor(c: Checker, path: string, method: string, status: string): ValidateFunction {
  const key = `${method} ${path} ${status}`;
  let validate = c.compiled.get(key);
  if (validate === undefined) {
    const ref = `${DOCUMENT_ID}#/${pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema')}`;
    validate = c.ajv.compile({ $ref: ref });
    c.compiled.set(key, validate);
  }
  return validate;
}

/**
 * Checks one webhook a test receiver got: a delivery of one of the document's `webhooks` (it has a
 * `webhook-id` header and names one of their events) must carry their required headers and a body
 * valid under their schema. Anything else a receiver gets (a processor's request, a test's own
 * body) is left alone.
 */
export function checkWebhookAgainstContract(headers: Readonly<Record<string, unknown>>, body: unknown): void {
  if (headers['webhook-id'] === undefined || typeof body !== 'object' || body === null) return;
  const event = (body as { event?: unknown }).event;
  const c = theChecker();
  const webhooks = (c.document.webhooks ?? {}) as Record<
    string,
    { post: { parameters: Array<{ name: string; required: boolean }> } }
  >;
  if (typeof event !== 'string' || !Object.hasOwn(webhooks, event)) return;
  const where = `webhook ${event} ${String(headers['webhook-id'])}`;
  for (const header of webhooks[event]?.post.parameters ?? []) {
    if (header.required && headers[header.name.toLowerCase()] === undefined) {
      violations.push(`${where}: header ${header.name} missing`);
    }
  }
  const key = `webhook ${event}`;
  let validate = c.compiled.get(key);
  if (validate === undefined) {
    const ref = `${DOCUMENT_ID}#/${pointer('webhooks', event, 'post', 'requestBody', 'content', 'application/json', 'schema')}`;
    validate = c.ajv.compile({ $ref: ref });
    c.compiled.set(key, validate);
  }
  if (!validate(body))
    violations.push(`${where}: ${describeErrors(validate)}; body ${JSON.stringify(body).slice(0, 300)}`);
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`)
    .join('; ');
}

/** Checks one answer; anything that is not a test gateway's API operation is left alone. */
export function checkAgainstContract(method: string, url: string, status: number, body: unknown, text: string): void {
  const target = new URL(url);
  if (!gatewayOrigins.has(target.origin)) return;
  const c = theChecker();
  const route = c.routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(target.pathname));
  if (route === undefined) return;
  const where = `${route.method} ${route.path} (${target.pathname}${target.search}) → ${status}`;
  const operation = c.document.paths[route.path]?.[method.toLowerCase()] as { responses: Record<string, unknown> };
  if (!(String(status) in operation.responses)) {
    violations.push(`${where}: status not documented; body ${text.slice(0, 300)}`);
    return;
  }
  if (status === 304) return;
  const validate = validatorFor(c, route.path, method.toLowerCase(), String(status));
  if (body === null && text !== 'null') {
    violations.push(`${where}: the body is not JSON: ${text.slice(0, 200)}`);
    return;
  }
  if (!validate(body)) violations.push(`${where}: ${describeErrors(validate)}; body ${text.slice(0, 300)}`);
}

/** A JSON media type of the document that should show an example, at its JSON pointer's parts. */
export interface ExampleSite {
  readonly at: readonly string[];
  readonly media: { readonly schema?: unknown; readonly example?: unknown } | undefined;
}

type OperationObject = {
  requestBody?: { content?: Record<string, ExampleSite['media']> };
  responses?: Record<string, { content?: Record<string, ExampleSite['media']> }>;
};

/**
 * Where the document should show an example: every request body, every success answer (2xx) with
 * a body, of every operation and every webhook.
 */
export function exampleSites(document: OpenApiDocument): ExampleSite[] {
  const sites: ExampleSite[] = [];
  const visit = (at: string[], operation: OperationObject) => {
    if (operation.requestBody !== undefined) {
      const where = [...at, 'requestBody', 'content', 'application/json'];
      sites.push({ at: where, media: operation.requestBody.content?.['application/json'] });
    }
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      // An answer without a body (a webhook receiver's) has nothing to show.
      if (!/^2\d\d$/.test(status) || response.content === undefined) continue;
      sites.push({
        at: [...at, 'responses', status, 'content', 'application/json'],
        media: response.content?.['application/json'],
      });
    }
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item))
      visit(['paths', path, method], operation as OperationObject);
  }
  const webhooks = (document.webhooks ?? {}) as Record<string, { post: OperationObject }>;
  for (const [event, item] of Object.entries(webhooks)) visit(['webhooks', event, 'post'], item.post);
  return sites;
}

/** The examples of `document` that are not valid under the schema beside them, one line each. */
export function invalidExamples(document: OpenApiDocument): string[] {
  const ajv = ajvFor(document);
  const problems: string[] = [];
  for (const { at, media } of exampleSites(document)) {
    if (media?.example === undefined) continue;
    const validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer(...at, 'schema')}` });
    if (!validate(media.example)) problems.push(`${at.join(' ')}: ${describeErrors(validate)}`);
  }
  return problems;
}
