/**
 * WooCommerce's key exchange as the fake store runs it: `WC_Auth` (includes/class-wc-auth.php,
 * WooCommerce 9.x) with its templates `auth/form-login.php` and `auth/form-grant-access.php`, and the
 * checks WordPress makes before it posts the keys (`wp_safe_remote_post` -> `wp_http_validate_url`,
 * wp-includes/http.php, then certificate verification against its CA bundle).
 *
 * The steps, as a browser sees them:
 * 1. `GET /wc-auth/v1/authorize?app_name&scope&user_id&return_url&callback_url`: the query is
 *    validated first on every route (`make_validation`: each parameter present, scope one of
 *    read/write/read_write, both URLs valid, the callback `https://` - "The callback_url needs to be
 *    over SSL"); a visitor who is not logged in is redirected to `/wc-auth/v1/login?...`.
 * 2. `GET /wc-auth/v1/login?...`: the login form (fields `username`, `password`,
 *    `woocommerce-login-nonce`, `login`, `redirect` = the authorize URL), posted to the same URL;
 *    `WC_Form_Handler::process_login` logs the owner in and redirects to `redirect`.
 * 3. `GET /wc-auth/v1/authorize?...` again, logged in as a user who can `manage_woocommerce`: the
 *    grant screen, whose "Approve" button is a link to `/wc-auth/v1/access_granted?...&wc_auth_nonce=`
 *    (a GET, as in WooCommerce: `wp_nonce_url(build_url($data, 'access_granted'), 'wc_auth_grant_access',
 *    'wc_auth_nonce')`) and whose "Deny" link is `return_url?success=0&user_id=`.
 * 4. `GET /wc-auth/v1/access_granted?...&wc_auth_nonce=`: the nonce is checked ("Invalid nonce
 *    verification"), a key pair is created, POSTed as JSON to the callback (60 s timeout), and the owner
 *    is redirected to `return_url?success=1&user_id=`. Any failure deletes the key and answers
 *    WordPress's `wp_die` page: 401 "Error: <message>.".
 *
 * Before posting, WordPress refuses ("A valid URL was not provided.") a callback on a port other than
 * 80, 443 and 8080 (unless it is the home URL's own host and port), and on a host that is an address
 * of a private network or loopback (127/8, 10/8, 172.16/12, 192.168/16, 0/8) or does not resolve,
 * unless it is the store's own host. A certificate WordPress does not trust fails the post ("cURL
 * error 60: SSL certificate problem: ...").
 *
 * Tests run everything on 127.0.0.1 over http, which a real store refuses. The fake therefore has an
 * explicit test switch, `testCallbacks` (see FakeAuthOptions): named hosts skip the port and address
 * rules, as WordPress's `http_allowed_safe_ports` and `http_request_host_is_external` filters would
 * let them, and may use http when `overHttp` is set (WooCommerce's own https rule has no filter).
 * Without it every callback meets the real rules. `trustedCertificates` adds a test CA.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIPv4 } from 'node:net';
import { rootCertificates } from 'node:tls';

/** The test switch of the fake's key exchange; WooCommerce has no such thing. */
export interface TestCallbacks {
  /** Callback hosts delivered to whatever their port and address (a private or loopback one included). */
  readonly hosts: readonly string[];
  /** Those hosts may be called over http too. */
  readonly overHttp?: boolean;
}

export interface FakeAuthOptions {
  /** Test switch: see TestCallbacks. Default none: every callback meets WooCommerce's rules. */
  readonly testCallbacks?: TestCallbacks;
  /** PEM certificates WordPress trusts besides the public CAs (Node's root store): a test CA. */
  readonly trustedCertificates?: readonly string[];
  /** How a callback host resolves (`gethostbyname`: one IPv4 address, or null). Default: the system resolver. */
  readonly resolveHost?: (host: string) => Promise<string | null>;
  /** The shop owner's login. Default `admin` / `owner-password`. */
  readonly owner?: { readonly username: string; readonly password: string };
}

/** The callbacks of local tests: the connector on 127.0.0.1 over http, any port. */
export const LOOPBACK_TEST_CALLBACKS: TestCallbacks = { hosts: ['127.0.0.1', 'localhost'], overHttp: true };

export type CallbackRefusalReason =
  | 'not_https'
  | 'port_not_allowed'
  | 'host_not_public'
  | 'certificate_not_trusted'
  | 'unreachable'
  | 'not_200';

