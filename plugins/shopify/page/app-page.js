// The app's page in the Shopify admin (plugins/shopify/admin-page.ts serves it under the page's
// nonce). Every call to the connector carries a fresh App Bridge session token; nothing it shows is
// written as HTML (text nodes only), and the connect token never stays in the page after a save.
(() => {
  const config = JSON.parse(document.getElementById('app-config').textContent);
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 1000;

  class ApiError extends Error {
    constructor(status, code, message, errors) {
      super(message);
      this.status = status;
      this.code = code;
      this.errors = errors;
    }
  }

  /** A session token from App Bridge (`shopify.idToken()`), fresh for every call. */
  async function sessionToken() {
    if (typeof window.shopify?.idToken !== 'function') {
      throw new ApiError(0, 'no_app_bridge', 'Open this page from your Shopify admin (Apps): App Bridge did not load.');
    }
    return window.shopify.idToken();
  }

  async function api(method, path, body) {
    const headers = { Accept: 'application/json', Authorization: `Bearer ${await sessionToken()}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response;
    try {
      response = await fetch(`${config.api}${path}`, {
        method,
        headers,
        credentials: 'omit',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ApiError(0, 'unreachable', 'The connector could not be reached. Check your connection and try again.');
    }
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok) {
      throw new ApiError(
        response.status,
        data?.error ?? 'unknown',
        data?.message ?? `The connector answered HTTP ${response.status}.`,
        data?.errors ?? null,
      );
    }
    return data;
  }

  /** What an error means to the shop owner, in one sentence or two. */
  function explain(error) {
    if (!(error instanceof ApiError)) return 'Something went wrong in the page; reload it.';
    switch (error.code) {
      case 'invalid_session_token':
        return `Your Shopify session could not be verified: ${error.message} Reload the app from the Shopify admin.`;
      case 'invalid_connect_token':
        return `The gateway refused this connect token (wrong, revoked or expired): ${error.message} Create a new one in the gateway dashboard.`;
      case 'connect_token_domain_mismatch':
      case 'unsupported_platform':
      case 'validation_failed':
        return error.message;
      case 'shop_not_installed':
        return 'The app is not installed on this shop: install it again.';
      case 'connection_not_found':
        return 'The shop is not connected yet: paste a connect token above and save.';
      default:
        return error.status > 0 ? `${error.message} (${error.code})` : error.message;
    }
  }

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes ?? {})) {
      if (value !== null && value !== undefined) node.setAttribute(name, String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
    }
    return node;
  }

  function say(id, text, kind) {
    const node = $(id);
    node.textContent = text ?? '';
    node.className = `message${kind ? ` ${kind}` : ''}`;
    node.hidden = !text;
  }

  const when = (iso) => (iso ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC') : '—');
  const code = (text) => (text ? el('code', {}, text) : '—');

  // ---- install -------------------------------------------------------------------------------

  function sendToInstall() {
    $('app').hidden = true;
    $('install').hidden = false;
    // App Bridge opens `_top` URLs in the admin's window (outside the iframe), where OAuth must run.
    window.open(new URL(config.installUrl, window.location.href).href, '_top');
  }

  // ---- connection ----------------------------------------------------------------------------

  const STATUS_WORDS = {
    active: 'Connected',
    awaiting_keys: 'Waiting for access',
    store_unauthorized: 'Shopify refused the connector: open the app again from the admin to re-authorize it',
    token_revoked: 'The gateway refused the connect token (revoked or expired): paste a new one and save',
  };
  const WAY_WORDS = { manual_bridge: 'Manual payment method', payments_app: 'Payments app' };

  /** Where the payments app stands at Shopify (`paymentsAppConfigure`), for the shop owner. */
  function paymentsAppWords(status) {
    if (status === null || status === undefined) return null;
    if (status.state === 'failed') return `Shopify refused to enable it: ${status.last_error ?? 'no reason given'}`;
    if (status.state === 'due') {
      return status.ready
        ? 'Telling Shopify the payment method is ready (it is tried again shortly)…'
        : 'Telling Shopify the payment method is off…';
    }
    return status.ready
      ? 'Ready: activate it in Shopify under Settings › Payments'
      : 'Off: buyers are not offered the payments app';
  }

  function renderConnection(settings) {
    const state = $('connection-state');
    const details = $('connection-details');
    const problems = $('connection-problems');
    details.replaceChildren();
    problems.replaceChildren();
    const connection = settings.connection;
    if (connection === null) {
      state.textContent = 'Not connected: paste a connect token from the gateway dashboard and save.';
      state.dataset.state = 'disconnected';
    } else {
      state.textContent = STATUS_WORDS[connection.status] ?? connection.status;
      state.dataset.state = connection.status === 'active' ? 'connected' : 'problem';
      const rows = [
        ['Environment', connection.environment === 'test' ? 'test (sandbox, no real money)' : 'live'],
        ['Way', WAY_WORDS[settings.settings?.way] ?? '—'],
        ['Manual method', settings.settings?.manual_method_name || '—'],
        ...(settings.payments_app === null && settings.settings?.way !== 'payments_app'
          ? []
          : [
              ['Payments app at Shopify', paymentsAppWords(settings.payments_app) ?? 'Not told yet: save the settings'],
            ]),
        ['Connection', code(connection.connection_id)],
        ['Last gateway webhook', when(connection.last_webhook_at)],
      ];
      for (const [term, value] of rows) details.append(el('dt', {}, term), el('dd', {}, value));
      const health = connection.health ?? {};
      if (health.gateway === 'unreachable') {
        problems.append(el('li', {}, 'The gateway cannot be reached right now; payments wait until it answers.'));
      }
      if (health.store === 'unreachable' || health.store === 'unauthorized') {
        const why = health.store_error?.message ? ` (${health.store_error.message})` : '';
        problems.append(el('li', {}, `The connector could not use the shop's Admin API${why}.`));
      }
      // What the app knows is wrong (payments Shopify has not confirmed, the payments app refused).
      for (const problem of health.problems ?? []) {
        problems.append(el('li', { 'data-problem': problem.code }, problem.message));
      }
      if (health.webhooks === 'stale') {
        problems.append(el('li', {}, 'Gateway webhooks stopped arriving; orders are still updated by polling, later.'));
      }
    }
    const form = $('settings-form');
    const saved = settings.settings;
    if (saved !== null) {
      for (const radio of form.querySelectorAll('input[name=way]')) radio.checked = radio.value === saved.way;
      $('manual-method-name').value = saved.manual_method_name;
      $('test-mode').checked = saved.test_mode;
    } else if (connection === null) {
      $('test-mode').checked = true;
    }
    $('connect-token').placeholder = connection === null ? '' : 'Saved. Paste a new token only to replace it.';
  }

  function clearFieldErrors() {
    for (const node of document.querySelectorAll('#settings-form .field-error')) {
      node.textContent = '';
      node.hidden = true;
    }
    for (const input of document.querySelectorAll('#settings-form [aria-invalid]')) {
      input.removeAttribute('aria-invalid');
    }
  }

  function showFieldErrors(errors) {
    for (const [field, messages] of Object.entries(errors ?? {})) {
      const node = $(`${field}-error`);
      if (node === null) continue;
      node.textContent = messages.join(' ');
      node.hidden = false;
      const input = document.querySelector(`form [name=${field}]`);
      input?.setAttribute('aria-invalid', 'true');
    }
  }

  async function saveSettings(event) {
    event.preventDefault();
    const form = event.currentTarget;
    const button = form.querySelector('button[type=submit]');
    clearFieldErrors();
    say('settings-message', 'Saving…');
    const token = $('connect-token').value.trim();
    const body = {
      way: form.querySelector('input[name=way]:checked')?.value ?? 'manual_bridge',
      manual_method_name: $('manual-method-name').value,
      test_mode: $('test-mode').checked,
      ...(token === '' ? {} : { connect_token: token }),
    };
    // The token leaves the page now: it is never kept in a field after a save, good or bad.
    $('connect-token').value = '';
    button.disabled = true;
    try {
      const settings = await api('PUT', '/settings', body);
      renderConnection(settings);
      say('settings-message', 'Saved.', 'ok');
      loadConnected();
    } catch (error) {
      if (error.code === 'shop_not_installed') return sendToInstall();
      showFieldErrors(error.errors);
      say('settings-message', explain(error), 'error');
    } finally {
      button.disabled = false;
    }
  }

  // ---- domain verification at the gateway ---------------------------------------------------

  function renderVerification(state) {
    $('verification-url').textContent = state.file_url;
    $('verification-value').value = state.value ?? '';
  }

  async function loadVerification() {
    try {
      renderVerification(await api('GET', '/domain-verification'));
    } catch (error) {
      say('verification-message', explain(error), 'error');
    }
  }

  async function saveVerification(event) {
    event.preventDefault();
    const button = event.currentTarget.querySelector('button[type=submit]');
    const value = $('verification-value').value.trim();
    $('value-error').hidden = true;
    $('verification-value').removeAttribute('aria-invalid');
    button.disabled = true;
    say('verification-message', 'Saving…');
    try {
      renderVerification(await api('PUT', '/domain-verification', { value: value === '' ? null : value }));
      say(
        'verification-message',
        value === '' ? 'Removed.' : 'Saved. Now choose "Verify" for the HTTPS file in the gateway dashboard.',
        'ok',
      );
    } catch (error) {
      if (error.code === 'shop_not_installed') return sendToInstall();
      showFieldErrors(error.errors);
      say('verification-message', explain(error), 'error');
    } finally {
      button.disabled = false;
    }
  }

  // ---- orders --------------------------------------------------------------------------------

  function refundsText(payment) {
    if (payment === null || payment.refunds.length === 0) return '—';
    return el(
      'ul',
      { class: 'plain' },
      payment.refunds.map((r) => el('li', {}, `${r.amount} AMD, ${r.status}${r.reason ? ` (${r.reason})` : ''}`)),
    );
  }

  function paidText(order) {
    if (!order.paid) return 'no';
    if (order.store_sync === 'done') return 'yes';
    return order.store_sync === 'failed' ? 'not yet: marking paid failed' : 'being marked paid';
  }

  async function loadOrders() {
    const body = $('orders-table').tBodies[0];
    try {
      const { data } = await api('GET', '/orders?limit=20');
      body.replaceChildren(
        ...data.map((order) =>
          el(
            'tr',
            { 'data-order': order.order_id },
            el('td', {}, order.order_id, el('br'), code(order.gateway_order_id)),
            el('td', {}, `${order.amount} ${order.currency}`),
            el('td', {}, paidText(order), order.flag ? el('br') : null, order.flag ? `flag: ${order.flag}` : null),
            el('td', {}, code(order.payment?.uuid)),
            el('td', {}, order.payment?.status ?? 'no payment'),
            el('td', {}, order.payment?.rrn ?? '—'),
            el('td', {}, refundsText(order.payment)),
          ),
        ),
      );
      say('orders-message', data.length === 0 ? 'No orders paid through the gateway yet.' : '');
    } catch (error) {
      body.replaceChildren();
      say('orders-message', explain(error), 'error');
    }
  }

  // ---- reconciliation ------------------------------------------------------------------------

  const KIND_WORDS = {
    paid_at_gateway_unpaid_in_store: 'Paid at the gateway, unpaid in Shopify',
    paid_in_store_not_at_gateway: 'Paid in Shopify, not at the gateway',
    paid_twice: 'Paid twice',
    refund_mismatch: 'Refunds differ',
    amount_mismatch: 'Amount differs',
    awaiting_processor_reference: 'Not confirmed by the payment system',
  };

  /** The UTC instants of a day range, `to` included: [from 00:00, day after to 00:00). */
  function rangeOf(from, to) {
    const end = new Date(`${to}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    return { from: `${from}T00:00:00Z`, to: end.toISOString().replace('.000Z', 'Z') };
  }

  function renderRun(run, into, withRepair) {
    const parts = [];
    const summary =
      run.status === 'running'
        ? 'Running…'
        : run.status === 'failed'
          ? `Failed: ${run.error ?? 'unknown error'}`
          : `${run.orders_checked} orders checked, ${run.findings.length} mismatch${run.findings.length === 1 ? '' : 'es'}.`;
    parts.push(
      el(
        'p',
        { class: 'run-summary' },
        `${when(run.from)} to ${when(run.to)}${run.repair ? ' (with repair)' : ''}: `,
        summary,
      ),
    );
    if (run.status === 'finished' && run.findings.length > 0) {
      const rows = run.findings.map((f) =>
        el(
          'tr',
          { 'data-kind': f.kind, 'data-action': f.action },
          el('td', {}, KIND_WORDS[f.kind] ?? f.kind),
          el('td', {}, f.order_number ?? f.store_order_id),
          el('td', {}, code(f.payment_uuid)),
          el('td', {}, f.detail),
          el('td', {}, f.action === 'repaired' ? `Repaired: ${f.advice}` : f.advice),
        ),
      );
      parts.push(
        el(
          'div',
          { class: 'scroll' },
          el(
            'table',
            { class: 'findings' },
            el('caption', {}, 'Mismatches found, and what will be done'),
            el(
              'thead',
              {},
              el(
                'tr',
                {},
                ['Mismatch', 'Order', 'Payment', 'Detail', 'What to do'].map((h) => el('th', { scope: 'col' }, h)),
              ),
            ),
            el('tbody', {}, rows),
          ),
        ),
      );
      if (withRepair && run.findings.some((f) => f.repairable)) {
        const repair = el('button', { type: 'button', class: 'button repair' }, 'Repair the safe ones');
        repair.addEventListener('click', () => startRun({ from: run.from, to: run.to }, true));
        parts.push(repair);
      }
    }
    into.dataset.status = run.status;
    into.replaceChildren(...parts);
  }

  let polling = 0;

  async function startRun(range, repair) {
    const into = $('this-run');
    const generation = ++polling;
    say('reconcile-message', repair ? 'Repairing…' : 'Starting…');
    try {
      let run = await api('POST', '/reconciliation', { ...range, repair, wait: false });
      into.hidden = false;
      while (run.status === 'running') {
        renderRun(run, into, false);
        say('reconcile-message', '');
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        if (generation !== polling) return;
        run = await api('GET', `/reconciliation/${encodeURIComponent(run.id)}`);
      }
      renderRun(run, into, true);
      say('reconcile-message', '');
      if (repair) loadOrders();
    } catch (error) {
      say('reconcile-message', explain(error), 'error');
    }
  }

  async function loadScheduledRun() {
    const into = $('scheduled-run');
    try {
      const { data } = await api('GET', '/reconciliation?trigger=scheduled&limit=1');
      if (data.length === 0) into.replaceChildren(el('p', {}, 'No automatic run yet (it runs every hour).'));
      else renderRun(data[0], into, true);
    } catch (error) {
      into.replaceChildren(el('p', { class: 'message error' }, explain(error)));
    }
  }

  // ---- payments Shopify has not confirmed, payments needing a refund, data requests -----------

  async function loadUnconfirmed() {
    const body = $('unconfirmed-table').tBodies[0];
    try {
      const { data } = await api('GET', '/payment-sessions?flag=unconfirmed&limit=50');
      body.replaceChildren(
        ...data.map((s) =>
          el(
            'tr',
            { 'data-session': s.id },
            el('td', {}, code(s.id)),
            el('td', {}, `${s.amount} ${s.currency}`),
            el('td', {}, s.decision === 'resolve' ? 'paid' : 'not paid'),
            el('td', {}, s.state === 'failed' ? 'given up: check it' : 'being sent again'),
            el('td', {}, String(s.attempts)),
            el('td', {}, s.last_error ?? '—'),
            el('td', {}, when(s.decided_at ?? s.updated_at)),
          ),
        ),
      );
      say('unconfirmed-message', data.length === 0 ? 'None: Shopify took every outcome.' : '');
    } catch (error) {
      body.replaceChildren();
      say('unconfirmed-message', explain(error), 'error');
    }
  }

  async function loadRefundsNeeded() {
    const body = $('refunds-needed-table').tBodies[0];
    try {
      const { data } = await api('GET', '/payment-sessions?flag=refund_needed&limit=50');
      body.replaceChildren(
        ...data.map((s) =>
          el(
            'tr',
            { 'data-session': s.id },
            el('td', {}, code(s.id)),
            el('td', {}, `${s.amount} ${s.currency}`),
            el('td', {}, code(s.gateway_payment_uuid)),
            el('td', {}, s.test ? 'test' : 'live'),
            el('td', {}, s.message ?? 'Paid after its checkout was settled.'),
            el('td', {}, when(s.updated_at)),
          ),
        ),
      );
      say('refunds-needed-message', data.length === 0 ? 'None: no payment is waiting for a refund.' : '');
    } catch (error) {
      body.replaceChildren();
      say('refunds-needed-message', explain(error), 'error');
    }
  }

  async function loadDataRequests() {
    const list = $('data-requests-list');
    try {
      const { data } = await api('GET', '/data-requests');
      list.replaceChildren(
        ...data.map((r) =>
          el(
            'article',
            { class: 'data-request', 'data-request': r.data_request_id },
            el('h3', {}, `Request ${r.data_request_id} (customer ${r.customer_id ?? 'unknown'})`),
            el('p', {}, `Received ${when(r.requested_at)}. What the app holds about the customer's orders:`),
            el(
              'pre',
              { tabindex: '0', 'aria-label': `Export for request ${r.data_request_id}` },
              JSON.stringify(r.export, null, 2),
            ),
          ),
        ),
      );
      say('data-requests-message', data.length === 0 ? 'No customer has asked for their data.' : '');
    } catch (error) {
      list.replaceChildren();
      say('data-requests-message', explain(error), 'error');
    }
  }

  // ---- start ---------------------------------------------------------------------------------

  function loadConnected() {
    loadOrders();
    loadScheduledRun();
  }

  async function start() {
    $('settings-form').addEventListener('submit', saveSettings);
    $('verification-form').addEventListener('submit', saveVerification);
    $('orders-refresh').addEventListener('click', () => loadOrders());
    $('reconcile-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const from = $('reconcile-from').value;
      const to = $('reconcile-to').value;
      if (!from || !to || from > to) {
        say('reconcile-message', 'Choose a start day on or before the end day.', 'error');
        return;
      }
      startRun(rangeOf(from, to), false);
    });
    let settings;
    try {
      settings = await api('GET', '/settings');
    } catch (error) {
      if (error.code === 'shop_not_installed') return sendToInstall();
      say('page-message', explain(error), 'error');
      return;
    }
    if (settings.install.status !== 'installed') return sendToInstall();
    $('app').hidden = false;
    renderConnection(settings);
    loadVerification();
    loadUnconfirmed();
    loadRefundsNeeded();
    loadDataRequests();
    if (settings.connection !== null) loadConnected();
    else {
      say('orders-message', explain(new ApiError(404, 'connection_not_found', '')));
      $('scheduled-run').replaceChildren(el('p', {}, 'Connect the shop to see reconciliation runs.'));
    }
  }

  start();
})();
