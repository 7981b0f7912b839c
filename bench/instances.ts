/**
 * Three gateway processes (`bin/gateway serve`) on one PostgreSQL database, requests spread across
 * them, and what must hold when several instances share the work (docs/operations.md "Several
 * instances, PostgreSQL"):
 *
 * 1. every payment expires once: one `expired` event per unpaid payment, although all three
 *    instances reach the expiry together (they run `GATEWAY_CLOCK=manual`, whose clock the database
 *    keeps: one instance moves it and runs the due work before answering, while the other two read
 *    the moved clock at their next tick, within a second, and claim from the same rows);
 * 2. every event is delivered once: the receiver gets each event's delivery once (no two
 *    instances send the same delivery), and each paid or expired payment's event arrives;
 * 3. the per-merchant rate limit is one limit: with 60 a minute, exactly 60 requests spread across
 *    the three instances are answered and the rest get 429.
 *
 * `runInstances` is the whole run (the test test/api/three-instances.test.ts runs it small); run as
 * a script (`npm run bench:instances`) it starts its own PostgreSQL (or uses TEST_DATABASE_URL), runs
 * it with BENCH_PAYMENTS payments (default 3000) and prints the figures; exit code 1 when a rule
 * above is broken. At the end it makes BENCH_WARM_PAYMENTS creates more (default: as many; 0: none)
 * on the instances that have by then run a while: the first creates' rate is that of processes
 * just started, whose code the runtime has not yet optimised.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../test/support/ports.js';
import { WebhookReceiver } from '../test/support/webhook-receiver.js';

const root = join(import.meta.dirname, '..');
const run = promisify(execFile);
const SECRET = 'instances-bench-secret-0123456789abcdefghijkl';
const HOST = 'shop.instances.example';

export interface InstancesOptions {
  /** A PostgreSQL URL of an empty database. */
  readonly databaseUrl: string;
  readonly payments: number;
  /** Requests in flight at once, spread across the instances. */
  readonly concurrency: number;
  /** Gives up on any one wait after this long. */
  readonly timeoutMs?: number;
  /**
   * Creates made again at the end, once the instances have done all of the above (0 or absent:
   * none): the rate of instances that have run a while, beside the first creates' rate of
   * instances just started.
   */
  readonly warmPayments?: number;
}

export interface InstancesFigures {
  readonly instances: number;
  readonly payments: number;
  readonly paid: number;
  readonly expired: number;
  /** The first creates, on instances just started (their code not yet optimised by the runtime). */
  readonly createPerSecond: number;
  readonly createP50Ms: number;
  readonly createP99Ms: number;
  /** The creates made at the end (`warmPayments`), when there are any. */
  readonly warm?: {
    readonly payments: number;
    readonly createPerSecond: number;
    readonly createP50Ms: number;
    readonly createP99Ms: number;
  };
  /** Events of the database, by kind. */
  readonly events: { readonly completed: number; readonly expired: number };
  /** Payments with more than one event of one status (must be 0). */
  readonly duplicateEvents: number;
  /** Deliveries the receiver got, and deliveries it got more than once (must be 0). */
  readonly deliveriesReceived: number;
  readonly deliveredTwice: number;
  /** Seconds from the clock move to the last expiry event's delivery. */
  readonly expiryDeliveredSeconds: number;
  /** Rate limit: 60 a minute, 150 requests across the instances. */
  readonly rateLimit: { readonly limit: number; readonly answered: number; readonly refused: number };
  /** Which instance answered how many creates (the spread). */
  readonly perInstance: readonly number[];
}

interface Instance {
  readonly url: string;
  readonly child: ChildProcess;
}