/** Why a key delivery did not happen (the page shows WordPress's wording; tests read this). */
export interface CallbackRefusal {
  readonly callbackUrl: string;
  readonly reason: CallbackRefusalReason;
}

export interface DeliveredKeyPair {
  readonly keyId: number;
  readonly consumerKey: string;
  readonly consumerSecret: string;
  readonly permissions: 'read' | 'write' | 'read_write';
}

export interface FakeAuthStore {
  /** The store's home URL. */
  url(): string;
  issueKeys(permissions: DeliveredKeyPair['permissions']): DeliveredKeyPair;
  deleteKey(consumerKey: string): void;
}

export interface FakeAuth {
  /** Handles `/wc-auth/v1/*`; answers false when the path is not one of them. */
  handle(request: IncomingMessage, response: ServerResponse, target: URL, body: string): Promise<boolean>;
  /** Plays the shop owner through login, the grant screen and Approve; answers the final redirect. */
  approve(authorizeUrl: string): Promise<string>;
  /** Plays the shop owner pressing Deny; answers where WooCommerce sends them. */
  deny(authorizeUrl: string): Promise<string>;
  readonly refusals: CallbackRefusal[];
}

const AUTH_PREFIX = '/wc-auth/v1/';
const PARAMS = ['app_name', 'user_id', 'return_url', 'callback_url', 'scope'] as const;
const SAFE_PORTS = [80, 443, 8080];
const OWNER = { username: 'admin', password: 'owner-password' };

class AuthError extends Error {}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#039;');
}

function unescapeHtml(value: string): string {
  return value
    .replaceAll('&quot;', '"')
    .replaceAll('&#039;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&#038;', '&')
    .replaceAll('&amp;', '&');
}

