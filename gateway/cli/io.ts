/**
 * What a run of the command line reads and writes besides its arguments. `bin/gateway` runs with
 * the process's own streams and environment (`PROCESS_IO`); tests run `main(argv, io)` in their own
 * process with streams that collect the output and an environment of their own, so runs side by
 * side never share (or change) `process.env`.
 */
import type { DestinationStream } from 'pino';

export interface TextSink {
  write(text: string): unknown;
}

export interface CliIo {
  /** The answer: `--json` objects, tables, messages. */
  readonly stdout: TextSink;
  /** Refusals and usage errors. */
  readonly stderr: TextSink;
  /** The configuration variables (README "Configuration"); nothing else is read from the environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where log lines go; default: the process's stdout, written asynchronously (runtime/logger.ts). */
  readonly logs?: DestinationStream;
}

export const PROCESS_IO: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };
