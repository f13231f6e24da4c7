/**
 * Emotion's style sheets in jsdom.
 *
 * jsdom's getComputedStyle matches every style rule in the document on each call, and both
 * MUI's multiline text fields (on every render) and Testing Library's role queries (for every
 * candidate element) call it. With MUI's few hundred emotion rules in the page, that was about
 * two thirds of the unit tests' time. So emotion's style tags are kept in a detached container:
 * components render exactly as before, only their CSS is not cascaded. Inline styles, the
 * `hidden` attribute and `aria-hidden` still count, so visibility checks keep working.
 *
 * A test file that asserts computed CSS (colours, say) calls `attachStyleSheets()` at its top,
 * before anything renders; module state is per test file, so the choice stays in that file.
 */
const detached = document.createElement('div');
let attached = false;

/** Puts emotion's style tags back into `document.head` for the rest of this test file. */
export function attachStyleSheets(): void {
  attached = true;
}

/** Installs the redirection; called once from the test setup. */
export function detachStyleSheets(): void {
  const insertBefore = Node.prototype.insertBefore;
  Node.prototype.insertBefore = function <T extends Node>(this: Node, node: T, child: Node | null): T {
    if (!attached && this === document.head && node instanceof HTMLStyleElement && node.hasAttribute('data-emotion')) {
      return insertBefore.call(detached, node, child?.parentNode === detached ? child : null) as T;
    }
    return insertBefore.call(this, node, child) as T;
  };
}
