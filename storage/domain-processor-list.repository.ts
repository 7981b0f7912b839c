/**
 * What the dashboard's Processors pages read and the one thing they write beside
 * `upsertDomainProcessor` (domain.repository.ts): a domain's processors in the checkout's order
 * (position, then slug), without their settings (only whether some are stored), and the order.
 */
import type { Executor } from './database.js';

export interface DomainProcessorState {
  readonly processor: string;
  readonly enabled: boolean;
  /** Whether settings are stored (sealed); their content is never read here. */
  readonly configured: boolean;
  readonly position: number;
}

export interface MerchantDomainSummary {
  readonly id: string;
  readonly host: string;
  readonly hosted: boolean;
  readonly verified: boolean;
  /** Enabled processors, in the checkout's order. */
  readonly enabled: string[];
}

/** Every processor row of the domain (enabled or not), in the checkout's order. */
export async function listDomainProcessorStates(db: Executor, domainId: string): Promise<DomainProcessorState[]> {
  const rows = await db
    .selectFrom('domain_processors')
    .select(['processor', 'enabled', 'config', 'position'])
    .where('domain_id', '=', domainId)
    .orderBy('position')
    .orderBy('processor')
    .execute();
  return rows.map((row) => ({
    processor: row.processor,
    enabled: Number(row.enabled) === 1,
    configured: row.config !== null,
    position: Number(row.position),
  }));
}

/** The merchant's domains (the hosted one first, then by age) with their enabled processors in order. */
export async function listMerchantDomainSummaries(db: Executor, merchantId: string): Promise<MerchantDomainSummary[]> {
  const rows = await db
    .selectFrom('domains')
    .leftJoin('domain_processors', (join) =>
      join.onRef('domain_processors.domain_id', '=', 'domains.id').on('domain_processors.enabled', '=', 1),
    )
    .select([
      'domains.id',
      'domains.host',
      'domains.hosted',
      'domains.verified',
      'domain_processors.processor',
      'domains.created_at',
    ])
    .where('domains.merchant_id', '=', merchantId)
    .orderBy('domains.hosted', 'desc')
    .orderBy('domains.created_at')
    .orderBy('domains.id')
    .orderBy('domain_processors.position')
    .orderBy('domain_processors.processor')
    .execute();
  const byId = new Map<string, MerchantDomainSummary>();
  for (const row of rows) {
    let entry = byId.get(row.id);
    if (entry === undefined) {
      entry = {
        id: row.id,
        host: row.host,
        hosted: Number(row.hosted) === 1,
        verified: Number(row.verified) === 1,
        enabled: [],
      };
      byId.set(row.id, entry);
    }
    if (row.processor !== null) entry.enabled.push(row.processor);
  }
  return [...byId.values()];
}

/** Numbers the domain's processors 1, 2, 3... in the order given (others keep their position). */
export async function setDomainProcessorOrder(
  db: Executor,
  domainId: string,
  order: readonly string[],
  now: string,
): Promise<void> {
  for (const [index, processor] of order.entries()) {
    await db
      .updateTable('domain_processors')
      .set({ position: index + 1, updated_at: now })
      .where('domain_id', '=', domainId)
      .where('processor', '=', processor)
      .execute();
  }
}