function environment(databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    GATEWAY_SECRET: SECRET,
    GATEWAY_CLOCK: 'manual',
    GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

async function startInstance(databaseUrl: string, timeoutMs: number): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['bin/gateway', 'serve'], {
    cwd: root,
    env: environment(databaseUrl, { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url }),
    stdio: 'ignore',
  });
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`an instance exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error('an instance did not become ready in time');
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null) return;
  const exited = new Promise((resolve) => instance.child.once('exit', resolve));
  instance.child.kill('SIGTERM');
  const timer = setTimeout(() => instance.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

// biome-ignore lint/suspicious/noExplicitAny: the CLI's --json answers, read field by field
async function cli(databaseUrl: string, ...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, ['bin/gateway', ...args, '--json'], {
    cwd: root,
    env: environment(databaseUrl, { PUBLIC_URL: 'https://pay.instances.example' }),
  });
  return JSON.parse(stdout);
}

/** Runs `work(i)` for i in [0, count) with `concurrency` at once. */
async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await work(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/**
 * One request through `agent` (keep-alive), answered as its status and parsed JSON. Plain
 * `node:http` rather than `fetch`: the load is made on the same two cores as the instances and
 * PostgreSQL, and fetch costs the client several times more CPU per request.
 */
function send(
  agent: Agent,
  url: string,
  method: string,
  key: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: the API's answers, read field by field
): Promise<{ status: number; json: any }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method,
        agent,
        headers: {
          'X-Service-Key': key,
          ...(payload === undefined
            ? {}
            : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

export async function runInstances(options: InstancesOptions): Promise<InstancesFigures> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const receiver = await WebhookReceiver.start();
  // The three start together: each migrates at start, and the migrator's lock lets one do it.
  const instances = await Promise.all([0, 1, 2].map(() => startInstance(options.databaseUrl, timeoutMs)));
  const db = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  try {
    const merchant = await cli(options.databaseUrl, 'merchant', 'create', '--name', 'Instances Shop');
    const merchantId: string = merchant.merchant_id;
    const key: string = merchant.keys.find((k: { environment: string }) => k.environment === 'test').key;
    await cli(
      options.databaseUrl,
      'domain',
      'add',
      '--merchant',
      merchantId,
      '--host',
      HOST,
      '--verified',
      '--webhook-url',
      `${receiver.url}/hooks`,
    );
    await cli(options.databaseUrl, 'merchant', 'rate-limit', '--merchant', merchantId, '--per-minute', '1000000');

    const call = (instance: Instance, method: string, path: string, body?: unknown) =>
      send(agent, `${instance.url}${path}`, method, key, body);

    // Load: creates spread round-robin across the instances; every third payment is paid.
    const run = randomBytes(4).toString('hex');
    const createPass = async (count: number, orderPrefix: string) => {
      const latencies: number[] = [];
      const perInstance = [0, 0, 0];
      const uuids: string[] = [];
      const started = performance.now();
      await pool(count, options.concurrency, async (i) => {
        const t0 = performance.now();
        const created = await call(instances[i % 3] as Instance, 'POST', '/api/v1/payments', {
          amount: 1000 + (i % 50),
          order_id: `${orderPrefix}-${i}`,
          return_url: `https://${HOST}/thanks`,
        });
        latencies.push(performance.now() - t0);
        if (created.status !== 201)
          throw new Error(`create answered ${created.status}: ${JSON.stringify(created.json)}`);
        perInstance[i % 3] = (perInstance[i % 3] ?? 0) + 1;
        uuids[i] = created.json.uuid;
      });
      const sorted = latencies.sort((a, b) => a - b);
      const figures = {
        createPerSecond: count / ((performance.now() - started) / 1000),
        createP50Ms: percentile(sorted, 50),
        createP99Ms: percentile(sorted, 99),
      };
      return { figures, perInstance, uuids };
    };
    const { figures: first, perInstance, uuids } = await createPass(options.payments, run);
    const paidIndexes = uuids.map((_, i) => i).filter((i) => i % 3 === 0);
    await pool(paidIndexes.length, options.concurrency, async (n) => {
      const i = paidIndexes[n] as number;
      const paid = await call(
        instances[(i + 1) % 3] as Instance,
        'POST',
        `/api/v1/test_helpers/payments/${uuids[i]}/pay`,
        {
          card_number: '4242 4242 4242 4242',
        },
      );
      if (paid.status !== 200 || paid.json.status !== 'completed') {
        throw new Error(`pay answered ${paid.status}: ${JSON.stringify(paid.json)}`);
      }
    });
    const paid = paidIndexes.length;
    const unpaid = options.payments - paid;
    // The completions' deliveries arrive first: moving the clock 21 minutes while one is being
    // sent would let its 2-minute claim lapse (real time never does that: an attempt gives up
    // after 10 s), and another instance would rightly send it again.
    await receiver.waitFor(paid, timeoutMs);
    // Received is not yet recorded: the sender writes the outcome after the answer. Wait for every
    // delivery written so far to be recorded delivered, so none is under a claim when the clock moves.
    const recordedBy = performance.now() + timeoutMs;
    for (;;) {
      const pending = await db.query<{ n: string }>(
        `select count(*) as n from webhook_deliveries where merchant_id = $1 and status = 'pending'`,
        [merchantId],
      );
      if (Number(pending.rows[0]?.n ?? 0) === 0) break;
      if (performance.now() > recordedBy) throw new Error('completion deliveries not recorded in time');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // Expiry: the clock, one for the three, moves past the 20 minutes; the instance told expires
    // payments before answering, the other two join at their next tick.
    const moved = performance.now();
    const advanced = await call(instances[0] as Instance, 'POST', '/api/v1/test_helpers/clock/advance', {
      seconds: 1260,
    });
    if (advanced.status !== 200) throw new Error(`clock advance answered ${advanced.status}`);
    await receiver.waitFor(options.payments, timeoutMs);
    const expiryDeliveredSeconds = (performance.now() - moved) / 1000;
    // A moment more, so a second delivery of anything would have arrived.
    await new Promise((resolve) => setTimeout(resolve, 2000));

    const counts = await db.query<{ status: string; n: string }>(
      `select payload::json->'transaction'->>'status' as status, count(*) as n from outbox_events
       where merchant_id = $1 and event = 'transaction.status.updated' group by 1`,
      [merchantId],
    );
    const byStatus = Object.fromEntries(counts.rows.map((row) => [row.status, Number(row.n)]));
    const duplicates = await db.query<{ n: string }>(
      `select count(*) as n from (
         select payment_id, payload::json->'transaction'->>'status' as status from outbox_events
         where merchant_id = $1 group by 1, 2 having count(*) > 1) as twice`,
      [merchantId],
    );
    const seen = new Map<string, number>();
    for (const request of receiver.received) {
      const id = String(request.json?.delivery_id);
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    const deliveredTwice = [...seen.values()].filter((n) => n > 1).length;

    // The rate limit, shared: 60 a minute, 150 requests across the three instances.
    await cli(options.databaseUrl, 'merchant', 'rate-limit', '--merchant', merchantId, '--per-minute', '60');
    const statuses: number[] = [];
    await pool(150, 15, async (i) => {
      statuses.push((await call(instances[i % 3] as Instance, 'GET', '/api/v1/payments?per_page=1')).status);
    });

    // The creates again, on instances that have run a while, after every check above was read.
    const warmPayments = options.warmPayments ?? 0;
    let warm: InstancesFigures['warm'];
    if (warmPayments > 0) {
      await cli(options.databaseUrl, 'merchant', 'rate-limit', '--merchant', merchantId, '--per-minute', '1000000');
      warm = { payments: warmPayments, ...(await createPass(warmPayments, `${run}-warm`)).figures };
    }
    return {
      instances: instances.length,
      payments: options.payments,
      paid,
      expired: unpaid,
      ...first,
      ...(warm === undefined ? {} : { warm }),
      events: { completed: byStatus.completed ?? 0, expired: byStatus.expired ?? 0 },
      duplicateEvents: Number(duplicates.rows[0]?.n ?? 0),
      deliveriesReceived: receiver.received.length,
      deliveredTwice,
      expiryDeliveredSeconds,
      rateLimit: {
        limit: 60,
        answered: statuses.filter((s) => s === 200).length,
        refused: statuses.filter((s) => s === 429).length,
      },
      perInstance,
    };
  } finally {
    agent.destroy();
    await db.end();
    await Promise.all(instances.map(stopInstance));
    await receiver.close();
  }
}

