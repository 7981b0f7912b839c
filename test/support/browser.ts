/**
 * The headless-Chromium harness of the browser tests: Debian's chromium (`/usr/bin/chromium`,
 * installed by `scripts/ensure-chromium.sh`) driven by playwright-core, which never downloads a
 * browser. Plus a tiny HTTP server on 127.0.0.1 for the pages a test needs (a merchant page, a
 * stand-in checkout): each server is its own origin.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

// Belt and braces: nothing in this process may fetch a browser.
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The flags every launch gets. The profile is a fresh temporary `--user-data-dir` that Playwright
 * creates for each launch and deletes on close (it refuses the flag itself; only
 * `launchPersistentContext` takes a directory).
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * How long one wait or action in a browser test may take (ms). A wait ends as soon as what it waits
 * for holds, so this only bounds a failure: generous, because the browser shares two cores with
 * the other test files (a heavy page such as the API reference takes seconds to load then).
 */
export const BROWSER_TIMEOUT_MS = 15_000;

/** `extraArgs`: more flags, e.g. `--host-resolver-rules=MAP shop.example 127.0.0.1` for a named shop. */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: run \`bash scripts/ensure-chromium.sh\` (as root) to install it`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    chromiumSandbox: false,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    timeout: 30_000,
  });
}

export interface TestPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Messages the page wrote to the console, as `type: text`. */
  readonly console: string[];
  /** Uncaught exceptions of the page. */
  readonly errors: string[];
  close(): Promise<void>;
}

/** A page in its own context (no cookies or storage shared with other pages), with bounded waits. */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<TestPage> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, ...options });
  context.setDefaultTimeout(BROWSER_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(BROWSER_TIMEOUT_MS);
  const page = await context.newPage();
  const consoleLines: string[] = [];
  const errors: string[] = [];
  page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, context, console: consoleLines, errors, close: () => context.close() };
}

export interface LocalResponse {
  readonly status?: number;
  readonly type?: string;
  readonly headers?: Record<string, string>;
  readonly body: string;
}

/** Answers one request; `undefined` means 404. */
export type LocalHandler = (url: URL, request: IncomingMessage) => LocalResponse | undefined;

export interface LocalServer {
  /** `http://127.0.0.1:<port>`, also the server's origin. */
  readonly url: string;
  readonly origin: string;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 (a port of its own, so an origin of its own) answering with `handler`. */
export async function startLocalServer(handler: LocalHandler | Record<string, LocalResponse>): Promise<LocalServer> {
  const answer: LocalHandler = typeof handler === 'function' ? handler : (url) => handler[url.pathname];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let reply: LocalResponse | undefined;
    try {
      reply = answer(new URL(request.url ?? '/', 'http://127.0.0.1'), request);
    } catch (error) {
      reply = { status: 500, type: 'text/plain', body: String(error) };
    }
    reply ??= { status: 404, type: 'text/plain', body: 'not found' };
    response.writeHead(reply.status ?? 200, {
      'Content-Type': reply.type ?? 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      ...reply.headers,
    });
    response.end(request.method === 'HEAD' ? undefined : reply.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    origin: url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
