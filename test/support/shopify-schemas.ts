/**
 * Shopify's published GraphQL schemas as graphql-js schemas (scripts/shopify-schemas.ts fetches them),
 * and a GraphQL endpoint that behaves as Shopify's does for the fakes:
 *
 * - a document that does not parse or does not validate against the schema of the version served
 *   is answered HTTP 200 with `{"errors": [...]}` and no `data` (graphql-js's messages and
 *   locations, as a spec-conforming server answers; graphql-js gives them no `extensions.code`);
 * - variables that do not match their declared types (an enum value outside the version's enum)
 *   are answered the same way;
 * - otherwise the document is executed against the fake's root value: the answer holds exactly the
 *   fields the document selected, under their aliases, so a wrong selection can never pass.
 */
import {
  buildClientSchema,
  execute,
  type GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  type IntrospectionQuery,
  parse,
  validate,
} from 'graphql';
import { readIntrospection, type ShopifyApi } from '../../scripts/shopify-schemas.js';

const schemas = new Map<string, Promise<GraphQLSchema>>();

/** The schema Shopify published for `api` at `version` (built once per test process). */
export function shopifySchema(api: ShopifyApi, version: string): Promise<GraphQLSchema> {
  const key = `${api}_${version}`;
  let schema = schemas.get(key);
  if (schema === undefined) {
    schema = readIntrospection(api, version).then((json) => buildClientSchema(json as IntrospectionQuery));
    schemas.set(key, schema);
  }
  return schema;
}

/** Validation errors of a document against a schema, as messages (empty when it is valid). */
export function documentErrors(schema: GraphQLSchema, document: string): string[] {
  try {
    return validate(schema, parse(document)).map((error) => error.message);
  } catch (error) {
    return [(error as GraphQLError).message];
  }
}

// biome-ignore lint/suspicious/noExplicitAny: GraphQL variables and answers are free-form JSON
type Json = Record<string, any>;

export type GraphqlOutcome =
  /** Refused before execution: parse, validation or variable errors (the body to answer). */
  | { kind: 'refused'; body: { errors: Json[] } }
  /** Executed: the operation's root field names and the body to answer. */
  | { kind: 'executed'; operation: 'query' | 'mutation'; rootFields: string[]; body: Json };

function errorJson(error: GraphQLError): Json {
  const json = error.toJSON() as Json;
  return {
    message: json.message,
    ...(json.locations ? { locations: json.locations } : {}),
    ...(json.path ? { path: json.path } : {}),
  };
}

/** The root fields a document selects (first operation), without running it; [] when it does not parse. */
export function rootFieldsOf(document: string): string[] {
  try {
    const operation = getOperationAST(parse(document));
    return (operation?.selectionSet.selections ?? []).flatMap((selection) =>
      selection.kind === 'Field' ? [selection.name.value] : [],
    );
  } catch {
    return [];
  }
}

/**
 * Parses, validates and runs `query` as Shopify's GraphQL endpoint would. `rootValue` holds the
 * fake's answers: a field's value, or a function `(args) => value` (graphql-js's default resolver);
 * an object of an abstract type names its type in `__typename`.
 */
export async function runShopifyGraphql(
  schema: GraphQLSchema,
  query: string,
  variables: Json,
  rootValue: Json,
  /** What the server refuses of a valid document before running it (errors to answer), or null. */
  refuseBeforeRunning?: () => Json[] | null,
): Promise<GraphqlOutcome> {
  let document: ReturnType<typeof parse>;
  try {
    document = parse(query);
  } catch (error) {
    return { kind: 'refused', body: { errors: [errorJson(error as GraphQLError)] } };
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) return { kind: 'refused', body: { errors: invalid.map(errorJson) } };
  const operation = getOperationAST(document);
  if (operation === null || operation === undefined) {
    return { kind: 'refused', body: { errors: [{ message: 'An operation name is required' }] } };
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 50 });
  if (coerced.errors !== undefined) return { kind: 'refused', body: { errors: coerced.errors.map(errorJson) } };
  const refused = refuseBeforeRunning?.() ?? null;
  if (refused !== null) return { kind: 'refused', body: { errors: refused } };
  const result = await execute({ schema, document, rootValue, variableValues: variables });
  const rootFields = operation.selectionSet.selections.flatMap((selection) =>
    selection.kind === 'Field' ? [selection.name.value] : [],
  );
  const body: Json = { data: result.data ?? null };
  if (result.errors !== undefined) body.errors = result.errors.map(errorJson);
  return { kind: 'executed', operation: operation.operation === 'mutation' ? 'mutation' : 'query', rootFields, body };
}
