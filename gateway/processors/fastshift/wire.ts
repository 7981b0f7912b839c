/**
 * FastShift's wire format ("Pay by FastShift" v1.0 manual, revision 25.02.2025): the register
 * request as we send it and the answers of register and status. Answers are read leniently (keys
 * we do not use are dropped) and strictly for the fields we act on. Sources and quirks:
 * docs/processors.md, section FastShift.
 */
import { z } from 'zod';

/** `POST {base}vpos/order/register`, `Content-Type: application/json`, `Authorization: Bearer`. */
export interface RegisterRequest {
  /** A GUID, unique per order: the payment's uuid. */
  readonly order_number: string;
  /** Whole AMD ("unsigned int"). */
  readonly amount: number;
  /** Shown to the buyer on FastShift's page. */
  readonly description: string;
  /** Where FastShift sends the buyer's browser at the end, with `status` and `order_number`. */
  readonly callback_url: string;
  /** Where FastShift's server calls at the end, with `status` and `order_number` (unsigned). */
  readonly webhook_url: string;
  /** The merchant's own order id. */
  readonly external_order_id: string;
}

/** The order statuses the manual lists, for both register and status answers. */
export const ORDER_STATUSES = ['pending', 'completed', 'rejected', 'expired'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** `data.order` of register and status answers. `status` stays a string: an unknown one is mapped, not refused. */
export const orderSchema = z.object({
  order_number: z.string().min(1),
  order_guid: z.string().min(1),
  amount: z.number().int().nonnegative(),
  status: z.string().min(1),
  created_at: z.string().nullish(),
  completed_at: z.string().nullish(),
  expires_at: z.string().nullish(),
});
export type WireOrder = z.infer<typeof orderSchema>;

/** Register's success: HTTP 200 `{"status":"OK","data":{"order":{...},"redirect_url":"..."}}`. */
export const registerAnswerSchema = z.object({
  status: z.literal('OK'),
  data: z.object({ order: orderSchema, redirect_url: z.string().min(1) }),
});

/** `GET {base}vpos/order/status/{order_number}`: HTTP 200 `{"status":"OK","data":{"order":{...},"fastshift_id":"..."}}`. */
export const statusAnswerSchema = z.object({
  status: z.literal('OK'),
  data: z.object({ order: orderSchema, fastshift_id: z.string().nullish() }),
});

/**
 * Any answer's envelope, to read an error: `{"status":"INVALID_DATA","errors":{field: message}}`
 * (HTTP 422) or `{"status":"ERROR","message":"..."}` (HTTP 400), and UNAUTHORIZED (401), FORBIDDEN
 * (403), NOT_FOUND (404), APP_ERROR (500). The manual shows one message per field; a list is read too.
 */
export const errorAnswerSchema = z.object({
  status: z.string(),
  message: z.string().nullish(),
  errors: z.record(z.string(), z.union([z.string(), z.array(z.string())])).nullish(),
});
export type ErrorAnswer = z.infer<typeof errorAnswerSchema>;

/** The `status` values the manual lists for answers, with their HTTP codes. */
export const ANSWER_STATUSES = [
  'OK',
  'INVALID_DATA',
  'FORBIDDEN',
  'UNAUTHORIZED',
  'ERROR',
  'NOT_FOUND',
  'APP_ERROR',
] as const;
export type AnswerStatus = (typeof ANSWER_STATUSES)[number];

/** A GUID as FastShift's `order_number` takes it (8-4-4-4-12 hex digits). */
export const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Parses a body as JSON; undefined when it is not JSON. */
export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
