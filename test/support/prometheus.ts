/**
 * Reads a `/metrics` answer in the Prometheus text format (version 0.0.4) the way a scraper does:
 * `# HELP`/`# TYPE` lines and one sample a line, `name{label="value",...} number`.
 */
import { expect } from 'vitest';

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Scrape {
  readonly samples: readonly Sample[];
  /** `# TYPE` of each metric family. */
  readonly types: ReadonlyMap<string, string>;
  /**
   * The value of the one sample named `name` whose labels include `labels` (summed when several
   * match); 0 when none does, as a counter not yet incremented reads.
   */
  value(name: string, labels?: Record<string, string>): number;
  /** Every sample of `name` whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function unescapeLabel(value: string): string {
  return value.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

export function parsePrometheus(text: string): Scrape {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type?.[1] !== undefined && type[2] !== undefined) types.set(type[1], type[2]);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (match === null) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) {
      if (name !== undefined && value !== undefined) labels[name] = unescapeLabel(value);
    }
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  const find = (name: string, labels: Record<string, string> = {}) =>
    samples.filter(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
  return {
    samples,
    types,
    find,
    value: (name, labels = {}) => find(name, labels).reduce((sum, sample) => sum + sample.value, 0),
  };
}

/** `GET <url>` with the bearer token; checks the answer is Prometheus text and parses it. */
export async function scrape(url: string, token: string): Promise<Scrape> {
  const answer = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  const text = await answer.text();
  expect(answer.status, text).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheus(text);
}
