/**
 * DOM helpers of the market panel's webview: elements and text cells built with
 * `document.createElement`, whose text is written through `Text.data` (never markup), so API strings
 * can never become HTML.
 */

/** A `<tag class="cls">`, appended to `parent` when given. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, parent?: Element): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (parent) parent.appendChild(e);
  return e;
}

/**
 * A `div.cell.<cls>` with ARIA `role` appended to `parent`, holding one text node (returned) that
 * starts as `text`: the updates write `Text.data`, never markup.
 */
export function textCell(parent: Element, cls: string, role: 'gridcell' | 'columnheader', text = ''): Text {
  const c = el('div', `cell ${cls}`, parent);
  c.setAttribute('role', role);
  const t = document.createTextNode(text);
  c.appendChild(t);
  return t;
}
