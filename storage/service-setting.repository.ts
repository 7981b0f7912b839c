import type { Executor } from './database.js';

/**
 * Reads a setting, creating it with `initial` when absent. Race-safe: when several instances
 * start together, the first insert wins and every instance reads the same value back.
 */
export async function getOrCreateSetting(db: Executor, name: string, initial: string, now: string): Promise<string> {
  await db
    .insertInto('service_settings')
    .values({ name, value: initial, created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('service_settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

export async function findSetting(db: Executor, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('service_settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

export async function deleteSetting(db: Executor, name: string): Promise<void> {
  await db.deleteFrom('service_settings').where('name', '=', name).execute();
}

export async function insertSetting(db: Executor, name: string, value: string, now: string): Promise<void> {
  await db.insertInto('service_settings').values({ name, value, created_at: now }).execute();
}

/** Deletes a setting and answers its value, to the one caller that deleted it (undefined to others). */
export async function takeSetting(db: Executor, name: string): Promise<string | undefined> {
  const row = await db.deleteFrom('service_settings').where('name', '=', name).returning('value').executeTakeFirst();
  return row?.value;
}