/** PHP's urldecode: `+` is a space; a malformed sequence is left as it is. */
function phpUrlDecode(value: string): string {
  const spaced = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** PHP's rawurlencode (RFC 3986). */
function rawUrlEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** WC_Auth::get_formatted_url(): decoded once more, `https://` added when there is no scheme. */
function formattedUrl(value: string): string {
  const decoded = phpUrlDecode(value);
  return decoded.includes('://') ? decoded : `https://${decoded}`;
}

/** add_query_arg(): sets the keys on the URL, keeping the rest of it. */
function withQuery(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  return target.toString();
}

function isPrivateIpv4(ip: string): boolean {
  const [a = -1, b = -1] = ip.split('.').map(Number);
  return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

async function systemResolve(host: string): Promise<string | null> {
  try {
    return (await lookup(host, { family: 4 })).address;
  } catch {
    return null;
  }
}

interface Session {
  readonly token: string;
  readonly username: string;
}

export function createFakeAuth(store: FakeAuthStore, options: FakeAuthOptions = {}): FakeAuth {
  const owner = options.owner ?? OWNER;
  const resolveHost = options.resolveHost ?? systemResolve;
  const testHosts = new Set((options.testCallbacks?.hosts ?? []).map((host) => host.toLowerCase()));
  const testOverHttp = options.testCallbacks?.overHttp === true;
  const ca = [...rootCertificates, ...(options.trustedCertificates ?? [])];
  const nonceSalt = randomBytes(16).toString('hex');
  const sessions = new Map<string, Session>();
  const refusals: CallbackRefusal[] = [];
  const cookieName = `wordpress_logged_in_${createHmac('md5', nonceSalt).update('site').digest('hex')}`;

  /** wp_create_nonce(): bound to the action, the user and their session, valid for a day. */
  function nonce(action: string, session: Session | null): string {
    const tick = Math.ceil(Date.now() / 1000 / (86_400 / 2));
    const user = session?.username ?? '';
    return createHmac('md5', nonceSalt)
      .update(`${tick}|${action}|${user}|${session?.token ?? ''}`)
      .digest('hex')
      .slice(-12, -2);
  }

  function sessionOf(request: IncomingMessage): Session | null {
    const cookies = request.headers.cookie ?? '';
    for (const part of cookies.split(';')) {
      const [name, value = ''] = part.trim().split('=');
      if (name === cookieName) return sessions.get(value) ?? null;
    }
    return null;
  }

  /** WC_Auth::make_validation(), on every route. */
  function validate(query: URLSearchParams): Record<(typeof PARAMS)[number], string> {
    const data = {} as Record<(typeof PARAMS)[number], string>;
    for (const param of PARAMS) {
      const value = query.get(param);
      // PHP's empty(): '' and '0' count as missing.
      if (value === null || value === '' || value === '0') throw new AuthError(`Missing parameter ${param}`);
      data[param] = value;
    }
    if (!['read', 'write', 'read_write'].includes(data.scope)) throw new AuthError(`Invalid scope ${data.scope}`);
    for (const param of ['return_url', 'callback_url'] as const) {
      const formatted = formattedUrl(data[param]);
      if (!URL.canParse(formatted)) throw new AuthError(`The ${formatted} is not a valid URL`);
    }
    const callback = formattedUrl(data.callback_url);
    const overHttp = testOverHttp && callback.toLowerCase().startsWith('http://') && testHosts.has(hostOf(callback));
    if (!callback.toLowerCase().startsWith('https://') && !overHttp) {
      throw new AuthError('The callback_url needs to be over SSL');
    }
    return data;
  }

  function hostOf(url: string): string {
    try {
      return new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
    } catch {
      return '';
    }
  }

  /** WC_Auth::build_url(): the route's URL with the exchange's query. */
  function buildUrl(data: Record<(typeof PARAMS)[number], string>, route: string): string {
    const url = new URL(`${store.url()}${AUTH_PREFIX}${route}`);
    url.searchParams.set('app_name', data.app_name);
    url.searchParams.set('user_id', data.user_id);
    url.searchParams.set('return_url', rawUrlEncode(formattedUrl(data.return_url)));
    url.searchParams.set('callback_url', rawUrlEncode(formattedUrl(data.callback_url)));
    url.searchParams.set('scope', data.scope);
    return url.toString();
  }

  /** wp_http_validate_url() with the test switch; null when the callback may be called. */
  async function unsafeReason(callbackUrl: string): Promise<CallbackRefusalReason | null> {
    const callback = new URL(callbackUrl);
    const home = new URL(store.url());
    const host = hostOf(callbackUrl);
    if (testHosts.has(host)) return null;
    const sameHost = host === home.hostname.toLowerCase();
    if (!sameHost) {
      const ip = isIPv4(host) ? host : await resolveHost(host);
      if (ip === null || isPrivateIpv4(ip)) return 'host_not_public';
    }
    if (callback.port === '') return null;
    const port = Number(callback.port);
    if (SAFE_PORTS.includes(port)) return null;
    if (sameHost && home.port !== '' && Number(home.port) === port) return null;
    return 'port_not_allowed';
  }

  /** Posts the keys as WC_Auth::post_consumer_data() does; throws the message the page shows. */
  async function postConsumerData(data: Record<string, unknown>, callbackUrl: string): Promise<void> {
    const refuse = (reason: CallbackRefusalReason, message: string): never => {
      refusals.push({ callbackUrl, reason });
      throw new AuthError(message);
    };
    const unsafe = await unsafeReason(callbackUrl);
    if (unsafe !== null) refuse(unsafe, 'A valid URL was not provided.');
    const target = new URL(callbackUrl);
    const body = JSON.stringify(data);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = send(
        target,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': Buffer.byteLength(body) },
          timeout: 60_000,
          ...(target.protocol === 'https:' ? { ca } : {}),
        },
        (answer) => {
          answer.resume();
          answer.on('end', () => resolve(answer.statusCode ?? 0));
          answer.on('error', reject);
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error('Operation timed out after 60000 milliseconds')));
      outgoing.on('error', reject);
      outgoing.end(body);
    }).catch((error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
        return refuse('certificate_not_trusted', `cURL error 60: SSL certificate problem: ${error.message}`);
      }
      return refuse('unreachable', `cURL error 7: Failed to connect to ${target.host}: ${error.message}`);
    });
    if (status !== 200) {
      refuse('not_200', 'An error occurred in the request and at the time were unable to send the consumer data');
    }
  }

  function page(response: ServerResponse, status: number, title: string, content: string, headers = {}): void {
    const html = `<!DOCTYPE html><html lang="en-US"><head><meta charset="UTF-8"><title>${escapeHtml(title)}</title></head><body class="wc-auth wp-core-ui">${content}</body></html>`;
    response.writeHead(status, { 'Content-Type': 'text/html; charset=UTF-8', ...headers });
    response.end(html);
  }

  function redirect(response: ServerResponse, location: string, headers: Record<string, string> = {}): void {
    response.writeHead(302, { Location: location, ...headers });
    response.end();
  }

  /** wp_die(sprintf('Error: %s.', $message), 'Access denied', 401). */
  function die(response: ServerResponse, message: string): void {
    page(response, 401, 'Access denied', `<div class="wp-die-message">Error: ${escapeHtml(message)}.</div>`);
  }

  function loginForm(
    response: ServerResponse,
    data: Record<(typeof PARAMS)[number], string>,
    notice: string | null,
  ): void {
    const deny = withQuery(formattedUrl(data.return_url), { success: '0', user_id: data.user_id });
    page(
      response,
      200,
      'Log in',
      `<h1>${escapeHtml(data.app_name)} would like to connect to your store</h1>` +
        (notice === null ? '' : `<ul class="woocommerce-error" role="alert"><li>${escapeHtml(notice)}</li></ul>`) +
        `<p>To connect to ${escapeHtml(data.app_name)} you need to be logged in. Log in to your store below, or <a href="${escapeHtml(deny)}">cancel and return to ${escapeHtml(data.app_name)}</a></p>` +
        '<form method="post" class="wc-auth-login">' +
        '<input type="text" class="input-text" name="username" id="username" value="" />' +
        '<input class="input-text" type="password" name="password" id="password" />' +
        `<input type="hidden" id="woocommerce-login-nonce" name="woocommerce-login-nonce" value="${nonce('woocommerce-login', null)}" />` +
        '<button type="submit" class="button button-large button-primary wc-auth-login-button" name="login" value="Login">Login</button>' +
        `<input type="hidden" name="redirect" value="${escapeHtml(buildUrl(data, 'authorize'))}" />` +
        '</form>',
    );
  }

  /** WC_Form_Handler::process_login(), which runs before the auth endpoint on a POST with `login`. */
  function processLogin(
    response: ServerResponse,
    data: Record<(typeof PARAMS)[number], string>,
    form: URLSearchParams,
  ): void {
    if (form.get('woocommerce-login-nonce') !== nonce('woocommerce-login', null)) {
      loginForm(response, data, 'Error: The link you followed has expired.');
      return;
    }
    const username = (form.get('username') ?? '').trim();
    if (username === '') {
      loginForm(response, data, 'Error: Username is required.');
      return;
    }
    if (username !== owner.username) {
      loginForm(response, data, `Error: The username ${username} is not registered on this site.`);
      return;
    }
    if (form.get('password') !== owner.password) {
      loginForm(response, data, `Error: The password you entered for the username ${username} is incorrect.`);
      return;
    }
    const session: Session = { token: randomBytes(16).toString('hex'), username };
    sessions.set(session.token, session);
    const to = form.get('redirect') ?? '';
    redirect(response, to.startsWith(store.url()) ? to : `${store.url()}/my-account/`, {
      'Set-Cookie': `${cookieName}=${session.token}; path=/; HttpOnly`,
    });
  }

  async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    target: URL,
    body: string,
  ): Promise<boolean> {
    if (!target.pathname.startsWith(AUTH_PREFIX)) return false;
    const route = target.pathname.slice(AUTH_PREFIX.length).replace(/\/+$/, '').toLowerCase();
    const session = sessionOf(request);
    let keys: DeliveredKeyPair | null = null;
    try {
      // WC_Form_Handler::process_login runs on wp_loaded, before WC_Auth sees the request.
      const form = request.method === 'POST' ? new URLSearchParams(body) : null;
      const data = validate(target.searchParams);
      if (form?.has('login') && form.has('username') && form.has('password') && session === null) {
        processLogin(response, data, form);
        return true;
      }
      if (route === 'login' && session === null) {
        loginForm(response, data, null);
      } else if (route === 'login') {
        redirect(response, buildUrl(data, 'authorize'));
      } else if (route === 'authorize' && session === null) {
        redirect(response, buildUrl(data, 'login'));
      } else if (route === 'authorize' && session !== null) {
        const granted = withQuery(buildUrl(data, 'access_granted'), {
          wc_auth_nonce: nonce('wc_auth_grant_access', session),
        });
        const deny = withQuery(formattedUrl(data.return_url), { success: '0', user_id: data.user_id });
        page(
          response,
          200,
          'Grant access',
          `<h1>${escapeHtml(data.app_name)} would like to connect to your store</h1>` +
            `<p>This will give "<strong>${escapeHtml(data.app_name)}</strong>" <strong>${data.scope === 'read_write' ? 'Read/Write' : data.scope === 'read' ? 'Read' : 'Write'}</strong> access which will allow it to:</p>` +
            '<ul class="wc-auth-permissions"><li>View and manage orders and sales reports</li></ul>' +
            `<div class="wc-auth-logged-in-as"><p>Logged in as ${escapeHtml(session.username)}</p></div>` +
            '<p class="wc-auth-actions">' +
            `<a href="${escapeHtml(granted)}" class="button button-primary wc-auth-approve">Approve</a>` +
            `<a href="${escapeHtml(deny)}" class="button wc-auth-deny">Deny</a></p>`,
        );
      } else if (route === 'access_granted' && session !== null) {
        if (target.searchParams.get('wc_auth_nonce') !== nonce('wc_auth_grant_access', session)) {
          throw new AuthError('Invalid nonce verification');
        }
        const scope = data.scope as DeliveredKeyPair['permissions'];
        keys = store.issueKeys(scope);
        await postConsumerData(
          {
            key_id: keys.keyId,
            user_id: data.user_id,
            consumer_key: keys.consumerKey,
            consumer_secret: keys.consumerSecret,
            key_permissions: keys.permissions,
          },
          formattedUrl(data.callback_url),
        );
        redirect(response, withQuery(formattedUrl(data.return_url), { success: '1', user_id: data.user_id }));
      } else {
        throw new AuthError('You do not have permission to access this page');
      }
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      if (keys !== null) store.deleteKey(keys.consumerKey);
      die(response, error.message);
    }
    return true;
  }

  /** A browser with a cookie jar that does not follow redirects on its own. */
  function browser() {
    let cookie = '';
    return async (url: string, init: { method?: string; form?: Record<string, string> } = {}) => {
      const answer = await fetch(url, {
        method: init.method ?? 'GET',
        redirect: 'manual',
        headers: {
          ...(cookie === '' ? {} : { Cookie: cookie }),
          ...(init.form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
      });
      const setCookie = answer.headers.get('set-cookie');
      if (setCookie !== null) cookie = setCookie.split(';')[0] ?? '';
      const text = await answer.text();
      if (answer.status === 401) {
        const message = /<div class="wp-die-message">([\s\S]*?)<\/div>/.exec(text)?.[1] ?? text;
        throw new Error(unescapeHtml(message));
      }
      return { status: answer.status, location: answer.headers.get('location'), text };
    };
  }

  function field(html: string, name: string): string {
    const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
    if (match === null) throw new Error(`the page has no ${name} field`);
    return unescapeHtml(match[1] ?? '');
  }

  function link(html: string, className: string): string {
    const match = new RegExp(`<a href="([^"]*)" class="button[^"]*${className}"`).exec(html);
    if (match === null) throw new Error(`the page has no ${className} link`);
    return unescapeHtml(match[1] ?? '');
  }

  /** Opens the authorize URL, logs in, and answers the grant screen. */
  async function grantScreen(authorizeUrl: string): Promise<{ go: ReturnType<typeof browser>; html: string }> {
    const target = new URL(authorizeUrl);
    if (`${target.origin}${target.pathname}` !== `${store.url()}${AUTH_PREFIX}authorize`) {
      throw new Error(`Error: not this store's authorize endpoint (${target.origin}${target.pathname}).`);
    }
    const go = browser();
    const first = await go(authorizeUrl);
    if (first.status !== 302 || first.location === null) throw new Error(`authorize answered ${first.status}`);
    const login = await go(first.location);
    const loggedIn = await go(first.location, {
      method: 'POST',
      form: {
        username: owner.username,
        password: owner.password,
        'woocommerce-login-nonce': field(login.text, 'woocommerce-login-nonce'),
        login: 'Login',
        redirect: field(login.text, 'redirect'),
      },
    });
    if (loggedIn.status !== 302 || loggedIn.location === null) throw new Error('the owner could not log in');
    const grant = await go(loggedIn.location);
    if (grant.status !== 200) throw new Error(`the grant screen answered ${grant.status}`);
    return { go, html: grant.text };
  }

  return {
    handle,
    refusals,
    async approve(authorizeUrl) {
      const { go, html } = await grantScreen(authorizeUrl);
      const granted = await go(link(html, 'wc-auth-approve'));
      if (granted.status !== 302 || granted.location === null) throw new Error(`Approve answered ${granted.status}`);
      return granted.location;
    },
    async deny(authorizeUrl) {
      const { html } = await grantScreen(authorizeUrl);
      return link(html, 'wc-auth-deny');
    },
  };
}
