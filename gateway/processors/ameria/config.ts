/**
 * The Ameriabank vPOS settings of a domain (`processor enable ameria --config JSON`): the bank's
 * host, the ClientID with its login, the OrderID range the bank assigned, and whether its terminal
 * holds payments (two-stage). Read by the adapter; messages name fields, never values.
 */
import { z } from 'zod';
import { isProcessorAddress } from '../settings.js';
import { MAX_ORDER_ID } from './wire.js';

export const AMERIA_PRODUCTION_URL = 'https://services.ameriabank.am/VPOS/';
/** The bank's test host: 10 AMD payments only, OrderIDs from the range it assigned. */
export const AMERIA_TEST_URL = 'https://servicestest.ameriabank.am/VPOS/';

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function isVposBase(value: string): boolean {
  return isProcessorAddress(value, { pathEnd: '/VPOS/' }) && !new URL(value).pathname.endsWith('/api/VPOS/');
}

const orderIdBound = z.number().int().min(1).max(MAX_ORDER_ID);

export const ameriaConfigSchema = z
  .strictObject({
    base_url: z
      .string()
      .refine(isVposBase, { message: 'must be an http(s) address ending in /VPOS/, without query or credentials' })
      .default(AMERIA_PRODUCTION_URL),
    client_id: z.string().regex(GUID, { message: 'must be the ClientID GUID the bank issued' }),
    username: z.string().min(1, { message: 'must not be empty' }),
    password: z.string().min(1, { message: 'must not be empty' }),
    order_id_min: orderIdBound,
    order_id_max: orderIdBound,
    /**
     * The bank set this ClientID's terminal up for two-stage payments: each payment is held until
     * confirmed or cancelled. Such a terminal takes `capture_method: manual` payments only.
     */
    two_stage: z.boolean().optional(),
  })
  .refine((config) => config.order_id_min <= config.order_id_max, {
    message: 'must not be below order_id_min',
    path: ['order_id_max'],
  });
export type AmeriaConfig = z.output<typeof ameriaConfigSchema>;
