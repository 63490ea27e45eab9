/**
 * Request-builder webview (browser code, bundled to dist/webview/request-builder.js).
 *
 * Renders the HF order form with live rule validation (src/api/orderRules),
 * the signed preview sent by the extension (prehash parts, body bytes, redacted KC-API-*
 * headers, key version, clock offset) and test/placement results with their diagnosis; on sandbox
 * profiles an "Experiment" section signs ONE order test wrongly on purpose (timestamp offset, key
 * version, passphrase encoding) to show each signature diagnosis (the extension refuses it on any
 * other profile: hiding it here is only the display). All
 * strings from the API go through `textContent`; no inline handlers; messages are validated with
 * the protocol's schemas on receipt (src/webviewBridge/vscodeApi.ts). The API secret never reaches this code.
 */
import { validateOrder, STP_VALUES, TIME_IN_FORCE, type RuleIssue, type SymbolRules } from '../../../api/orderRules';
import { draftToOrder, emptyDraft, REQUEST_BUILDER_PROTOCOL, type Experiment, type OrderDraft, type RunResult, type ToHost } from '../protocol';
import { renderHeaders, renderPrehash, utf8Length, showWhitespace, type PreparedView } from '../model/signatureView';
import { onHostMessage, webviewApi } from '../../../webviewBridge/vscodeApi';
import { shownIssues } from '../model/formIssues';

const vscode = webviewApi<typeof REQUEST_BUILDER_PROTOCOL, { draft: OrderDraft }>(REQUEST_BUILDER_PROTOCOL);
const post = (m: ToHost) => vscode.post(m);

// ---------------------------------------------------------------------------------------------
// DOM helpers (text only, never innerHTML)
// ---------------------------------------------------------------------------------------------

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function clear(e: Element): void {
  while (e.firstChild) e.removeChild(e.firstChild);
}

