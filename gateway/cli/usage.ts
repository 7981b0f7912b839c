/**
 * The command line's help: the whole usage, the part of it about one command or one group of
 * commands (`gateway key create --help`, `gateway merchant`), and what to suggest for a command
 * that does not exist (the nearest command names).
 */

export const USAGE = `Usage: gateway <command> [options] [--json]

Commands:
  serve                                   migrate, then serve HTTP on $HOST:$PORT
  --version                               print the version
  <command> --help                        that command's usage
  migrate                                 apply pending database migrations
  merchant create --name N [--email E] [--domain HOST ...] [--verify-domains]
                  [--verify-business] [--unlimited]
  merchant list                           every merchant: id, hosted domain, business, name
  merchant rate-limit --merchant ID (--per-minute N | --default)
  key create --merchant ID --environment live|test --access full|payments
  key list --merchant ID                  the merchant's keys, newest first (never a key itself)
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
 * The usage lines of `words` in `usage` (a whole command, or a group's first word): each command
 * line it begins, with the indented lines that continue it.
 */
export function commandUsage(usage: string, words: string): string | null {
  const own: string[] = [];
  let inside = false;
  for (const line of usage.split('\n')) {
    if (/^ {2}\S/.test(line)) {
      // A command's line: two spaces, then the command.
      inside = line === `  ${words}` || line.startsWith(`  ${words} `);
      if (inside) own.push(`${own.length === 0 ? 'Usage: ' : '       '}gateway ${line.slice(2)}`);
    } else if (inside && /^ {3,}\S/.test(line)) {
      // A continuation is indented deeper than a command's two spaces.
      own.push(`       ${line.slice(2)}`);
    } else {
      inside = false;
    }
  }
  return own.length === 0 ? null : own.join('\n');
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

/** The commands to suggest for `typed`: those at most 3 edits away, nearest first. */
export function suggestions(typed: string, commands: readonly string[]): string[] {
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
