/**
 * Vitest setup file: turns on the contract check of `contract.ts` for the answers `requestJson`
 * receives and the webhooks test receivers get, and fails the test file that met a violation,
 * listing them.
 */
import { afterAll } from 'vitest';
import { checkAgainstContract, checkWebhookAgainstContract, takeContractViolations } from './contract.js';
import { observeResponses } from './http.js';
import { observeWebhooks } from './webhook-receiver.js';

observeResponses((request, response) =>
  checkAgainstContract(request.method, request.url, response.status, response.body, response.text),
);

observeWebhooks((request) => checkWebhookAgainstContract(request.headers, request.json));

afterAll(() => {
  const violations = takeContractViolations();
  if (violations.length > 0) {
    throw new Error(`Answers that differ from the OpenAPI document:\n${violations.join('\n')}`);
  }
});
