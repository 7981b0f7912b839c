/**
 * Examples of the operations around the API: health checks, a connect token's introspection, the
 * test clock, and this document.
 */
import type { z } from 'zod';
import type { advanceClockSchema } from '../../schemas/test-helpers.schema.js';
import type { clockSchema, connectTokenInfoSchema, healthSchema } from '../components.js';

export const health = { status: 'ok' } satisfies z.output<typeof healthSchema>;

export const readiness = { status: 'ok', database: 'postgres' } satisfies z.output<typeof healthSchema>;

export const connectTokenInfo = {
  id: '01a1fe21-47f8-7601-9284-0f1385511a48',
  merchant_id: '01a1fe21-3e2a-7109-b70f-42c205a18720',
  domain: 'shop.am',
  platform: 'woocommerce',
  environment: 'test',
  livemode: false,
  created_at: '2026-11-21T12:42:36+00:00',
  expires_at: '2027-11-21T12:42:36+00:00',
  webhook_secrets: ['whsec_sgor2JOwR091+ico9uVJMHXPsgaeW1AO'],
} satisfies z.output<typeof connectTokenInfoSchema>;

/** An hour: a pending payment expires (20 minutes) and due webhook retries run. */
export const advanceClockRequest = { seconds: 3600 } satisfies z.input<typeof advanceClockSchema>;

export const clockNow = { now: '2026-11-21T11:00:30+00:00' } satisfies z.output<typeof clockSchema>;

/** The beginning of this document. */
export const documentHead = {
  openapi: '3.1.0',
  info: { title: 'Payment gateway API', version: '1' },
  servers: [{ url: 'http://localhost:8080' }],
};