/** The rules of the header, broken ones as sentences (none: all hold). */
export function brokenRules(f: InstancesFigures): string[] {
  const broken: string[] = [];
  if (f.events.expired !== f.expired) broken.push(`${f.events.expired} expiry events for ${f.expired} unpaid payments`);
  if (f.events.completed !== f.paid) broken.push(`${f.events.completed} completion events for ${f.paid} paid payments`);
  if (f.duplicateEvents !== 0) broken.push(`${f.duplicateEvents} payments with one status recorded twice`);
  if (f.deliveriesReceived !== f.payments) broken.push(`${f.deliveriesReceived} deliveries for ${f.payments} events`);
  if (f.deliveredTwice !== 0) broken.push(`${f.deliveredTwice} deliveries received twice`);
  if (f.rateLimit.answered !== f.rateLimit.limit || f.rateLimit.refused !== 150 - f.rateLimit.limit) {
    broken.push(`rate limit ${f.rateLimit.limit}: ${f.rateLimit.answered} answered, ${f.rateLimit.refused} refused`);
  }
  return broken;
}

async function main(): Promise<void> {
  const { startEmbeddedPostgres } = await import('../test/support/postgres-global-setup.js');
  const rawPayments = Number(process.env.BENCH_PAYMENTS ?? 3000);
  const payments = Number.isInteger(rawPayments) ? Math.min(Math.max(rawPayments, 30), 100_000) : 3000;
  const external = process.env.TEST_DATABASE_URL;
  const server = external ? { adminUrl: external, stop: async () => {} } : await startEmbeddedPostgres();
  const name = `instances_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  try {
    const rawWarm = Number(process.env.BENCH_WARM_PAYMENTS ?? payments);
    const warmPayments = Number.isInteger(rawWarm) ? Math.min(Math.max(rawWarm, 0), 100_000) : payments;
    const figures = await runInstances({ databaseUrl: url.toString(), payments, concurrency: 30, warmPayments });
    console.log(JSON.stringify(figures, null, 2));
    const broken = brokenRules(figures);
    for (const rule of broken) console.error(`BROKEN: ${rule}`);
    if (broken.length > 0) process.exitCode = 1;
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    await server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
