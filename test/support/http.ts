/**
 * One HTTP call as the tests make them: JSON in (or raw bytes), the answer with its parsed JSON body
 * (null when the body is not JSON) and its text.
 */

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is, instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** Sees every answer `requestJson` receives (the contract check of the API tests, test/support/contract-setup.ts). */
export type ResponseObserver = (request: { method: string; url: string }, response: ApiResponse<unknown>) => void;

let observer: ResponseObserver | undefined;

export function observeResponses(next: ResponseObserver | undefined): void {
  observer = next;
}

export async function requestJson<T>(
  method: string,
  url: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  const answer: ApiResponse<T> = { status: response.status, headers: response.headers, body: parsed as T, text };
  observer?.({ method, url }, answer);
  return answer;
}
