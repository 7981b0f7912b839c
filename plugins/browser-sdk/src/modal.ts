/**
 * The modal: a fixed, semi-transparent overlay with a dialog holding a close button and the checkout
 * iframe. Focus moves into the dialog, stays there (Tab wraps), Escape and the close button close
 * it, the page behind does not scroll, and focus returns where it was. Styles are set through the
 * CSSOM, so a merchant CSP without `style-src 'unsafe-inline'` does not block them.
 */

/** Space kept around the dialog, and the height of its bar with the close button (px). */
const GAP = 16;
const BAR = 44;

export interface Modal {
  readonly overlay: HTMLElement;
  /** Sets the iframe's height, bounded to the viewport. */
  setHeight(height: number): void;
  /** Removes the modal and gives focus back; safe to call twice. */
  remove(): void;
}

type Style = Record<string, string>;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, style: Style): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const name of Object.keys(style)) el.style.setProperty(name, style[name] ?? '');
  return el;
}

function sentinel(): HTMLElement {
  const el = element('div', { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', outline: 'none' });
  el.tabIndex = 0;
  el.setAttribute('aria-hidden', 'true');
  return el;
}

function maxFrameHeight(): number {
  return Math.max(120, window.innerHeight - 2 * GAP - BAR);
}

/** `onDismiss` runs when the buyer closes the modal (close button or Escape). */
export function openModal(frame: HTMLIFrameElement, onDismiss: () => void): Modal {
  const body = document.body;
  const root = document.documentElement;
  const previousFocus = document.activeElement;

  const overlay = element('div', {
    position: 'fixed',
    top: '0',
    right: '0',
    bottom: '0',
    left: '0',
    'z-index': '2147483647',
    display: 'flex',
    'align-items': 'center',
    'justify-content': 'center',
    padding: `${GAP}px`,
    'box-sizing': 'border-box',
    background: 'rgba(15, 23, 42, 0.6)',
  });
  overlay.setAttribute('data-payment-gateway', 'overlay');

  const dialog = element('div', {
    position: 'relative',
    width: '100%',
    'max-width': '480px',
    'max-height': '100%',
    overflow: 'hidden',
    background: '#ffffff',
    'border-radius': '12px',
    'box-shadow': '0 20px 50px rgba(0, 0, 0, 0.35)',
    outline: 'none',
  });
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-label', 'Payment checkout');
  dialog.tabIndex = -1;

  const bar = element('div', {
    display: 'flex',
    'justify-content': 'flex-end',
    height: `${BAR}px`,
    'box-sizing': 'border-box',
    padding: '2px',
  });
  const close = element('button', {
    width: '40px',
    height: '40px',
    margin: '0',
    padding: '0',
    border: '0',
    'border-radius': '8px',
    background: 'transparent',
    color: '#334155',
    'font-size': '26px',
    'line-height': '40px',
    cursor: 'pointer',
  });
  close.type = 'button';
  close.setAttribute('aria-label', 'Close checkout');
  close.setAttribute('data-payment-gateway', 'close');
  close.textContent = '\u00d7';

  frame.style.setProperty('height', `${Math.min(640, maxFrameHeight())}px`);
  frame.style.setProperty('max-height', `calc(100vh - ${2 * GAP + BAR}px)`);

  const first = sentinel();
  const last = sentinel();
  bar.appendChild(close);
  dialog.append(first, bar, frame, last);
  overlay.appendChild(dialog);

  // Focus wraps: Tab past the iframe comes back to the close button, Shift+Tab before the close
  // button goes to the iframe (Tab from the dialog itself goes on to the close button).
  first.addEventListener('focus', (event) => {
    if (event.relatedTarget === dialog) close.focus();
    else frame.focus();
  });
  last.addEventListener('focus', () => close.focus());

  const saved = {
    rootOverflow: root.style.getPropertyValue('overflow'),
    bodyPadding: body.style.getPropertyValue('padding-right'),
  };
  const scrollbar = window.innerWidth - root.clientWidth;

  let removed = false;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' || event.key === 'Esc') {
      event.preventDefault();
      event.stopPropagation();
      onDismiss();
    }
  };
  const onFocusIn = (event: FocusEvent) => {
    const target = event.target;
    if (target instanceof Node && !overlay.contains(target)) close.focus();
  };
  close.addEventListener('click', () => onDismiss());

  const remove = () => {
    if (removed) return;
    removed = true;
    document.removeEventListener('keydown', onKeyDown, true);
    document.removeEventListener('focusin', onFocusIn, true);
    overlay.remove();
    root.style.setProperty('overflow', saved.rootOverflow);
    body.style.setProperty('padding-right', saved.bodyPadding);
    if (previousFocus instanceof HTMLElement && previousFocus.isConnected && previousFocus !== body) {
      previousFocus.focus({ preventScroll: true });
    }
  };

  // On the root element only: `overflow: hidden` on <body> too would make it a block formatting
  // context, move its content by its margins and make the page jump.
  root.style.setProperty('overflow', 'hidden');
  if (scrollbar > 0) {
    const padding = window.getComputedStyle(body).paddingRight || '0px';
    body.style.setProperty('padding-right', `calc(${padding} + ${scrollbar}px)`);
  }
  body.appendChild(overlay);
  document.addEventListener('keydown', onKeyDown, true);
  document.addEventListener('focusin', onFocusIn, true);
  dialog.focus({ preventScroll: true });

  return {
    overlay,
    setHeight(height: number) {
      frame.style.setProperty('height', `${Math.min(height, maxFrameHeight())}px`);
    },
    remove,
  };
}
