/**
 * Funding webview: shows a created (or already existing, with a line saying so) deposit address
 * (address and memo — each copyable, each with a QR code rendered locally — network, minimum
 * deposit and confirmations in plain words, the memo warning). Built by esbuild target `webview-funding` → dist/webview/funding.js.
 * DOM is built with createElement/textContent only (no innerHTML), no inline handlers; messages are
 * validated with the protocol on receipt (src/webviewBridge/vscodeApi.ts).
 */
import { FUNDING_PROTOCOL } from '../protocol';
import type { DepositAddressView } from '../model/summary';
import { depositWording } from '../model/depositWording';
import { qrCanvas } from './qr';
import { onHostMessage, webviewApi } from '../../../webviewBridge/vscodeApi';

const vscode = webviewApi(FUNDING_PROTOCOL);
const root = document.getElementById('root') as HTMLElement;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A grid row: label, the value as plain text (selectable, no code styling), an optional copy button. */
function row(label: string, value: string, copy?: 'address' | 'memo'): HTMLElement {
  const r = el('div', 'row');
  r.append(el('div', 'label', label));
  const v = el('div', 'value');
  // "not published" is a statement, not a value: plain muted text.
  v.append(el('span', copy ? 'value-text copyable' : value === 'not published' ? 'value-none' : 'value-text', value));
  if (copy) {
    const b = el('button', 'copy', `Copy ${copy}`);
    b.type = 'button';
    b.dataset.field = copy;
    b.addEventListener('click', () => vscode.post({ type: 'copy', field: copy }));
    v.append(b);
  }
  r.append(v);
  return r;
}

/** A QR code with its caption. */
function qrFigure(text: string, caption: string): HTMLElement {
  const f = el('figure', 'qr-figure');
  f.append(qrCanvas(text, `QR code of the ${caption.toLowerCase()}: ${text}`), el('figcaption', undefined, caption));
  return f;
}

function renderDeposit(v: DepositAddressView): void {
  const w = depositWording(v);
  root.replaceChildren();
  root.append(el('h1', undefined, w.title));
  if (w.banner) {
    const b = el('div', 'warning sandbox-banner', w.banner);
    b.setAttribute('role', 'alert');
    root.append(b);
  }
  if (v.existing && v.note) {
    const n = el('p', 'existing', v.note);
    n.setAttribute('role', 'status');
    root.append(n);
  }
  if (v.memoWarning) {
    const warn = el('div', 'warning');
    warn.setAttribute('role', 'alert');
    warn.append(el('strong', undefined, 'Memo required. '), document.createTextNode(v.memoWarning));
    root.append(warn);
  }
  const grid = el('div', 'grid');
  grid.append(row('Address', v.address, 'address'));
  if (v.memo) grid.append(row('Memo', v.memo, 'memo'));
  grid.append(row('Network', w.network), row('Minimum deposit', w.minimum), row('Confirmations', w.confirmations));
  root.append(grid);
  if (v.simulated) {
    // No QR code: a wallet must not be able to scan a sandbox address.
    const actions = el('div', 'actions');
    const sim = el('button', 'simulate', 'Simulate a Deposit…');
    sim.type = 'button';
    sim.addEventListener('click', () => vscode.post({ type: 'simulateDeposit' }));
    actions.append(sim);
    root.append(actions);
  } else {
    const codes = el('div', 'qr-codes');
    codes.append(qrFigure(v.address, 'Address'));
    if (v.memo) codes.append(qrFigure(v.memo, 'Memo'));
    root.append(codes);
  }
  root.append(el('p', 'hint', w.hint));
}
onHostMessage(FUNDING_PROTOCOL, (m) => {
  if (m.type === 'deposit') renderDeposit(m.view);
  else if (m.type === 'copied') {
    const b = root.querySelector<HTMLButtonElement>(`button[data-field="${m.field}"]`);
    if (b) {
      b.textContent = 'Copied ✓';
      setTimeout(() => (b.textContent = `Copy ${m.field}`), 1500);
    }
  }
});
vscode.post({ type: 'ready' });
