/**
 * Armenian Payment Gateway's admin pages, without inline script: asks before a link marked
 * `data-armenian-gateway-confirm` ("Remove connection"), and reloads a page that holds an element
 * marked `data-armenian-gateway-reload` (seconds) while a reconciliation run is running. A plain
 * browser script with no build step, enqueued on the plugin's settings and reconciliation screens.
 */
(() => {
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('[data-armenian-gateway-confirm]') : null;
    if (target && !window.confirm(target.getAttribute('data-armenian-gateway-confirm') || '')) {
      event.preventDefault();
    }
  });

  const running = document.querySelector('[data-armenian-gateway-reload]');
  if (running) {
    const seconds = Number(running.getAttribute('data-armenian-gateway-reload')) || 3;
    window.setTimeout(() => window.location.reload(), seconds * 1000);
  }
})();
