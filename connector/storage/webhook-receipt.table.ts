/** Webhook deliveries already handled (de-duplication on the gateway's `delivery_id`). */
export interface WebhookReceiptTable {
  delivery_id: string;
  connection_id: string;
  event: string;
  payment_uuid: string;
  received_at: string;
}
