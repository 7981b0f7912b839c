/** A curl that creates a sandbox payment; the order id changes on every run so it can be repeated. */
export function sandboxPaymentCurl(publicUrl: string, key: string): string {
  return [
    `curl -sS -X POST ${publicUrl}/api/v1/payments \\`,
    `  -H "X-Service-Key: ${key}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d "{\\"amount\\": 5000, \\"order_id\\": \\"demo-$(date +%s)\\", \\"return_url\\": \\"http://localhost:3000/thank-you\\"}"`,
  ].join('\n');
}
