/**
 * The OpenAPI 3.1 document of the API, built from the operation registry (`operations.ts`), the
 * response schemas (`components.ts`), the examples (`examples/`) and the error table
 * (`domain/errors.ts`). Every JSON Schema in it is zod's output (`z.toJSONSchema`, draft 2020-12,
 * which the document's default dialect, OpenAPI 3.1's, extends): requests as zod reads them
 * (`io: input`), responses as the services write them. Bounds that are the server's settings (the
 * minimum purchase, the largest payment link) are those of the server that serves the document.
 */
import { z } from 'zod';
import type { Config } from '../../config.js';
import { mayPerform } from '../../domain/access.js';
import { ERROR_CODES, type ErrorCode } from '../../domain/errors.js';
import { IDEMPOTENCY_HEADER } from '../../payments/idempotency.js';
import { components, webhookDeliveryBodySchema } from './components.js';
import { authorizedDelivery } from './examples/holds.js';
import { refundedDelivery, statusUpdatedDelivery } from './examples/webhooks.js';
import { type ApiOperation, type DocumentedSettings, OPERATIONS } from './operations.js';
import { TAGS } from './tags.js';

type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, JsonSchema>> };

const TARGET = 'draft-2020-12';
const SCHEMAS_PATH = '#/components/schemas/';

/** zod writes `$schema` (and `$id` in a registry) on each root; inside an OpenAPI document the dialect is the document's. */
function embedded(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

function requestSchema(schema: z.ZodType): JsonSchema {
  return embedded(z.toJSONSchema(schema, { target: TARGET, io: 'input', unrepresentable: 'any' }) as JsonSchema);
}

/** A response schema: a `$ref` to its component when it has one, else inline. */
function responseSchema(schema: z.ZodType): JsonSchema {
  const id = components.get(schema)?.id;
  if (id !== undefined) return { $ref: `${SCHEMAS_PATH}${id}` };
  return embedded(z.toJSONSchema(schema, { target: TARGET, io: 'output', unrepresentable: 'any' }) as JsonSchema);
}

/**
 * What the components are written with: each component's id and description from `components`,
 * and the descriptions of their fields (`.describe()`, kept in zod's global registry). Reading
 * `components` alone would drop every field's description.
 */
const componentMetadata = {
  get(schema: z.core.$ZodType) {
    const field = z.globalRegistry.get(schema);
    const component = components.get(schema);
    return field === undefined && component === undefined ? undefined : { ...field, ...component };
  },
} as unknown as typeof components;

function componentSchemas(): Record<string, JsonSchema> {
  const generated = z.toJSONSchema(components, {
    target: TARGET,
    io: 'output',
    metadata: componentMetadata,
    uri: (id) => `${SCHEMAS_PATH}${id}`,
  }).schemas as Record<string, JsonSchema>;
  return Object.fromEntries(Object.entries(generated).map(([id, schema]) => [id, embedded(schema)]));
}

const AUTH_ERRORS: readonly ErrorCode[] = [
  'missing_credentials',
  'invalid_api_key',
  'invalid_connect_token',
  'VERIFICATION_REQUIRED',
  'insufficient_scope',
  'rate_limited',
  'too_many_attempts',
];
const BODY_ERRORS: readonly ErrorCode[] = ['invalid_json', 'payload_too_large', 'unsupported_media_type'];
const IDEMPOTENCY_ERRORS: readonly ErrorCode[] = ['conflict', 'validation_failed'];

/** Every code an operation may answer: its own, those its guards and body add, the generic 500, and 503 when the database cannot be reached. */
export function errorCodesOf(operation: ApiOperation): ErrorCode[] {
  const codes = new Set<ErrorCode>([
    ...(operation.caller === 'public' ? [] : AUTH_ERRORS),
    ...(operation.body === undefined ? [] : BODY_ERRORS),
    ...(operation.idempotent ? IDEMPOTENCY_ERRORS : []),
    ...operation.errors,
    'internal_error',
    'service_unavailable',
  ]);
  return [...codes];
}

function errorResponses(operation: ApiOperation): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(operation)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const retry = codes.some(
      (c) =>
        c === 'rate_limited' || c === 'too_many_attempts' || c === 'velocity_exceeded' || c === 'service_unavailable',
    );
    responses[String(status)] = {
      description: codes.map((c) => `\`${c}\`: ${ERROR_CODES[c].title}.`).join(' '),
      headers: {
        'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
        ...(retry || codes.includes('conflict') ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
      },
      content: {
        'application/json': {
          schema: { $ref: `${SCHEMAS_PATH}Error`, properties: { error: { enum: codes } } },
        },
      },
    };
  }
  return responses;
}

function securityOf(operation: ApiOperation): JsonSchema[] {
  const { caller } = operation;
  if (caller === 'public') return [];
  if (caller === 'connect_token') return [{ ServiceConnect: [] }];
  const keys = [{ ServiceKey: [] }, { BearerKey: [] }];
  return mayPerform({ kind: 'connect_token' }, caller) ? [...keys, { ServiceConnect: [] }] : keys;
}

