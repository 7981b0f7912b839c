/**
 * The command line's help: the whole usage, one command's part of it (`gateway key create --help`),
 * and what to suggest for a command that does not exist (a group's commands for a bare group word,
 * else the nearest command names).
 */

/** The usage lines of `command` in `usage`: its line and the indented lines that continue it. */
export function commandUsage(usage: string, command: string): string | null {
  const lines = usage.split('\n');
  const start = lines.findIndex((line) => line === `  ${command}` || line.startsWith(`  ${command} `));
  if (start === -1) return null;
  const own = [lines[start] ?? ''];
  for (const line of lines.slice(start + 1)) {
    // A continuation is indented deeper than a command's two spaces; a blank line ends the list.
    if (!/^ {3,}\S/.test(line)) break;
    own.push(line);
  }
  return `Usage: gateway ${own.map((line) => line.slice(2)).join('\n       ')}`;
}

/** Levenshtein distance between two short strings. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The commands to suggest for `typed`: a group's commands, else those at most 3 edits away (nearest first). */
export function suggestions(typed: string, commands: readonly string[]): string[] {
  const group = commands.filter((command) => command.startsWith(`${typed} `));
  if (group.length > 0) return group;
  return commands
    .map((command) => ({ command, d: distance(typed, command) }))
    .filter(({ d }) => d <= 3)
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map(({ command }) => command);
}

/** The refusal of an unknown command, with what was probably meant. */
export function unknownCommandMessage(typed: string, commands: readonly string[]): string {
  const near = suggestions(typed, commands);
  if (near.length === 0) return `unknown command "${typed}"`;
  return `unknown command "${typed}"; did you mean ${near
    .map((c) => `"${c}"`)
    .join(', ')
    .replace(/, ([^,]*)$/, ' or $1')}?`;
}
