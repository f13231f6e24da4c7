/**
 * jsdom lays nothing out: ProseMirror (the Markdown editor) asks for the rectangles of ranges and
 * the element at a point when it scrolls the selection into view or handles a click. These stubs
 * answer "nothing there", so a test can click the editor's toolbar. A test file that renders the
 * editor calls this once.
 */
export function stubLayoutForProseMirror(): void {
  const empty = () => ({ x: 0, y: 0, width: 0, height: 0, top: 0, left: 0, right: 0, bottom: 0, toJSON: () => ({}) });
  Range.prototype.getClientRects ??= () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => empty() as DOMRect;
  Document.prototype.elementFromPoint ??= () => null;
}
