/**
 * Test webhooks on a developer's machine: `gateway listen` forwards the account's test events to a
 * local address (listen.ts), `gateway trigger EVENT` makes one (trigger.ts).
 */
import type { CommandTable } from '../command.js';
import { UsageError } from '../options.js';
import { listen, listenInput } from './listen.js';
import { trigger, triggerInput } from './trigger.js';

const usage = (message: string) => new UsageError(message);

export const localWebhookCommands: CommandTable = {
  listen: (values) => {
    const input = listenInput(values, usage);
    return (deps, { io, json }) =>
      listen(input, {
        write: (text) => io.stdout.write(text),
        warn: (text) => io.stderr.write(`gateway listen: ${text}`),
        json,
      })(deps);
  },
  trigger: (values, args) => {
    const input = triggerInput(args, values, usage);
    return (deps) => trigger(input)(deps);
  },
};
