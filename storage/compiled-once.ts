/**
 * The statements of the hot requests, compiled by the query builder once per database and shape and
 * then sent as text with each call's values. Building and compiling a query costs about as much as
 * running it on an indexed row (a 40-column insert, a read with four conditions), so a create and a
 * read by id should not pay it on every request.
 *
 * A shape names one form of the statement: the same text for any values. Its first call builds the
 * query with that call's values and checks that the builder binds exactly those values, in that
 * order: what the text is reused with. A builder that binds another way (a value folded into the
 * text, a different order) fails on the first call instead of sending wrong values later.
 */
import { type Compilable, CompiledQuery } from 'kysely';
import type { Executor } from './database.js';

const texts = new WeakMap<object, Map<string, string>>();

/** The compiled `build()` of `shape` with `values`, compiled at its first use on this database. */
export function compiledOnce(
  db: Executor,
  shape: string,
  values: readonly unknown[],
  build: () => Compilable,
): CompiledQuery {
  const { adapter } = db.getExecutor();
  let byShape = texts.get(adapter);
  if (byShape === undefined) {
    byShape = new Map();
    texts.set(adapter, byShape);
  }
  let text = byShape.get(shape);
  if (text === undefined) {
    const compiled = build().compile();
    if (compiled.parameters.length !== values.length || compiled.parameters.some((v, i) => v !== values[i])) {
      throw new Error(`the statement "${shape}" binds its values in another order than given`);
    }
    text = compiled.sql;
    byShape.set(shape, text);
  }
  return CompiledQuery.raw(text, [...values]);
}
