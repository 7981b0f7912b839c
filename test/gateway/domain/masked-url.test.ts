/**
 * The one rule for showing a webhook target (docs/decisions.md "Webhook URLs as people see them"):
 * `maskedUrl` hides what could be a credential (user name, password, query values, a query item
 * without a name, the fragment) and keeps what lets the merchant recognise the target (scheme, host,
 * port, path, the names of the query parameters as written); `webhookUrlShownTo` gives it in clear
 * only to readers who may see secrets (`maySeeSecrets`): full-access keys, owners and admins, the
 * operator.
 */
import { describe, expect, it } from 'vitest';
import { maySeeSecrets, type SecretReader } from '../../../gateway/domain/access.js';
import { maskedUrl, webhookUrlShownTo } from '../../../gateway/domain/masked-url.js';

describe('maskedUrl', () => {
  it.each([
    // user name and password
    ['https://user:pass@hooks.example/x?token=abc', 'https://***:***@hooks.example/x?token=***'],
    // a user name alone is often the token itself (`https://TOKEN@host`)
    ['https://user@hooks.example/x', 'https://***@hooks.example/x'],
    // a password without a user name
    ['https://:pass@hooks.example/x', 'https://:***@hooks.example/x'],
    // several parameters, a repeated one, an empty value: names kept in order, every value hidden
    ['https://hooks.example/x?a=1&b=two&a=3&empty=', 'https://hooks.example/x?a=***&b=***&a=***&empty=***'],
    // no query, and an empty one
    ['https://hooks.example/x/y', 'https://hooks.example/x/y'],
    ['https://hooks.example/x?', 'https://hooks.example/x?'],
    ['https://hooks.example', 'https://hooks.example/'],
    // a fragment is dropped whole (it may hold a token and is never sent)
    ['https://hooks.example/x#secret-fragment', 'https://hooks.example/x'],
    ['https://hooks.example/x?token=abc#frag', 'https://hooks.example/x?token=***'],
    // URL-encoded characters: names kept as the merchant wrote them, values hidden whole
    [
      'https://hooks.example/p%20q/x?na%20me=v%26al&a+b=c%3Dd&t=a%2Fb',
      'https://hooks.example/p%20q/x?na%20me=***&a+b=***&t=***',
    ],
    ['https://us%40er:p%3Ass@hooks.example/x', 'https://***:***@hooks.example/x'],
    // a query item without "=" may be the token itself (`?3f9c...`): hidden, not kept as a name
    ['https://hooks.example/x?3f9c0d1e2a&mode=live', 'https://hooks.example/x?***&mode=***'],
    // IPv6 and IPv4 hosts with ports
    ['https://u:p@[2001:db8::1]:8443/x?k=v', 'https://***:***@[2001:db8::1]:8443/x?k=***'],
    ['http://127.0.0.1:3000/hooks?token=abc', 'http://127.0.0.1:3000/hooks?token=***'],
    // scheme and host are normalised as the URL parser does (a receiver sees the same)
    ['HTTPS://Hooks.Example/X?Token=abc', 'https://hooks.example/X?Token=***'],
  ])('%s -> %s', (raw, shown) => {
    expect(maskedUrl(raw)).toBe(shown);
  });

  it('never answers the password, a query value or the fragment', () => {
    const shown = maskedUrl('https://alice:s3cr3t-pw@hooks.example/x?token=t0k3n&sig=abc#fr4g') ?? '';
    for (const secret of ['alice', 's3cr3t-pw', 't0k3n', 'abc', 'fr4g']) expect(shown).not.toContain(secret);
    expect(shown).toContain('hooks.example/x');
    expect(shown).toContain('token=');
    expect(shown).toContain('sig=');
  });

  it('reads a relative location against a base (a redirect)', () => {
    expect(maskedUrl('/moved?token=abc', new URL('https://u:p@hooks.example/x'))).toBe(
      'https://***:***@hooks.example/moved?token=***',
    );
  });

  it('answers null for text that is not a URL', () => {
    expect(maskedUrl('not a url')).toBeNull();
    expect(maskedUrl('')).toBeNull();
  });
});

describe('maySeeSecrets', () => {
  it.each<[SecretReader, boolean]>([
    [{ kind: 'api_key', access: 'full' }, true],
    [{ kind: 'api_key', access: 'payments' }, false],
    [{ kind: 'connect_token' }, false],
    [{ kind: 'dashboard_member', role: 'owner' }, true],
    [{ kind: 'dashboard_member', role: 'admin' }, true],
    [{ kind: 'dashboard_member', role: 'viewer' }, false],
    [{ kind: 'operator' }, true],
  ])('%j: %s', (reader, may) => {
    expect(maySeeSecrets(reader)).toBe(may);
  });
});

describe('webhookUrlShownTo', () => {
  const url = 'https://user:pass@hooks.example/x?token=abc';

  it('shows the URL as set to a reader who may see secrets', () => {
    expect(webhookUrlShownTo({ kind: 'api_key', access: 'full' }, url)).toBe(url);
    expect(webhookUrlShownTo({ kind: 'dashboard_member', role: 'admin' }, url)).toBe(url);
  });

  it('masks it for anyone else', () => {
    const masked = 'https://***:***@hooks.example/x?token=***';
    expect(webhookUrlShownTo({ kind: 'api_key', access: 'payments' }, url)).toBe(masked);
    expect(webhookUrlShownTo({ kind: 'connect_token' }, url)).toBe(masked);
    expect(webhookUrlShownTo({ kind: 'dashboard_member', role: 'viewer' }, url)).toBe(masked);
  });

  it('hides text that is not a URL whole rather than showing it', () => {
    expect(webhookUrlShownTo({ kind: 'connect_token' }, 'token=abc not a url')).toBe('***');
  });
});