function parametersOf(operation: ApiOperation): JsonSchema[] {
  const fromObject = (where: 'path' | 'query', object: z.ZodObject | undefined): JsonSchema[] => {
    if (object === undefined) return [];
    const schema = requestSchema(object);
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    return Object.entries(properties).map(([name, property]) => {
      const { description, ...rest } = property;
      return {
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(description === undefined ? {} : { description }),
        schema: rest,
      };
    });
  };
  return [
    ...fromObject('path', operation.params),
    ...fromObject('query', operation.query),
    ...(operation.idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];
}

function successHeaders(operation: ApiOperation, status: number): Record<string, JsonSchema> {
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  return {
    'X-Request-Id': ref('X-Request-Id'),
    ...(operation.caller === 'public'
      ? {}
      : {
          'X-RateLimit-Limit': ref('X-RateLimit-Limit'),
          'X-RateLimit-Remaining': ref('X-RateLimit-Remaining'),
          'X-RateLimit-Reset': ref('X-RateLimit-Reset'),
        }),
    ...(operation.idempotent && status === 200 ? { 'Idempotent-Replayed': ref('Idempotent-Replayed') } : {}),
  };
}

function requestBodyOf(body: NonNullable<ApiOperation['body']>, settings: DocumentedSettings): JsonSchema {
  const schema = typeof body.schema === 'function' ? body.schema(settings) : body.schema;
  return {
    required: body.required,
    content: { 'application/json': { schema: requestSchema(schema), example: body.example } },
  };
}

function operationObject(operation: ApiOperation, settings: DocumentedSettings): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    responses[status] = {
      description: response.description,
      headers: successHeaders(operation, Number(status)),
      content: { 'application/json': { schema: responseSchema(response.schema), example: response.example } },
    };
  }
  const parameters = parametersOf(operation);
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description === undefined ? {} : { description: operation.description }),
    tags: [operation.tag],
    security: securityOf(operation),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(operation.body === undefined ? {} : { requestBody: requestBodyOf(operation.body, settings) }),
    responses: { ...responses, ...errorResponses(operation) },
  };
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

function webhook(event: string, summary: string, example: unknown): JsonSchema {
  const signature = (description: string, required: boolean) => ({
    description,
    required,
    schema: { type: 'string' },
  });
  return {
    post: {
      operationId: `webhook.${event}`,
      summary,
      description:
        'POSTed to the payment\'s `callback_url`, else to the webhook URL of its domain. Verify the signature over the raw body before reading it (docs/api.md "Verifying webhooks"). Answer 2xx; anything else is retried.',
      // The receiver authenticates the gateway by the signature headers below: an HMAC of the body,
      // which no OpenAPI security scheme describes. The empty list says no scheme applies.
      security: [],
      parameters: [
        {
          in: 'header',
          name: 'X-Service-Signature',
          ...signature("Lower-case hex HMAC-SHA256 of the raw body under the domain's webhook secret.", true),
        },
        {
          in: 'header',
          name: 'X-Service-Signature-Next',
          ...signature('During a secret rotation: the same HMAC under the next secret.', false),
        },
        { in: 'header', name: 'webhook-id', ...signature("Standard Webhooks: the body's `delivery_id`.", true) },
        {
          in: 'header',
          name: 'webhook-timestamp',
          ...signature('Standard Webhooks: Unix seconds of this attempt.', true),
        },
        {
          in: 'header',
          name: 'webhook-signature',
          ...signature('Standard Webhooks: space-separated `v1,<base64 signature>` entries.', true),
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              $ref: `${SCHEMAS_PATH}${components.get(webhookDeliveryBodySchema)?.id}`,
              properties: { event: { const: event } },
            },
            example,
          },
        },
      },
      responses: { '200': { description: 'Received (any 2xx).' } },
    },
  };
}

/** The settings of the server the document describes. */
export type DocumentedServer = Pick<Config, 'publicUrl' | 'maxPaymentAmount'> & {
  readonly billing: Pick<Config['billing'], 'minPurchase'>;
};

export function buildOpenApiDocument(server: DocumentedServer): OpenApiDocument {
  const settings: DocumentedSettings = {
    minPurchase: server.billing.minPurchase,
    maxPaymentAmount: server.maxPaymentAmount,
  };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of OPERATIONS) {
    paths[operation.path] = { ...paths[operation.path], [operation.method]: operationObject(operation, settings) };
  }
  const tags = new Set(OPERATIONS.map((o) => o.tag));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment gateway API',
      version: '1',
      description:
        'One REST API in front of Armenian payment processors. Errors share one body; every code is explained at /docs/errors.',
    },
    servers: [{ url: server.publicUrl }],
    tags: Object.entries(TAGS)
      .filter(([name]) => tags.has(name as keyof typeof TAGS))
      .map(([name, description]) => ({ name, description })),
    paths,
    webhooks: {
      'transaction.status.updated': webhook(
        'transaction.status.updated',
        'A payment became completed, failed or expired (or a failed/expired payment was confirmed late)',
        statusUpdatedDelivery,
      ),
      'payment.refunded': webhook('payment.refunded', 'A refund succeeded', refundedDelivery),
      'payment.authorized': webhook(
        'payment.authorized',
        'A payment created with `capture_method: manual` is authorized: its amount is held on the card until captured or voided',
        authorizedDelivery,
      ),
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        ServiceKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Service-Key',
          description: 'A secret key: `sk_live_...` or `sk_test_...`.',
        },
        BearerKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'The same secret key as `Authorization: Bearer <key>`.',
        },
        ServiceConnect: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Service-Connect',
          description: 'A connect token of a platform plugin: payments of its own domain only.',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: IDEMPOTENCY_HEADER,
          in: 'header',
          required: false,
          description:
            'Makes a retry safe: a retry with the same key and body answers the first result. Printable ASCII, kept 24 hours.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
        },
      },
      headers: {
        'X-Request-Id': {
          description: 'The id of this request (also `request_id` of an error); quote it to support.',
          schema: { type: 'string' },
        },
        'X-RateLimit-Limit': integerHeader("The account's requests per minute."),
        'X-RateLimit-Remaining': integerHeader('Requests left in this minute.'),
        'X-RateLimit-Reset': integerHeader('Seconds until the window resets.'),
        'Retry-After': integerHeader('Seconds to wait before retrying.'),
        'Idempotent-Replayed': { description: 'A retry answered the first result.', schema: { const: 'true' } },
      },
    },
  };
}
