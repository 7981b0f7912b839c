/**
 * What a command of `bin/gateway` is: from its checked command line, the work to run against the
 * services (opened by `main` once the command line is known to be right), answering what to print.
 * Each family of commands (`commands/<family>.ts`) exports a table of its commands by name. A few
 * commands open what they need themselves (`serve`, `migrate`): they are `StandaloneCommand`s.
 */
import type { Config } from '../config.js';
import type { Deps } from '../runtime/deps.js';
import type { CliIo } from './io.js';
import type { Values } from './options.js';

/**
 * What a command prints: `json` with `--json`, else `text`; `exitCode` 1 when it printed a refusal
 * (a failed check).
 */
export interface Output {
  readonly json: unknown;
  readonly text: string;
  readonly exitCode?: number;
}

/**
 * What a command may use besides the services: the streams (for a command that prints as it goes)
 * and whether `--json` was given.
 */
export interface RunContext {
  readonly io: CliIo;
  readonly json: boolean;
}

export type Run = (deps: Deps, context: RunContext) => Promise<Output>;

/**
 * Checks the command line (throwing `UsageError`) before anything is opened; answers the work.
 * `args` are the words after the command's name, which only `trigger EVENT` takes.
 */
export type Command = (values: Values, args: readonly string[]) => Run;

/** Commands by their words: `'key create'`. */
export type CommandTable = Readonly<Record<string, Command>>;

export interface StandaloneContext {
  readonly config: Config;
  readonly io: CliIo;
  readonly json: boolean;
}

/** A command that opens what it needs itself and answers its exit code. */
export type StandaloneCommand = (values: Values, context: StandaloneContext) => Promise<number>;

/** Prints a command's answer: its JSON on one line with `--json`, else its text. */
export function printOutput(io: CliIo, out: Output, json: boolean): void {
  io.stdout.write(json ? `${JSON.stringify(out.json)}\n` : `${out.text}\n`);
}
