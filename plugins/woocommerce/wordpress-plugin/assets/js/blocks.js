/**
 * Armenian Payment Gateway in the WooCommerce Cart and Checkout blocks. A plain browser script with no
 * build step: WordPress loads it after wc-blocks-registry, wc-settings, wp-element, wp-html-entities
 * and wp-i18n. The settings come from Armenian_Gateway_Blocks::get_payment_method_data().
 */
(() => {
  const registry = window.wc.wcBlocksRegistry;
  const settings = window.wc.wcSettings.getSetting('armenian_gateway_data', {});
  const createElement = window.wp.element.createElement;
  const decodeEntities = window.wp.htmlEntities.decodeEntities;
  const __ = window.wp.i18n.__;

  const title = decodeEntities(settings.title || '') || __('Bank card or wallet', 'armenian-payment-gateway');
  const description = decodeEntities(settings.description || '');
  const testModeNotice =
    settings.testModeNotice ||
    __('Test mode: this is a test payment, no real money is taken.', 'armenian-payment-gateway');
  const features = Array.isArray(settings.supports) ? settings.supports : ['products'];

  /** What the buyer reads under the payment method: the description, and the test mode notice. */
  const Content = () => {
    const children = [];
    if (description) {
      children.push(createElement('p', { key: 'description' }, description));
    }
    if (settings.testMode) {
      children.push(
        createElement(
          'p',
          { key: 'test-mode', className: 'armenian-gateway-test-mode' },
          decodeEntities(testModeNotice),
        ),
      );
    }
    return createElement('div', { className: 'armenian-gateway-description' }, children);
  };

  registry.registerPaymentMethod({
    name: 'armenian_gateway',
    label: createElement('span', { className: 'armenian-gateway-label' }, title),
    content: createElement(Content, null),
    edit: createElement(Content, null),
    // As the classic checkout: only a cart in AMD (the server registers the method only when it is
    // enabled and set up, and the store sells in AMD; a currency switcher may still show another).
    canMakePayment: ({ cartTotals } = {}) =>
      (cartTotals?.currency_code ?? settings.currency ?? 'AMD') === (settings.currency || 'AMD'),
    ariaLabel: title,
    supports: { features },
  });
})();
