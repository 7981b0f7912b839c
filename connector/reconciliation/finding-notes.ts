/**
 * The findings of a run written as private notes on their orders, once per (order, kind, payment)
 * across runs; a finding about a payment still open at its payment system is listed but not noted.
 */
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { storeOf } from '../connections/connection-access.js';
import { errorDetail } from '../errors.js';
import type { ConnectorDeps } from '../runtime/deps.js';
import type { StoreConnection } from '../storage/connection.repository.js';
import { claimFindingNote, releaseFindingNote } from '../storage/reconciliation.repository.js';
import type { Finding } from './findings.js';

/**
 * Findings listed but not written on their order: a payment still open at its payment system may be
 * one the buyer is paying at this very moment, and a note saying "not confirmed" would stay on an
 * order paid a minute later. Once the payment is over at the gateway, the next run notes it.
 */
const NOT_NOTED = new WeakSet<Finding>();

/** Lists `finding` without writing it on its order in this run. */
export function noteLater(finding: Finding): void {
  NOT_NOTED.add(finding);
}

export /** Writes each finding as a private order note, once per (order, kind, payment) across runs. */
async function noteFindings(deps: ConnectorDeps, connection: StoreConnection, findings: readonly Finding[]) {
  if (findings.length === 0) return;
  const store = storeOf(deps, connection);
  for (const finding of findings) {
    if (NOT_NOTED.has(finding)) continue;
    const key = {
      connection_id: connection.id,
      store_order_id: finding.store_order_id,
      kind: finding.kind,
      payment_uuid: finding.payment_uuid,
    };
    if (!(await claimFindingNote(deps.db, key, toStoredInstant(deps.clock.nowMs())))) continue;
    try {
      await store.addNote(finding.store_order_id, `Reconciliation: ${finding.detail} ${finding.advice}`);
    } catch (error) {
      await releaseFindingNote(deps.db, key);
      deps.logger.warn(
        { connection_id: connection.id, order: finding.store_order_id, err: errorDetail(error) },
        'reconciliation note not written; the next run tries again',
      );
    }
  }
}
