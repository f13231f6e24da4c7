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
 * before anything renders. Test files share modules and may share a jsdom document (Vitest runs
 * with `isolate: false`), and emotion inserts a rule only once per cache: so the setup calls
 * `detachStyleSheets()` for every file, which moves the tags back out of the head, and
 * `attachStyleSheets()` moves every tag inserted so far into the head. The redirection is
 * installed once per document's `Node.prototype`.
 */
let attached = false;
const containers = new WeakMap<Document, HTMLElement>();
const installed = Symbol.for('markwell.detachStyleSheets');

function container(doc: Document): HTMLElement {
  let div = containers.get(doc);
  if (!div) {
    div = doc.createElement('div');
    containers.set(doc, div);
  }
  return div;
}

/** Moves emotion's style tags from `from` to the end of `to`. */
function moveStyles(from: ParentNode, to: Node): void {
  for (const tag of Array.from(from.querySelectorAll('style[data-emotion]'))) to.appendChild(tag);
}

/** Puts emotion's style tags back into `document.head` for the rest of this test file. */
export function attachStyleSheets(): void {
  attached = true;
  moveStyles(container(document), document.head);
}

/** Installs the redirection for this test file's document; called from the test setup. */
export function detachStyleSheets(): void {
  if (attached) moveStyles(document.head, container(document));
  attached = false;
  const proto = Node.prototype as Node & { [installed]?: boolean };
  if (proto[installed]) return;
  proto[installed] = true;
  const insertBefore = Node.prototype.insertBefore;
  Node.prototype.insertBefore = function <T extends Node>(this: Node, node: T, child: Node | null): T {
    const emotion = node.nodeName === 'STYLE' && (node as unknown as Element).hasAttribute('data-emotion');
    if (emotion && this.nodeName === 'HEAD') {
      const target = attached ? document.head : container(document);
      return insertBefore.call(target, node, child?.parentNode === target ? child : null) as T;
    }
    return insertBefore.call(this, node, child) as T;
  };
}
