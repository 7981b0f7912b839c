/**
 * `bin/gateway`: the operator's command line. Every command accepts `--json` for machine output
 * (the shapes are a contract, see README "CLI"). Exit codes: 0 done, 1 the operation was refused,
 * 2 the command line itself is wrong.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase, redactUrl } from '../../storage/connect.js';
import { findConnectTokenWithAccount } from '../../storage/connect-token.repository.js';
import { migrateToLatest } from '../../storage/migrate.js';
import { ConfigError, loadConfig } from '../config.js';
import { createConnectToken, listConnectTokens, revokeConnectToken } from '../connect/connect-token.service.js';
import { keyHint } from '../domain/api-keys.js';
import { CONNECT_PLATFORMS, MAX_CONNECT_TOKEN_DAYS } from '../domain/connect-tokens.js';
import { VERIFICATION_METHODS } from '../domain/domain-verification.js';
import { ApiError } from '../domain/errors.js';
import { MAX_VELOCITY_LIMIT, MAX_VELOCITY_WINDOW_MINUTES } from '../domain/payment-limits.js';
import type { DomainLimitsChange } from '../merchants/domain-limits.service.js';
import {
  addDomain,
  createApiKey,
  createMerchant,
  OperatorError,
  revokeApiKey,
  rotateWebhookSecret,
  setProcessorEnabled,
  setRateLimit,
} from '../merchants/merchant.service.js';
import { openServices } from '../runtime/start.js';
import { resendEvent } from '../webhooks/resend.service.js';
import {
  businessDocument,
  businessListPending,
  businessReject,
  businessShow,
  businessVerify,
} from './commands/business.js';
import { domainLimits } from './commands/domain-limits.js';
import { domainVerification, domainVerify } from './commands/domain-verification.js';
import { fxList, fxRemove, fxSet } from './commands/fx.js';
import { listen, listenInput } from './commands/listen.js';
import { purchaseCredit } from './commands/purchase-credit.js';
import {
  receiptsCheck,
  receiptsDisable,
  receiptsEnable,
  receiptsList,
  receiptsResolve,
  receiptsRetry,
} from './commands/receipts.js';
import { trigger, triggerInput } from './commands/trigger.js';
import { webhookTest } from './commands/webhook-test.js';
import { operatorAudit } from './operator-audit.js';
import { serve } from './serve.js';
import { commandUsage, unknownCommandMessage } from './usage.js';

export const USAGE = `Usage: gateway <command> [options] [--json]

Commands:
  serve                                   migrate, then serve HTTP on $HOST:$PORT
  --version                               print the version
  <command> --help                        that command's usage
  migrate                                 apply pending database migrations
  merchant create --name N [--email E] [--domain HOST ...] [--verify-domains]
                  [--verify-business] [--unlimited]
  merchant rate-limit --merchant ID (--per-minute N | --default)
  key create --merchant ID --environment live|test --access full|payments
  key revoke --merchant ID --key-id ID
  domain add --merchant ID --host HOST [--verified] [--webhook-url URL]
                       --verified is the operator's override: no check is made
  domain verification --merchant ID --host HOST
                       the token to publish (TXT record or HTTPS file) and the last check
  domain verify --merchant ID --host HOST --method dns|https
                       check the published token now; verified on success (exit 1 and the
                       reason otherwise)
  domain rotate-secret --merchant ID --host HOST
  domain limits --merchant ID --host HOST [--max-amount N | --default]
                [--velocity N] [--velocity-window-minutes M] [--no-velocity | --default-velocity]
                       without a change, prints the domain's limits
  webhook test --merchant ID --host HOST
                       send a signed test event to the domain's webhook URL now
  webhook resend --event ID                queue a new delivery of a past event to its target now
  listen --forward-to URL (--api-key sk_test_... | --merchant ID) [--host HOST]
                       forward the account's test events as they happen to URL (a local server),
                       signed as real deliveries; prints the signing secret, then each event with
                       the answer, until Ctrl-C
  trigger EVENT (--api-key sk_test_... | --merchant ID) [--host HOST]
                       make one sandbox event now: payment.completed, payment.failed,
                       payment.refunded or transaction.status.updated
  business verify --merchant ID          verify the business (live keys work at once), the pending
                       request if any; the merchant is emailed
  business reject --merchant ID --reason TEXT
                       reject the pending request; the reason is shown and emailed to the merchant
  business list --pending                  requests waiting for a decision, oldest first
  business show --merchant ID              the state, the details sent and the documents
  business document --id ID --out FILE     save a document of a request to a new file
  connect-token create --merchant ID --domain HOST --platform woocommerce|shopify
                       [--environment test|live] [--expires-in-days N]
  connect-token revoke --id ID
  connect-token list --merchant ID
  processor enable --merchant ID --host HOST --processor SLUG [--config JSON] [--position N]
                       settings are validated, stored sealed and never printed back
  processor disable --merchant ID --host HOST --processor SLUG
  purchase credit --reference REF          a purchase's bank transfer arrived: credit it (once)
  fx set --currency CODE --rate R          AMD per one unit of CODE from now on (payments lock it)
  fx remove --currency CODE                refuse payments in CODE from now on
  fx list [--currency CODE]                rates in force; with --currency, its history
  receipts enable --merchant ID --host HOST (--config JSON [--system ehdm] | --test)
                       fiscal receipts for the domain's payments (settings validated, stored
                       sealed, never printed back); --test: sandbox receipts only
  receipts disable --merchant ID --host HOST
  receipts check --merchant ID --host HOST     ask the fiscal system whether the settings work
  receipts list --merchant ID [--status S] [--limit N]
  receipts retry --receipt ID              try a failed receipt again
  receipts resolve --receipt ID (--fiscal-id N | --not-issued)
                       settle a receipt whose outcome is unknown, after looking in the register

Configuration comes from the environment (DATABASE_URL, PORT, HOST, PUBLIC_URL, ...; see README).`;

/**
 * The version of the gateway, from its package.json: the nearest one above this file, whether it
 * runs from the sources (gateway/cli/) or from the build (dist/gateway/cli/).
 */
function gatewayVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest))
      return `gateway ${(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version}`;
    if (dirname(dir) === dir) return 'gateway (version unknown)';
  }
}

class UsageError extends Error {
  override name = 'UsageError';
}

const usage = (message: string) => new UsageError(message);

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  name: { type: 'string' },
  email: { type: 'string' },
  domain: { type: 'string', multiple: true },
  'verify-domains': { type: 'boolean' },
  'verify-business': { type: 'boolean' },
  unlimited: { type: 'boolean' },
  merchant: { type: 'string' },
  environment: { type: 'string' },
  access: { type: 'string' },
  host: { type: 'string' },
  verified: { type: 'boolean' },
  'webhook-url': { type: 'string' },
  event: { type: 'string' },
  processor: { type: 'string' },
  config: { type: 'string' },
  'per-minute': { type: 'string' },
  'key-id': { type: 'string' },
  default: { type: 'boolean' },
  reference: { type: 'string' },
  platform: { type: 'string' },
  id: { type: 'string' },
  'expires-in-days': { type: 'string' },
  position: { type: 'string' },
  'max-amount': { type: 'string' },
  velocity: { type: 'string' },
  'velocity-window-minutes': { type: 'string' },
  'no-velocity': { type: 'boolean' },
  'default-velocity': { type: 'boolean' },
  currency: { type: 'string' },
  rate: { type: 'string' },
  system: { type: 'string' },
  test: { type: 'boolean' },
  receipt: { type: 'string' },
  'fiscal-id': { type: 'string' },
  'not-issued': { type: 'boolean' },
  status: { type: 'string' },
  limit: { type: 'string' },
  method: { type: 'string' },
  reason: { type: 'string' },
  pending: { type: 'boolean' },
  out: { type: 'string' },
  'forward-to': { type: 'string' },
  'api-key': { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function required(
  values: Values,
  name:
    | 'name'
    | 'merchant'
    | 'environment'
    | 'access'
    | 'host'
    | 'processor'
    | 'key-id'
    | 'reference'
    | 'platform'
    | 'id'
    | 'event'
    | 'currency'
    | 'rate'
    | 'receipt'
    | 'method'
    | 'reason'
    | 'out',
): string {
  const value = values[name];
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A whole number from `min` to `max` given as `--flag`, or undefined when the flag is absent. */
function wholeNumber(
  values: Values,
  flag: 'max-amount' | 'velocity' | 'velocity-window-minutes',
  min: number,
  max: number,
) {
  const raw = values[flag];
  if (raw === undefined) return undefined;
  if (!/^\d{1,16}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

/** The change `domain limits` asks for: a number sets, null returns to the default, undefined keeps. */
function limitsChange(values: Values): DomainLimitsChange {
  if (values.default === true && values['max-amount'] !== undefined) {
    throw new UsageError('--max-amount and --default exclude each other');
  }
  const velocityGiven = values.velocity !== undefined || values['velocity-window-minutes'] !== undefined;
  const velocityFlags = [velocityGiven, values['no-velocity'] === true, values['default-velocity'] === true];
  if (velocityFlags.filter(Boolean).length > 1) {
    throw new UsageError(
      '--velocity/--velocity-window-minutes, --no-velocity and --default-velocity exclude each other',
    );
  }
  const maxAmount = values.default === true ? null : wholeNumber(values, 'max-amount', 1, Number.MAX_SAFE_INTEGER);
  if (values['no-velocity'] === true) return { maxAmount, velocityLimit: 0 };
  if (values['default-velocity'] === true) return { maxAmount, velocityLimit: null, velocityWindowMinutes: null };
  return {
    maxAmount,
    velocityLimit: wholeNumber(values, 'velocity', 0, MAX_VELOCITY_LIMIT),
    velocityWindowMinutes: wholeNumber(values, 'velocity-window-minutes', 1, MAX_VELOCITY_WINDOW_MINUTES),
  };
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

/** What a command prints; `exitCode` 1 when it printed a refusal (a failed check) rather than a result. */
type Output = { json: unknown; text: string; exitCode?: number };

function print(out: Output, asJson: boolean): void {
  process.stdout.write(asJson ? `${JSON.stringify(out.json)}\n` : `${out.text}\n`);
}

/** A key as the audit log names it: its prefix and last four, never the key. */
function keyLabel(hint: { prefix: string; last4: string }): string {
  return `${hint.prefix}…${hint.last4}`;
}

export async function main(argv: string[]): Promise<number> {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`gateway: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  // `trigger EVENT`: the event is the command's argument, not a word of its name.
  const args = positionals[0] === 'trigger' ? positionals.splice(1) : [];
  const command = positionals.join(' ');
  if (values.version) {
    process.stdout.write(`${gatewayVersion()}\n`);
    return 0;
  }
  if (values.help || command === '' || command === 'help') {
    // `gateway key create --help`: that command's usage; otherwise the whole of it.
    const own = command === '' || command === 'help' ? null : commandUsage(USAGE, command);
    process.stdout.write(`${own ?? USAGE}\n`);
    return command === '' && !values.help ? 2 : 0;
  }
  const asJson = values.json === true;
  try {
    const config = loadConfig();
    if (command === 'serve') return await serve(config);
    if (command === 'migrate') {
      const database = openDatabase(config.databaseUrl);
      try {
        const applied = await migrateToLatest(database.db);
        print(
          {
            json: { migrations_applied: applied },
            text: applied.length === 0 ? 'Database is up to date.' : `Applied: ${applied.join(', ')}`,
          },
          asJson,
        );
      } finally {
        await database.close();
      }
      return 0;
    }
    const out = await runAccountCommand(command, values, config, args);
    print(out, asJson);
    return out.exitCode ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      // A known command's own usage; for an unknown one (after the suggestion), every command.
      const help = commandUsage(USAGE, command) ?? USAGE;
      process.stderr.write(`gateway ${command}: ${error.message}\n\n${help}\n`);
      return 2;
    }
    if (error instanceof OperatorError || error instanceof ConfigError) {
      if (asJson) process.stderr.write(`${JSON.stringify({ error: error.message })}\n`);
      else process.stderr.write(`gateway ${command}: ${error.message}\n`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`gateway ${command}: ${redactUrl(message)}\n`);
    return 1;
  }
}

async function runAccountCommand(
  command: string,
  values: Values,
  config: ReturnType<typeof loadConfig>,
  args: readonly string[],
): Promise<Output> {
  const known = [
    'merchant create',
    'merchant rate-limit',
    'key create',
    'key revoke',
    'domain add',
    'domain rotate-secret',
    'business verify',
    'business reject',
    'business list',
    'business show',
    'business document',
    'processor enable',
    'processor disable',
    'purchase credit',
    'connect-token create',
    'connect-token revoke',
    'connect-token list',
    'domain limits',
    'domain verification',
    'domain verify',
    'webhook test',
    'fx set',
    'fx remove',
    'fx list',
    'receipts enable',
    'receipts disable',
    'receipts check',
    'receipts list',
    'receipts retry',
    'receipts resolve',
    'webhook resend',
    'listen',
    'trigger',
  ];
  if (!known.includes(command)) throw new UsageError(unknownCommandMessage(command, ['serve', 'migrate', ...known]));
  // Check the command line before touching the database.
  const run = plan(command, values, args);
  const { deps, database } = await openServices({ config, logger: undefined });
  try {
    return await run(deps);
  } finally {
    await database.close();
  }
}

type Deps = Awaited<ReturnType<typeof openServices>>['deps'];

function plan(command: string, values: Values, args: readonly string[]): (deps: Deps) => Promise<Output> {
  switch (command) {
    case 'listen':
      return listen(listenInput(values, usage), {
        write: (text) => process.stdout.write(text),
        warn: (text) => process.stderr.write(`gateway listen: ${text}`),
        json: values.json === true,
      });
    case 'trigger':
      return trigger(triggerInput(args, values, usage));
    case 'merchant create': {
      const name = required(values, 'name');
      return async (deps) => {
        const created = await createMerchant(deps, {
          name,
          email: values.email,
          domains: values.domain ?? [],
          verifyDomains: values['verify-domains'] === true,
          verifyBusiness: values['verify-business'] === true,
          unlimited: values.unlimited === true,
        });
        const lines = [
          `Merchant ${created.merchant_id} created.`,
          `Hosted domain: ${created.hosted_domain}`,
          ...created.keys.map((k) => `${k.environment} key (${k.access} access, shown once): ${k.key}`),
          ...created.domains.map(
            (d) =>
              `Domain ${d.host}${d.hosted ? ' (hosted)' : ''}: ${d.verified ? 'verified' : 'not verified'}, webhook secret ${d.webhook_secret}`,
          ),
        ];
        return { json: created, text: lines.join('\n') };
      };
    }
    case 'merchant rate-limit': {
      const merchant = required(values, 'merchant');
      let perMinute: number | null;
      if (values.default === true) perMinute = null;
      else {
        const raw = values['per-minute'];
        if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < 1) {
          throw new UsageError('--per-minute must be a whole number of at least 1 (or pass --default)');
        }
        perMinute = Number(raw);
      }
      return async (deps) => {
        const result = await setRateLimit(deps, merchant, perMinute);
        return {
          json: result,
          text: `Merchant ${merchant} may send ${result.rate_limit_per_minute} requests per minute.`,
        };
      };
    }
    case 'key create': {
      const merchantId = required(values, 'merchant');
      const environment = oneOf(required(values, 'environment'), ['live', 'test'] as const, 'environment');
      const access = oneOf(required(values, 'access'), ['full', 'payments'] as const, 'access');
      return async (deps) => {
        const key = await createApiKey(deps, { merchantId, environment, access });
        await operatorAudit(deps, merchantId, 'api_key.created', keyLabel(keyHint(key.key)));
        return {
          json: key,
          text: `${environment} key (${access} access) for ${merchantId}, shown once:\n${key.key}`,
        };
      };
    }
    case 'key revoke': {
      const merchantId = required(values, 'merchant');
      const keyId = required(values, 'key-id');
      return async (deps) => {
        const hint = await deps.db
          .selectFrom('api_keys')
          .select(['key_prefix as prefix', 'key_last4 as last4'])
          .where('merchant_id', '=', merchantId)
          .where('id', '=', keyId)
          .executeTakeFirst();
        const result = await revokeApiKey(deps, { merchantId, keyId });
        await operatorAudit(deps, merchantId, 'api_key.revoked', hint === undefined ? keyId : keyLabel(hint));
        return { json: result, text: `Key ${keyId} of ${merchantId} revoked.` };
      };
    }
    case 'domain add': {
      const merchantId = required(values, 'merchant');
      const host = required(values, 'host');
      return async (deps) => {
        const domain = await addDomain(deps, {
          merchantId,
          host,
          verified: values.verified === true,
          webhookUrl: values['webhook-url'],
        });
        await operatorAudit(deps, merchantId, 'domain.added', domain.host);
        if (domain.verified) await operatorAudit(deps, merchantId, 'domain.verified', `${domain.host} (operator)`);
        return {
          json: domain,
          text: `Domain ${domain.host}: ${domain.verified ? 'verified' : 'not verified'}; webhook secret ${domain.webhook_secret}${domain.webhook_url ? `; webhooks to ${domain.webhook_url}` : ''}`,
        };
      };
    }
    case 'domain rotate-secret': {
      const merchantId = required(values, 'merchant');
      const host = required(values, 'host');
      return async (deps) => {
        const rotated = await rotateWebhookSecret(deps, { merchantId, host });
        await operatorAudit(deps, merchantId, 'webhook.secret_rotated', host);
        return {
          json: { webhook_secret: rotated.webhook_secret, webhook_secret_next: rotated.webhook_secret_next },
          text: `New webhook secret ${rotated.webhook_secret_next}: signs X-Service-Signature-Next now and replaces ${rotated.webhook_secret} at ${rotated.next_active_at}.`,
        };
      };
    }
    case 'business verify':
      return businessVerify(required(values, 'merchant'));
    case 'business reject':
      return businessReject(required(values, 'merchant'), required(values, 'reason'));
    case 'business list':
      if (values.pending !== true) throw new UsageError('--pending is required: the list shows pending requests');
      return businessListPending();
    case 'business show':
      return businessShow(required(values, 'merchant'));
    case 'business document':
      return businessDocument(required(values, 'id'), required(values, 'out'));
    case 'processor enable':
    case 'processor disable': {
      const merchantId = required(values, 'merchant');
      const host = required(values, 'host');
      const processor = required(values, 'processor');
      const enabled = command === 'processor enable';
      const rawPosition = values.position;
      if (rawPosition !== undefined && !/^\d{1,4}$/.test(rawPosition)) {
        throw new UsageError('--position must be a whole number from 0 to 1000');
      }
      const position = rawPosition === undefined ? undefined : Number(rawPosition);
      return async (deps) => {
        const result = await setProcessorEnabled(deps, {
          merchantId,
          host,
          processor,
          enabled,
          config: values.config,
          position,
        });
        const subject = `${processor} on ${result.host}`;
        if (enabled && values.config !== undefined) {
          await operatorAudit(deps, merchantId, 'processor.configured', subject);
        }
        await operatorAudit(deps, merchantId, enabled ? 'processor.enabled' : 'processor.disabled', subject);
        return { json: result, text: `${processor} ${enabled ? 'enabled' : 'disabled'} for ${result.host}.` };
      };
    }
    case 'purchase credit':
      return purchaseCredit(required(values, 'reference'));
    case 'domain verification':
      return domainVerification(required(values, 'merchant'), required(values, 'host'));
    case 'domain verify':
      return domainVerify(
        required(values, 'merchant'),
        required(values, 'host'),
        oneOf(required(values, 'method'), VERIFICATION_METHODS, 'method'),
      );
    case 'webhook test':
      return webhookTest(required(values, 'merchant'), required(values, 'host'));
    case 'domain limits':
      return domainLimits(required(values, 'merchant'), required(values, 'host'), limitsChange(values));
    case 'fx set':
      return fxSet(required(values, 'currency'), required(values, 'rate'));
    case 'fx remove':
      return fxRemove(required(values, 'currency'));
    case 'fx list':
      return fxList(values.currency);
    case 'receipts enable': {
      if (values.test === true && (values.config !== undefined || values.system !== undefined)) {
        throw new UsageError('--test excludes --config and --system');
      }
      if (values.test !== true && values.config === undefined)
        throw new UsageError('--config JSON (or --test) is required');
      const system = values.test === true ? 'test' : (values.system ?? 'ehdm');
      return receiptsEnable(required(values, 'merchant'), required(values, 'host'), system, values.config);
    }
    case 'receipts disable':
      return receiptsDisable(required(values, 'merchant'), required(values, 'host'));
    case 'receipts check':
      return receiptsCheck(required(values, 'merchant'), required(values, 'host'));
    case 'receipts list': {
      const raw = values.limit ?? '50';
      if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > 1000) {
        throw new UsageError('--limit must be a whole number from 1 to 1000');
      }
      return receiptsList(required(values, 'merchant'), values.status, Number(raw));
    }
    case 'receipts retry':
      return receiptsRetry(required(values, 'receipt'));
    case 'receipts resolve':
      return receiptsResolve(required(values, 'receipt'), values['fiscal-id'], values['not-issued'] === true);
    case 'connect-token create': {
      const merchantId = required(values, 'merchant');
      const domains = values.domain ?? [];
      if (domains.length > 1) throw new UsageError('--domain may be given once: a token is bound to one domain');
      const domain = domains[0];
      if (domain === undefined || domain === '') throw new UsageError('--domain is required');
      const platform = oneOf(required(values, 'platform'), CONNECT_PLATFORMS, 'platform');
      const environment = oneOf(values.environment ?? 'test', ['test', 'live'] as const, 'environment');
      const rawDays = values['expires-in-days'];
      let expiresInDays: number | undefined;
      if (rawDays !== undefined) {
        if (!/^\d+$/.test(rawDays) || Number(rawDays) < 1 || Number(rawDays) > MAX_CONNECT_TOKEN_DAYS) {
          throw new UsageError(`--expires-in-days must be a whole number from 1 to ${MAX_CONNECT_TOKEN_DAYS}`);
        }
        expiresInDays = Number(rawDays);
      }
      return async (deps) => {
        const created = await createConnectToken(deps, { merchantId, domain, platform, environment, expiresInDays });
        await operatorAudit(
          deps,
          merchantId,
          'connect_token.created',
          `${created.id} (${platform}, ${created.domain})`,
        );
        return {
          json: created,
          text: `${environment} connect token ${created.id} for ${created.domain} (${platform}), valid until ${created.expires_at}, shown once:\n${created.connect_token}`,
        };
      };
    }
    case 'connect-token revoke': {
      const id = required(values, 'id');
      return async (deps) => {
        const before = await findConnectTokenWithAccount(deps.db, id);
        const revoked = await revokeConnectToken(deps, id);
        if (before !== undefined && before.revoked_at === null) {
          const subject = `${id} (${before.platform}, ${before.domain_host ?? '-'})`;
          await operatorAudit(deps, before.merchant_id, 'connect_token.revoked', subject);
        }
        return { json: revoked, text: `Connect token ${id} revoked at ${revoked.revoked_at}.` };
      };
    }
    case 'connect-token list': {
      const merchantId = required(values, 'merchant');
      return async (deps) => {
        const listed = await listConnectTokens(deps, merchantId);
        const lines = listed.connect_tokens.map(
          (t) =>
            `${t.id}  ${t.environment}  ${t.platform}  ${t.domain ?? '(domain gone)'}  expires ${t.expires_at}${t.revoked_at === null ? '' : `  revoked ${t.revoked_at}`}`,
        );
        return {
          json: listed,
          text: lines.length === 0 ? `Merchant ${merchantId} has no connect tokens.` : lines.join('\n'),
        };
      };
    }
    case 'webhook resend': {
      const eventId = required(values, 'event');
      return async (deps) => {
        try {
          const resent = await resendEvent(deps, eventId);
          return {
            json: resent,
            text: `Event ${resent.event_id} queued again as delivery ${resent.delivery_id} to ${resent.url}.`,
          };
        } catch (error) {
          if (error instanceof ApiError) throw new OperatorError(error.message);
          throw error;
        }
      };
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}
