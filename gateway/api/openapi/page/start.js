// The start-up script of the API reference, `/docs/api` (gateway/api/routes/api-reference.router.ts
// serves it): Swagger UI on the document the page names, never asking Swagger's online validator,
// with a plugin of small wrappers that make the page accessible (axe-core finds nothing at 1280 and
// 375 px, test/api/api-reference-browser.test.ts):
// - the server list and the request body's editor ("Try it out") get a name (Swagger UI leaves
//   their labels empty);
// - an operation's path is text, not a link, inside the button that opens the operation (a link in a
//   button is two controls in one); the address bar still follows the open operation (deep linking);
// - headings go down one level at a time: an "Operations" heading (for screen readers) above the
//   groups, and the schemas' heading at the same level;
// - every part of the page is in a landmark: the title in a banner, the server list and the
//   authorization button in named regions (the operations are in Swagger UI's own main);
// - example values in a light theme whose colours all contrast enough with its background.
(() => {
  const root = document.getElementById('swagger-ui');

  function accessibility(system) {
    const React = system.React;
    const h = React.createElement;
    /** Renders `Original` inside `tag` with `attributes`. */
    const inside = (Original, tag, attributes) => (props) => h(tag, attributes, h(Original, props));
    /** Renders `Original` in a box, then sets `attributes` on the first element `selector` finds in it. */
    const withAttributes = (Original, selector, attributes) =>
      function WithAttributes(props) {
        const box = React.useRef(null);
        React.useEffect(() => {
          const element = box.current?.querySelector(selector);
          for (const [name, value] of Object.entries(attributes)) element?.setAttribute(name, value);
        });
        return h('div', { ref: box }, h(Original, props));
      };
    return {
      wrapComponents: {
        Servers: (Original) => withAttributes(Original, 'select', { 'aria-label': 'Server' }),
        RequestBodyEditor: (Original) => withAttributes(Original, 'textarea', { 'aria-label': 'Request body' }),
        OperationSummaryPath: (Original) => (props) =>
          h(Original, { ...props, operationProps: props.operationProps.set('isDeepLinkingEnabled', false) }),
        operations: (Original) => (props) =>
          h(React.Fragment, null, h('h2', { className: 'visually-hidden' }, 'Operations'), h(Original, props)),
        Models: (Original) => withAttributes(Original, 'section.models > h4', { 'aria-level': '2' }),
        InfoContainer: (Original) => inside(Original, 'header', { role: 'banner' }),
        ServersContainer: (Original) => inside(Original, 'section', { 'aria-label': 'Servers' }),
        AuthorizeBtnContainer: (Original) => inside(Original, 'section', { 'aria-label': 'Authorization' }),
      },
    };
  }

  window.ui = SwaggerUIBundle({
    url: root.dataset.document,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    syntaxHighlight: { theme: 'idea' },
    plugins: [accessibility],
  });
})();
