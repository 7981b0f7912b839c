/**
 * `bin/gateway`: the operator's command line. Every command accepts `--json` for machine output
 * (the shapes are a contract, see README "CLI"). Exit codes: 0 done, 1 the operation was refused,
 * 2 the command line itself is wrong.
 *
 * This file reads the command line and hands it to the command: the commands live in
 * `commands/<family>.ts`, each family a table of its commands by name, listed below.
 */
import { redactUrl } from '../../storage/connect.js';
import { ConfigError, loadConfig } from '../config.js';
import { OperatorError } from '../merchants/operator.js';
import { createLogger } from '../runtime/logger.js';
import { openServices } from '../runtime/start.js';
import { type CommandTable, printOutput, type StandaloneCommand } from './command.js';
import { businessCommands } from './commands/business.js';
import { connectTokenCommands } from './commands/connect-token.js';
import { domainCommands } from './commands/domain.js';
import { fxCommands } from './commands/fx.js';
import { keyCommands } from './commands/key.js';
import { localWebhookCommands } from './commands/local-webhooks.js';
import { merchantCommands } from './commands/merchant.js';
import { migrate } from './commands/migrate.js';
import { processorCommands } from './commands/processor.js';
import { purchaseCommands } from './commands/purchase.js';
import { receiptsCommands } from './commands/receipts.js';
import { serve } from './commands/serve.js';
import { webhookCommands } from './commands/webhook.js';
import { type CliIo, PROCESS_IO } from './io.js';
import { parseCommandLine, UsageError, type Values } from './options.js';
import { commandUsage, USAGE, unknownCommandMessage } from './usage.js';
import { gatewayVersion } from './version.js';

/** Commands that open what they need themselves. */
const STANDALONE: Readonly<Record<string, StandaloneCommand>> = {
  serve,
  migrate,
};

/** Commands run against the services, which `main` opens once the command line is known to be right. */
const COMMANDS: CommandTable = {
  ...merchantCommands,
  ...keyCommands,
  ...domainCommands,
  ...webhookCommands,
  ...businessCommands,
  ...connectTokenCommands,
  ...processorCommands,
  ...purchaseCommands,
  ...fxCommands,
  ...receiptsCommands,
  ...localWebhookCommands,
};

const KNOWN = [...Object.keys(STANDALONE), ...Object.keys(COMMANDS)];

/** The first words of commands of several words (`merchant`, `key`, ...): alone, they print their commands' usage. */
const GROUPS = new Set(KNOWN.filter((name) => name.includes(' ')).map((name) => name.split(' ')[0]));

/**
 * Runs one command line. `io` is the process's streams and environment for `bin/gateway`; tests
 * pass their own, so that runs in one process neither share output nor touch `process.env`.
 */
export async function main(argv: readonly string[], io: CliIo = PROCESS_IO): Promise<number> {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    io.stderr.write(`gateway: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  // `trigger EVENT`: the event is the command's argument, not a word of its name.
  const args = positionals[0] === 'trigger' ? positionals.slice(1) : [];
  const command = (positionals[0] === 'trigger' ? positionals.slice(0, 1) : positionals).join(' ');
  if (values.version) {
    io.stdout.write(`${gatewayVersion()}\n`);
    return 0;
  }
  const bare = command === '' || command === 'help';
  if (values.help || bare || GROUPS.has(command)) {
    // `gateway key create --help`: that command's usage; `gateway merchant`: its group's; else all of it.
    const own = bare ? null : commandUsage(USAGE, command);
    io.stdout.write(`${own ?? USAGE}\n`);
    return values.help || command === 'help' ? 0 : 2;
  }
  const json = values.json === true;
  try {
    const config = loadConfig(io.env);
    const standalone = STANDALONE[command];
    if (standalone !== undefined) return await standalone(values, { config, io, json });
    const plan = COMMANDS[command];
    if (plan === undefined) throw new UsageError(unknownCommandMessage(command, KNOWN));
    // Check the command line before touching the database.
    const work = plan(values, args);
    const { deps, database } = await openServices({ config, logger: createLogger(config.logLevel, io.logs) });
    try {
      const out = await work(deps, { io, json });
      printOutput(io, out, json);
      return out.exitCode ?? 0;
    } finally {
      deps.processorHttp.close();
      await database.close();
    }
  } catch (error) {
    if (error instanceof UsageError) {
      // A known command's own usage; for an unknown one (after the suggestion), every command.
      const help = commandUsage(USAGE, command) ?? USAGE;
      io.stderr.write(`gateway ${command}: ${error.message}\n\n${help}\n`);
      return 2;
    }
    if (error instanceof OperatorError || error instanceof ConfigError) {
      if (json) io.stderr.write(`${JSON.stringify({ error: error.message })}\n`);
      else io.stderr.write(`gateway ${command}: ${error.message}\n`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`gateway ${command}: ${redactUrl(message)}\n`);
    return 1;
  }
}