function newClientOid(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

// ---------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------

let symbols: SymbolRules[] = [];
let symbolMap = new Map<string, SymbolRules>();
const saved = vscode.getState() as { draft?: OrderDraft } | undefined;
let draft: OrderDraft = saved?.draft ?? emptyDraft('', newClientOid());
let busy = false;
let hasErrors = false;
/** Fields the person has changed: their issues are shown (no error before input). */
const touched = new Set<string>();
/** The person pressed "Run order test" or "Place order…": every issue is shown. */
let attempted = false;

/** Fields whose value differs from a fresh draft (a restored or loaded order counts as input). */
function filledFields(d: OrderDraft): string[] {
  const empty = emptyDraft(d.symbol, d.clientOid) as Record<string, unknown>;
  return Object.entries(d).filter(([k, v]) => v !== empty[k]).map(([k]) => k);
}

// ---------------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------------

const app = document.getElementById('app') ?? document.body;
const header = el('header', 'rb-header');
const title = el('h1', undefined, 'Request Builder');
const profileBadge = el('span', 'rb-badge', '');
header.append(title, profileBadge);

const formCol = el('section', 'rb-col rb-form');
const previewCol = el('section', 'rb-col rb-preview');
const main = el('main', 'rb-main');
main.append(formCol, previewCol);
const statusLine = el('div', 'rb-status');
statusLine.setAttribute('role', 'status');
app.append(header, main);

type FieldName = keyof OrderDraft;
const inputs = new Map<FieldName, HTMLInputElement | HTMLSelectElement>();
const errorSpans = new Map<FieldName, HTMLElement>();
const rows = new Map<FieldName, HTMLElement>();

function fieldRow(name: FieldName, label: string, control: HTMLInputElement | HTMLSelectElement, hint?: string, extra?: HTMLElement): HTMLElement {
  const row = el('div', 'rb-row');
  row.dataset.field = name;
  const id = `f-${name}`;
  control.id = id;
  control.name = name;
  const lab = el('label', 'rb-label', label);
  lab.htmlFor = id;
  const wrap = el('div', 'rb-control');
  wrap.append(control);
  if (extra) wrap.append(extra);
  const err = el('div', 'rb-field-msg');
  err.id = `${id}-msg`;
  control.setAttribute('aria-describedby', err.id);
  if (hint) control.title = hint;
  row.append(lab, wrap, err);
  inputs.set(name, control);
  errorSpans.set(name, err);
  rows.set(name, row);
  return row;
}

function textInput(placeholder = '', mode: 'decimal' | 'text' | 'numeric' = 'text'): HTMLInputElement {
  const i = el('input');
  i.type = 'text';
  i.placeholder = placeholder;
  i.spellcheck = false;
  i.autocomplete = 'off';
  i.inputMode = mode;
  return i;
}

function select(options: readonly (readonly [string, string])[]): HTMLSelectElement {
  const s = el('select');
  for (const [value, text] of options) {
    const o = el('option', undefined, text);
    o.value = value;
    s.append(o);
  }
  return s;
}

function checkbox(): HTMLInputElement {
  const c = el('input');
  c.type = 'checkbox';
  return c;
}

// Symbol + rules
const symbolSelect = select([]);
const rulesBox = el('dl', 'rb-rules');
const formTitle = el('h2', undefined, 'HF order');
formCol.append(formTitle, fieldRow('symbol', 'Symbol', symbolSelect), rulesBox);

const sideSel = select([['buy', 'buy'], ['sell', 'sell']]);
const typeSel = select([['limit', 'limit'], ['market', 'market']]);
formCol.append(fieldRow('side', 'Side', sideSel), fieldRow('type', 'Type', typeSel));
formCol.append(
  fieldRow('price', 'Price', textInput('e.g. 50000', 'decimal')),
  fieldRow('size', 'Size', textInput('base amount', 'decimal')),
  fieldRow('funds', 'Funds', textInput('quote amount (market only)', 'decimal')),
  fieldRow('timeInForce', 'Time in force', select([['', 'GTC (default)'], ...TIME_IN_FORCE.filter((t) => t !== 'GTC').map((t) => [t, t] as const)])),
  fieldRow('cancelAfter', 'Cancel after (s)', textInput('GTT only', 'numeric')),
);
const flags = el('div', 'rb-flags');
for (const [name, label] of [['postOnly', 'Post only'], ['hidden', 'Hidden'], ['iceberg', 'Iceberg']] as const) {
  const c = checkbox();
  c.id = `f-${name}`;
  c.name = name;
  const l = el('label', 'rb-flag');
  l.append(c, document.createTextNode(` ${label}`));
  flags.append(l);
  inputs.set(name, c);
  const err = el('div', 'rb-field-msg');
  errorSpans.set(name, err);
  flags.append(err);
}
const flagsRow = el('div', 'rb-row');
flagsRow.append(el('span', 'rb-label', 'Flags'), flags);
formCol.append(flagsRow);
const regen = el('button', 'rb-icon-button', 'New');
regen.type = 'button';
regen.title = 'Generate a new clientOid';
formCol.append(
  fieldRow('visibleSize', 'Visible size', textInput('iceberg only', 'decimal')),
  fieldRow('stp', 'STP', select([['', 'none'], ...STP_VALUES.map((v) => [v, v] as const)])),
  fieldRow('clientOid', 'clientOid', textInput('1–40 of A-Z a-z 0-9 _ -'), undefined, regen),
  fieldRow('remark', 'Remark', textInput('≤ 20 characters')),
  fieldRow('tags', 'Tags', textInput('≤ 20 characters')),
);
const generalMsg = el('div', 'rb-general-msg');
formCol.append(generalMsg);

// Actions
const actions = el('div', 'rb-actions');
const testBtn = el('button', 'rb-primary', 'Run order test');
const curlBtn = el('button', 'rb-secondary', 'Copy as curl');
const curlSecretsBtn = el('button', 'rb-secondary', 'Copy with secrets…');
curlSecretsBtn.title = 'Copy as curl including the API key and passphrase header (asks first)';
const placeBtn = el('button', 'rb-danger', 'Place order…');
for (const b of [testBtn, curlBtn, curlSecretsBtn, placeBtn]) b.type = 'button';
testBtn.title = 'POST /api/v1/hf/orders/test: validates the signature and parameters, creates no order';
const PLACE_TITLE = 'POST /api/v1/hf/orders: places the order after a confirmation that names the profile';
placeBtn.title = PLACE_TITLE;
actions.append(testBtn, curlBtn, curlSecretsBtn);
const guarded = el('div', 'rb-guarded');
guarded.append(placeBtn, el('span', 'rb-muted', 'Sends the same signed body to POST /api/v1/hf/orders after a confirmation.'));
formCol.append(actions, guarded);

// Experiment (sandbox profiles only): one order test signed wrongly on purpose.
const experiment = el('details', 'rb-experiment');
experiment.hidden = true;
const expSummary = el('summary', undefined, 'Experiment: sign one order test wrongly (sandbox only)');
const expNote = el('p', 'rb-muted', 'Overrides apply to the next "Run experiment" only, then reset. Each shows the exchange\'s answer and SpotDesk\'s diagnosis.');
const expOffset = textInput('e.g. 6000 (beyond ±5 s: 400002)', 'numeric');
expOffset.id = 'x-offset';
const expVersion = select([['', "the key's own"], ['1', '1 (plain passphrase)'], ['2', '2'], ['3', '3']]);
expVersion.id = 'x-version';
const expPass = select([['', 'as the key version says'], ['plain', 'plain text'], ['hmac', 'HMAC (base64)']]);
expPass.id = 'x-passphrase';
const expRows: [string, HTMLInputElement | HTMLSelectElement][] = [['Timestamp offset (ms)', expOffset], ['KC-API-KEY-VERSION', expVersion], ['Passphrase', expPass]];
const expBtn = el('button', 'rb-secondary rb-experiment-run', 'Run experiment (order test)');
expBtn.type = 'button';
expBtn.title = 'POST /api/v1/hf/orders/test signed with these overrides: creates no order';
experiment.append(expSummary, expNote);
for (const [label, control] of expRows) {
  const row = el('div', 'rb-row');
  const lab = el('label', 'rb-label', label);
  lab.htmlFor = control.id;
  row.append(lab, control);
  experiment.append(row);
}
experiment.append(expBtn);
// Its controls are not order fields: keep their events away from the form's handler.
for (const t of ['input', 'change']) experiment.addEventListener(t, (e) => e.stopPropagation());
formCol.append(experiment, statusLine);

/** The overrides entered (undefined when none, or the offset is not a whole number of ms within ±10 min). */
function readExperiment(): Experiment | 'invalid' | undefined {
  const o = expOffset.value.trim();
  const n = o === '' ? undefined : Number(o);
  if (n !== undefined && (!/^[+-]?\d+$/.test(o) || Math.abs(n) > 600_000)) return 'invalid';
  const e: { timestampOffsetMs?: number; keyVersion?: '1' | '2' | '3'; passphraseEncoding?: 'plain' | 'hmac' } = {};
  if (n !== undefined) e.timestampOffsetMs = n;
  if (expVersion.value) e.keyVersion = expVersion.value as '1' | '2' | '3';
  if (expPass.value) e.passphraseEncoding = expPass.value as 'plain' | 'hmac';
  return Object.keys(e).length ? e : undefined;
}

// Preview
const previewTitle = el('h2', undefined, 'What will be signed');
const previewBox = el('div', 'rb-signed');
const resultTitle = el('h2', undefined, 'Result');
const resultBox = el('div', 'rb-result');
clearResult();
previewCol.append(previewTitle, previewBox, resultTitle, resultBox);

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

function renderSymbols(symbolsError?: string): void {
  clear(symbolSelect);
  if (!symbols.some((s) => s.symbol === draft.symbol) && draft.symbol) {
    const o = el('option', undefined, `${draft.symbol} (unknown)`);
    o.value = draft.symbol;
    symbolSelect.append(o);
  }
  for (const s of symbols) {
    const o = el('option', undefined, s.symbol);
    o.value = s.symbol;
    symbolSelect.append(o);
  }
  if (symbolsError) setStatus('error', `Symbols could not be loaded: ${symbolsError}`, { label: 'Retry', run: () => post({ type: 'reloadSymbols' }) });
}

function renderRules(): void {
  clear(rulesBox);
  const r = symbolMap.get(draft.symbol);
  if (!r) {
    rulesBox.append(el('dt', undefined, 'Rules'), el('dd', 'rb-muted', 'unknown symbol'));
    return;
  }
  const items: [string, string][] = [
    ['priceIncrement', r.priceIncrement],
    ['baseIncrement', r.baseIncrement],
    ['quoteIncrement', r.quoteIncrement],
    ['baseMinSize', r.baseMinSize],
    ['baseMaxSize', r.baseMaxSize],
    ['quoteMinSize', r.quoteMinSize],
    ['quoteMaxSize', r.quoteMaxSize],
    ['minFunds', r.minFunds ?? '—'],
  ];
  for (const [k, v] of items) rulesBox.append(el('dt', undefined, k), el('dd', 'rb-mono', v));
}

function writeForm(): void {
  for (const [name, input] of inputs) {
    const v = draft[name];
    if (input instanceof HTMLInputElement && input.type === 'checkbox') input.checked = v === true;
    else input.value = String(v);
  }
}

function readForm(): OrderDraft {
  const d = { ...draft } as Record<string, unknown>;
  for (const [name, input] of inputs) {
    d[name] = input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input.value;
  }
  return d as OrderDraft;
}

function applyVisibility(): void {
  const market = draft.type === 'market';
  for (const f of ['price', 'timeInForce', 'cancelAfter', 'visibleSize'] as const) rows.get(f)?.classList.toggle('rb-hidden', market);
  flagsRow.classList.toggle('rb-hidden', market);
  rows.get('funds')?.classList.toggle('rb-hidden', !market);
  rows.get('visibleSize')?.classList.toggle('rb-hidden', market || !draft.iceberg);
  rows.get('cancelAfter')?.classList.toggle('rb-hidden', market || draft.timeInForce !== 'GTT');
}

function renderIssues(issues: RuleIssue[]): void {
  for (const span of errorSpans.values()) {
    span.textContent = '';
    span.className = 'rb-field-msg';
  }
  for (const input of inputs.values()) input.classList.remove('rb-invalid', 'rb-warn');
  // Only what the person has touched (or everything after a try), each at the field at fault.
  const shown = shownIssues(issues, touched, attempted);
  const general = shown.general.map((i) => `${i.severity === 'error' ? 'Error' : 'Warning'}: ${i.message}`);
  for (const [field, list] of shown.byField) {
    const span = errorSpans.get(field as FieldName);
    const hidden = rows.get(field as FieldName)?.classList.contains('rb-hidden') ?? flagsRow.classList.contains('rb-hidden');
    const first = list[0];
    if (span && !hidden) {
      span.textContent = first.message;
      span.classList.add(first.severity === 'error' ? 'rb-error' : 'rb-warning');
      inputs.get(field as FieldName)?.classList.add(first.severity === 'error' ? 'rb-invalid' : 'rb-warn');
      for (const more of list.slice(1)) general.push(`${more.severity === 'error' ? 'Error' : 'Warning'}: ${more.message}`);
    } else for (const i of list) general.push(`${i.severity === 'error' ? 'Error' : 'Warning'}: ${i.message}`);
  }
  generalMsg.textContent = general.join('\n');
  const firstError = issues.find((i) => i.severity === 'error');
  hasErrors = firstError !== undefined;
  placeBtn.disabled = busy || hasErrors;
  placeBtn.title = firstError ? `Not ready to place: ${firstError.message}` : PLACE_TITLE;
}

function validate(): RuleIssue[] {
  const issues = validateOrder(draftToOrder(draft), symbols.length ? { symbols: symbolMap } : {});
  renderIssues(issues);
  return issues;
}

function kv(parent: HTMLElement, k: string, v: string, mono = true): void {
  parent.append(el('dt', undefined, k), el('dd', mono ? 'rb-mono' : undefined, v));
}

function renderPrepared(target: HTMLElement, p: PreparedView): void {
  const r = renderPrehash(p);
  const pre = el('div', 'rb-prehash rb-mono');
  pre.setAttribute('aria-label', 'prehash string');
  for (const part of r.parts) {
    const span = el('span', `rb-part rb-part-${part.label}`, showWhitespace(part.text));
    span.title = part.label;
    pre.append(span);
  }
  const legend = el('div', 'rb-legend');
  for (const part of r.parts) legend.append(el('span', `rb-chip rb-part-${part.label}`, part.label));
  legend.append(el('span', 'rb-muted', `${r.bytes} bytes · timestamp + METHOD + path?query + body`));
  const h3a = el('h3', undefined, 'Prehash');
  target.append(h3a, pre, legend);
  if (!r.consistent) target.append(el('p', 'rb-error', 'Warning: the prehash is not timestamp + method + path + body of this request.'));

  target.append(el('h3', undefined, `Body (${utf8Length(p.body)} bytes)`));
  target.append(el('pre', 'rb-body rb-mono', p.body === '' ? '(empty)' : p.body));

  target.append(el('h3', undefined, 'Headers'));
  const table = el('table', 'rb-headers');
  for (const h of renderHeaders(p.headers)) {
    const tr = el('tr');
    tr.append(el('th', 'rb-mono', h.name), el('td', `rb-mono${h.masked ? ' rb-masked' : ''}`, h.value));
    table.append(tr);
  }
  target.append(table);
  const meta = el('dl', 'rb-meta');
  kv(meta, 'Request', `${p.method} ${p.url}`);
  kv(meta, 'Key version', p.keyVersion);
  const ms = (v: number) => `${v >= 0 ? '+' : ''}${v} ms`;
  kv(meta, 'Clock offset to server', p.measuredOffsetMs === undefined ? 'not measured' : `${ms(p.measuredOffsetMs)} (server − local, GET /api/v1/timestamp)`);
  kv(meta, 'Offset applied when signing', p.clockOffsetMs === null ? '—' : ms(p.clockOffsetMs));
  target.append(meta);
  target.append(el('p', 'rb-muted', 'The API secret never leaves the extension: signing happens there.'));
}

function renderPreview(prepared: PreparedView | null, error?: string): void {
  clear(previewBox);
  if (!prepared) {
    previewBox.append(el('p', 'rb-muted', error ?? 'Fill in the order to see the signed request.'));
    return;
  }
  renderPrepared(previewBox, prepared);
}

function renderResult(r: RunResult): void {
  clear(resultBox);
  const d = r.diagnosis;
  const banner = el('div', `rb-banner rb-banner-${d.severity}`);
  banner.append(el('strong', undefined, `${r.experiment ? 'Experiment' : r.kind === 'test' ? 'Order test' : 'Place order'}: ${d.title}`));
  if (r.experiment) {
    const x = r.experiment;
    const what = [x.timestampOffsetMs !== undefined ? `timestamp ${x.timestampOffsetMs >= 0 ? '+' : ''}${x.timestampOffsetMs} ms` : '', x.keyVersion ? `key version ${x.keyVersion}` : '', x.passphraseEncoding ? `passphrase ${x.passphraseEncoding}` : ''].filter(Boolean);
    banner.append(el('div', 'rb-experiment-tag', `Signed wrongly on purpose: ${what.join(', ')}.`));
  }
  resultBox.append(banner);
  const meta = el('dl', 'rb-meta');
  kv(meta, 'HTTP status', String(r.status));
  kv(meta, 'Code', r.code ?? '—');
  kv(meta, 'Latency', `${r.latencyMs} ms`);
  const rl = r.rateLimit;
  kv(meta, 'Rate limit', rl.limit || rl.remaining || rl.reset ? `remaining ${rl.remaining ?? '?'} of ${rl.limit ?? '?'}, reset in ${rl.reset ?? '?'} ms` : 'no rate-limit headers');
  resultBox.append(meta);
  if (d.severity !== 'ok' || d.details.length > 1) {
    const ul = el('ul', 'rb-diagnosis');
    for (const line of d.details) ul.append(el('li', undefined, line));
    resultBox.append(ul);
  }
  resultBox.append(el('h3', undefined, 'Response body'));
  resultBox.append(el('pre', 'rb-body rb-mono', r.body));
  const details = el('details', 'rb-sent');
  details.append(el('summary', undefined, 'Request as sent'));
  renderPrepared(details, r.prepared);
  resultBox.append(details);
  if (d.field && inputs.has(d.field as FieldName)) inputs.get(d.field as FieldName)?.classList.add('rb-invalid');
}

/** The status line: `message`, and a button (e.g. Retry) when `action` is given. */
function setStatus(level: 'info' | 'error', message: string, action?: { label: string; run: () => void }): void {
  clear(statusLine);
  statusLine.append(el('span', undefined, message));
  if (action) {
    const b = el('button', 'rb-secondary rb-status-action', action.label);
    b.type = 'button';
    b.addEventListener('click', () => action.run());
    statusLine.append(b);
  }
  statusLine.className = `rb-status rb-status-${level}`;
}

/** "Run an order test to see the response." in place of a result. */
function clearResult(): void {
  clear(resultBox);
  resultBox.append(el('p', 'rb-muted', 'Run an order test to see the response.'));
}

function setBusy(b: boolean): void {
  busy = b;
  for (const btn of [testBtn, curlBtn, curlSecretsBtn, expBtn]) btn.disabled = b;
  placeBtn.disabled = b || hasErrors;
  testBtn.textContent = b ? 'Running…' : 'Run order test';
}

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

let draftTimer: ReturnType<typeof setTimeout> | undefined;
let draftSeq = 0;
function onFormChange(ev?: Event): void {
  const name = (ev?.target as HTMLInputElement | null)?.name;
  if (name) touched.add(name);
  draft = readForm();
  vscode.setState({ draft });
  renderRules();
  applyVisibility();
  validate();
  if (draftTimer) clearTimeout(draftTimer);
  draftTimer = setTimeout(() => post({ type: 'draft', draft, seq: ++draftSeq }), 150);
}

formCol.addEventListener('input', onFormChange);
formCol.addEventListener('change', onFormChange);
regen.addEventListener('click', () => {
  (inputs.get('clientOid') as HTMLInputElement).value = newClientOid();
  onFormChange();
});
/** The person tries the order: from now on every issue is shown. */
function attempt(): void {
  attempted = true;
  draft = readForm();
  validate();
}
testBtn.addEventListener('click', () => {
  attempt();
  post({ type: 'runTest', draft });
});
expBtn.addEventListener('click', () => {
  const x = readExperiment();
  if (x === 'invalid') return setStatus('error', 'The timestamp offset is a whole number of milliseconds within ±600000.');
  if (!x) return setStatus('info', 'Choose at least one override for the experiment.');
  attempt();
  post({ type: 'runTest', draft, experiment: x });
  // For one run only.
  expOffset.value = '';
  expVersion.value = '';
  expPass.value = '';
});
curlBtn.addEventListener('click', () => post({ type: 'copyCurl', draft: readForm(), includeSecrets: false }));
curlSecretsBtn.addEventListener('click', () => post({ type: 'copyCurl', draft: readForm(), includeSecrets: true }));
placeBtn.addEventListener('click', () => {
  attempt();
  post({ type: 'place', draft });
});

onHostMessage(REQUEST_BUILDER_PROTOCOL, (msg) => {
  switch (msg.type) {
    case 'init': {
      symbols = msg.symbols;
      symbolMap = new Map(symbols.map((s) => [s.symbol, s]));
      if (!saved?.draft || msg.replaceDraft) draft = msg.draft;
      if (!draft.symbol && symbols.length) draft.symbol = symbols[0].symbol;
      if (msg.replaceDraft) attempted = false;
      for (const f of filledFields(draft)) touched.add(f);
      // Which exchange this panel speaks to, always in view.
      profileBadge.textContent = `Profile: ${msg.profile.name}${msg.profile.sandbox ? ' · sandbox' : ' · LIVE'}`;
      profileBadge.title = msg.profile.sandbox ? 'The offline sandbox exchange: nothing real is traded' : 'A real exchange: "Place order" trades real funds';
      profileBadge.classList.toggle('rb-badge-live', !msg.profile.sandbox);
      experiment.hidden = !msg.profile.sandbox;
      if (!msg.profile.sandbox) experiment.open = false;
      if (msg.profileChanged) {
        // The result and the preview were another exchange's.
        clearResult();
        renderPreview(null);
        setStatus('info', `Now speaking to profile "${msg.profile.name}"${msg.profile.sandbox ? ' (sandbox)' : ' (a real exchange)'}: the previous profile's result was cleared.`);
      }
      renderSymbols(msg.symbolsError);
      writeForm();
      renderRules();
      applyVisibility();
      validate();
      post({ type: 'draft', draft, seq: ++draftSeq });
      break;
    }
    case 'preview':
      if (msg.seq !== undefined && msg.seq < draftSeq) break; // a newer draft is being signed
      renderPreview(msg.prepared, msg.error);
      break;
    case 'result':
      renderResult(msg.result);
      setStatus(msg.result.diagnosis.severity === 'ok' ? 'info' : 'error', msg.result.diagnosis.title);
      if (msg.result.kind === 'place' && msg.result.diagnosis.severity === 'ok') {
        (inputs.get('clientOid') as HTMLInputElement).value = newClientOid();
        onFormChange();
      }
      break;
    case 'busy':
      setBusy(msg.busy);
      break;
    case 'notice':
      setStatus(msg.level, msg.message);
      break;
    case 'trigger': {
      // A keyboard shortcut (package.json keybindings): the same path as a click.
      const btn = msg.action === 'runTest' ? testBtn : placeBtn;
      if (btn.disabled) setStatus('info', msg.action === 'place' && hasErrors ? placeBtn.title : 'Busy: a request is in flight.');
      else btn.click();
      break;
    }
  }
});

renderPreview(null);
post({ type: 'ready' });
