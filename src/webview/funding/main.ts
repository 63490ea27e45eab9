/**
 * Funding webview: shows a created (or already existing, with a line saying so) deposit address
 * (address, memo, chain — each copyable — with the memo warning, minimum deposit and confirmations). Built by esbuild target `webview-funding` → dist/webview/funding.js.
 * DOM is built with createElement/textContent only (no innerHTML), no inline handlers; messages are
 * validated with the protocol on receipt (src/webview/vscodeApi.ts).
 */
import { FUNDING_PROTOCOL } from '../../shared/funding/protocol';
import type { DepositAddressView } from '../../shared/funding/summary';
import { onHostMessage, webviewApi } from '../vscodeApi';

const vscode = webviewApi(FUNDING_PROTOCOL);
const root = document.getElementById('root') as HTMLElement;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function row(label: string, value: string, copy?: 'address' | 'memo'): HTMLElement {
  const r = el('div', 'row');
  r.append(el('div', 'label', label));
  const v = el('div', 'value');
  v.append(el('code', 'mono', value));
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

function renderDeposit(v: DepositAddressView): void {
  root.replaceChildren();
  root.append(el('h1', undefined, `Deposit ${v.currency} — ${v.chain}`));
  if (v.existing && v.note) {
    const n = el('p', 'existing', v.note);
    n.setAttribute('role', 'status');
    root.append(n);
  }
  if (v.memoWarning) {
    const w = el('div', 'warning');
    w.setAttribute('role', 'alert');
    w.append(el('strong', undefined, 'Memo required. '), document.createTextNode(v.memoWarning));
    root.append(w);
  }
  const grid = el('div', 'grid');
  grid.append(row('Address', v.address, 'address'));
  if (v.memo) grid.append(row('Memo', v.memo, 'memo'));
  grid.append(row('Chain', v.chainId ? `${v.chain} (${v.chainId})` : v.chain));
  grid.append(row('Minimum deposit', v.depositMinSize !== null ? `${v.depositMinSize} ${v.currency}` : 'not published'));
  grid.append(row('Confirmations', v.confirms !== null ? String(v.confirms) : 'not published'));
  root.append(grid);
  root.append(el('p', 'hint', `Send only ${v.currency} on ${v.chain} to this address. Deposits below the minimum may not be credited.`));
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
