/**
 * The request builder's extension-side logic, independent of the webview: sign a draft for the
 * preview (`SpotClient.prepare`), run the order test / placement (`SpotClient.send`, never
 * throwing for API errors), measure clock skew on 400002, diagnose, and render curl. Signing
 * happens only here; what leaves for the webview is the redacted {@link PreparedView}.
 *
 * Dependencies are injected ({@link ControllerDeps}) so host tests can swap the client (wrong
 * secret, skewed clock, key without Spot Trading) and answer the confirmation.
 */
import type { PreparedRequest, SendResult, SpotClient } from '../../api/client';
import type { SymbolInfo } from '../../api/schemas';
import { diagnose } from './model/diagnose';
import { failureText } from '../../api/failure';
import { estimateLines, estimateOrder, symbolFeeRates, type OrderEstimate } from '../../api/orderEstimate';
import { fractionDigits } from '../../api/decimal';
import { symbolRules, validateOrder, type RuleIssue, type SymbolRules } from '../../api/orderRules';
import { draftToOrder, isExperiment, type Experiment, type OrderDraft, type RunResult, type ToHost, type ToWebview } from './protocol';
import { renderCurl, type PreparedView } from './model/signatureView';
import type { Confirmation } from '../../host/moneyGate';
import { fundsKind, fundsPhrase, type FundsProfile } from '../../api/moneyWords';

/** What the controller needs from the extension (see module docs). */
export interface ControllerDeps {
  /** The client of the active profile (throws a user-facing Error without credentials). */
  client(): Promise<SpotClient>;
  /** The client for public data (the level-2 book of the placement estimate); works without credentials. */
  publicClient(): Promise<SpotClient>;
  /**
   * The active profile's symbols (GET /api/v2/symbols, public, so order documents get rules on a
   * profile without an API key). The extension shares one cached list with failure back-off
   * (`Services.symbols`); `force` asks the exchange now.
   */
  symbols(force?: boolean): Promise<readonly SymbolInfo[]>;
  /**
   * Modal confirmation; resolves true when the user chose `action` (`cancel` labels the button
   * that declines). Injected so tests can answer.
   */
  confirm(message: string, detail: string, action: string, cancel?: string): Promise<boolean>;
  /**
   * Modal confirmation of a placement (`services.gate.confirm('place', …)`): the person's
   * confirmation, or undefined when they declined.
   */
  confirmPlacement(message: string, detail: string, action: string, cancel?: string): Promise<Confirmation | undefined>;
  /** Run `send` within `confirmation` (`services.gate.run`): a real profile's client refuses a placement outside it. */
  withConfirmation<T>(confirmation: Confirmation | undefined, send: () => Promise<T>): Promise<T>;
  /** The active profile the panel speaks to: its name, whether it is the offline sandbox, its base URL. */
  profile(): FundsProfile;
  /** After a successful placement: remember the symbol and refresh Active Orders. */
  afterPlace(symbol: string): void;
  /** Log line (never contains secrets). */
  log(line: string): void;
}

/** What an experiment changes, in words ("timestamp +6000 ms; key version 1; passphrase plain"). */
export function experimentText(e: Experiment): string {
  const parts: string[] = [];
  if (e.timestampOffsetMs !== undefined) parts.push(`timestamp ${e.timestampOffsetMs >= 0 ? '+' : ''}${e.timestampOffsetMs} ms`);
  if (e.keyVersion !== undefined) parts.push(`KC-API-KEY-VERSION ${e.keyVersion}`);
  if (e.passphraseEncoding !== undefined) parts.push(`passphrase ${e.passphraseEncoding === 'plain' ? 'in plain text' : 'as HMAC'}`);
  return parts.join('; ') || 'nothing changed';
}

/** Convert the client's prepared request to the display form sent to the webview. */
export function toView(p: PreparedRequest): PreparedView {
  return {
    method: p.method,
    url: p.url,
    pathWithRawQuery: p.pathWithRawQuery,
    body: p.body,
    prehash: p.prehash,
    headers: { ...p.headers },
    timestamp: String(p.timestamp),
    keyVersion: p.keyVersion ?? '—',
    clockOffsetMs: Number.isFinite(p.clockOffsetMs) ? p.clockOffsetMs : null,
  };
}

/** Pretty-print a JSON body for display; non-JSON text is returned unchanged. Large integers are kept as text. */
export function prettyBody(text: string): string {
  try {
    JSON.parse(text);
  } catch {
    return text;
  }
  // Re-indent without re-parsing numbers (a tradeId above 2^53 must stay exact).
  let out = '';
  let depth = 0;
  let inStr = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inStr) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === '"') {
      inStr = true;
      out += c;
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      let j = i + 1;
      while (/\s/.test(text[j] ?? '')) j++;
      if (text[j] === close) {
        out += c + close;
        i = j;
      } else {
        depth++;
        out += `${c}\n${'  '.repeat(depth)}`;
      }
    } else if (c === '}' || c === ']') {
      depth--;
      out += `\n${'  '.repeat(depth)}${c}`;
    } else if (c === ',') out += `,\n${'  '.repeat(depth)}`;
    else if (c === ':') out += ': ';
    else if (!/\s/.test(c)) out += c;
  }
  return out;
}

/** The result of a run, plus the raw send result (host tests read both). */
export interface RunOutcome {
  result: RunResult;
  send: SendResult;
}

/** Request-builder logic (see module docs). */
export class RequestBuilderController {
  /** The rules of the last symbol list seen (recomputed when the list object changes). */
  private rulesOf: { list: readonly SymbolInfo[]; rules: SymbolRules[] } | undefined;
  private readonly offsets = new WeakMap<SpotClient, { offsetMs: number; at: number }>();

  constructor(private readonly deps: ControllerDeps) {}

  /** Forget the rules derived from the symbol list (profile or client changed). */
  reset(): void {
    this.rulesOf = undefined;
  }

  /**
   * Symbol rules of the active profile (from {@link ControllerDeps.symbols}), sorted by symbol.
   * @throws the client's errors (no credentials are needed: public endpoint).
   */
  async symbols(force = false): Promise<SymbolRules[]> {
    const list = await this.deps.symbols(force);
    if (this.rulesOf?.list !== list) this.rulesOf = { list, rules: list.map(symbolRules).sort((a, b) => a.symbol.localeCompare(b.symbol)) };
    return this.rulesOf.rules;
  }

  /** Symbol rules as a map, or undefined when they cannot be loaded. */
  async symbolMap(): Promise<Map<string, SymbolRules> | undefined> {
    try {
      return new Map((await this.symbols()).map((r) => [r.symbol, r]));
    } catch {
      return undefined;
    }
  }

  /** Local rule issues of a draft (empty when it passes). */
  async issues(draft: OrderDraft): Promise<RuleIssue[]> {
    const map = await this.symbolMap();
    return validateOrder(draftToOrder(draft), map ? { symbols: map } : {});
  }

  /**
   * Sign `draft` for `endpoint` exactly as it would be sent (no schema validation: the builder
   * may send invalid orders on purpose to see the exchange's answer).
   * @throws Error when the profile has no credentials.
   */
  async prepare(draft: OrderDraft, endpoint: 'testOrder' | 'placeOrder' = 'testOrder', experiment?: Experiment): Promise<{ client: SpotClient; prepared: PreparedRequest }> {
    const client = await this.deps.client();
    const order = draftToOrder(draft);
    const prepared = client.prepare(endpoint, order as never, { validate: false, rawBody: JSON.stringify(order), ...(experiment ? { experiment } : {}) });
    return { client, prepared };
  }

  /**
   * Why `experiment` may not run now, or undefined when it may: only the order test (it moves no
   * money), only on a sandbox profile (the built-in sandbox: its keys are play money and its answers
   * are the diagnoses to learn). Checked here, in the extension — the webview only hides the section.
   */
  experimentRefusal(kind: 'test' | 'place'): string | undefined {
    if (kind !== 'test') return 'An experiment signs only the order test (POST /api/v1/hf/orders/test), never a placement.';
    const p = this.deps.profile();
    if (p.sandbox !== true) return `Experiments run on sandbox profiles only; "${p.name}" is not one, so nothing was sent.`;
    return undefined;
  }

  /**
   * Server clock − local clock (ms) measured with GET /api/v1/timestamp, cached per client for
   * 60 s; undefined when the server cannot be reached. Display only: it does not change the
   * client's signing offset.
   */
  async serverOffset(client: SpotClient): Promise<number | undefined> {
    const c = this.offsets.get(client);
    if (c && Date.now() - c.at < 60_000) return c.offsetMs;
    const skew = await this.measureSkew(client, 0);
    if (skew !== undefined) this.offsets.set(client, { offsetMs: skew, at: Date.now() });
    return skew;
  }

  /** Preview of a draft for the webview: the signed view or why it cannot be signed, and local issues. */
  async preview(draft: OrderDraft): Promise<{ prepared: PreparedView | null; error?: string; issues: RuleIssue[] }> {
    const issues = await this.issues(draft);
    try {
      const { client, prepared } = await this.prepare(draft);
      const measured = await this.serverOffset(client);
      return { prepared: { ...toView(prepared), ...(measured !== undefined ? { measuredOffsetMs: measured } : {}) }, issues };
    } catch (err) {
      return { prepared: null, error: err instanceof Error ? err.message : String(err), issues };
    }
  }

  /**
   * Run the order test (POST /api/v1/hf/orders/test) or, after a modal confirmation showing the
   * order summary, place it (POST /api/v1/hf/orders) with the same signed body.
   * On 400002 the skew is measured with GET /api/v1/timestamp for the diagnosis.
   * @returns undefined when the placement was not confirmed or was refused locally.
   * @throws Error without credentials; TransportError when no answer arrived.
   */
  async run(kind: 'test' | 'place', draft: OrderDraft, experiment?: Experiment): Promise<RunOutcome | undefined> {
    const exp = isExperiment(experiment) ? experiment : undefined;
    if (exp) {
      const refused = this.experimentRefusal(kind);
      if (refused) throw new Error(refused);
    }
    const order = draftToOrder(draft);
    const map = await this.symbolMap();
    const rules = map?.get(String(order.symbol ?? ''));
    let confirmation: Confirmation | undefined;
    if (kind === 'place') {
      const errors = validateOrder(order, map ? { symbols: map } : {}).filter((i) => i.severity === 'error');
      if (errors.length) throw new Error(`The order is not valid: ${errors[0].message}`);
      const estimate = await this.estimate(order, rules);
      const c = placementConfirmation(order, this.deps.profile(), estimate, rules?.quoteCurrency ?? '');
      confirmation = await this.deps.confirmPlacement(c.message, c.detail, PLACE_ACTION, "Don't Place");
      if (!confirmation) return undefined;
    }
    const { client, prepared } = await this.prepare(draft, kind === 'test' ? 'testOrder' : 'placeOrder', exp);
    if (exp) this.deps.log(`request builder: EXPERIMENT on a sandbox profile — ${experimentText(exp)}`);
    const send = await this.deps.withConfirmation(confirmation, () => client.send(prepared));
    let measuredSkewMs: number | undefined;
    if (send.code === '400002') {
      measuredSkewMs = await this.measureSkew(client, prepared.clockOffsetMs);
      this.offsets.delete(client);
    }
    const measured = await this.serverOffset(client);
    const view: PreparedView = { ...toView(prepared), ...(measured !== undefined ? { measuredOffsetMs: measured } : {}) };
    let msg: string | undefined;
    try {
      const parsed = JSON.parse(send.bodyText) as { msg?: unknown };
      if (typeof parsed?.msg === 'string') msg = parsed.msg;
    } catch {
      msg = undefined;
    }
    const diagnosis = diagnose({ status: send.status, code: send.code, msg, prepared: view, measuredSkewMs, order, rules });
    const rl = send.rateLimit;
    const result: RunResult = {
      kind,
      status: send.status,
      ...(send.code !== undefined ? { code: send.code } : {}),
      body: prettyBody(send.bodyText),
      latencyMs: Math.round(send.latencyMs),
      rateLimit: {
        ...(rl?.limit !== undefined ? { limit: String(rl.limit) } : {}),
        ...(rl?.remaining !== undefined ? { remaining: String(rl.remaining) } : {}),
        ...(rl?.reset !== undefined ? { reset: String(rl.reset) } : {}),
      },
      diagnosis,
      prepared: view,
      ...(exp ? { experiment: exp } : {}),
    };
    this.deps.log(`request builder: ${kind} ${order.symbol} → HTTP ${send.status} ${send.code ?? '-'} in ${result.latencyMs} ms`);
    if (kind === 'place' && send.code === '200000') this.deps.afterPlace(String(order.symbol));
    return { result, send };
  }

  /**
   * What `order` would cost now (src/api/orderEstimate.ts): the best bid/ask from GET
   * /api/v1/market/orderbook/level2_20 and the user's rates on the symbol (GET /api/v1/base-fee × the
   * symbol's fee coefficients, {@link symbolFeeRates}). Either may
   * be unavailable (then the estimate says so); never throws.
   */
  async estimate(order: Record<string, unknown>, rules: SymbolRules | undefined): Promise<OrderEstimate> {
    const symbol = String(order.symbol ?? '');
    const [book, base, info] = await Promise.all([
      this.deps.publicClient().then((c) => c.getLevel2(symbol, 20)).catch(() => undefined),
      this.deps.client().then((c) => c.getBaseFee()).catch(() => undefined),
      this.deps.symbols().then((all) => all.find((x) => x.symbol === symbol)).catch(() => undefined),
    ]);
    // The same rule as the Order Ticket: base rates × the symbol's fee coefficients.
    const fees = base ? symbolFeeRates(base, info) : undefined;
    const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
    return estimateOrder(
      {
        side: order.side === 'sell' ? 'sell' : 'buy',
        type: order.type === 'market' ? 'market' : 'limit',
        price: str(order.price),
        size: str(order.size),
        funds: str(order.funds),
        postOnly: order.postOnly === true,
        base: rules?.baseCurrency ?? '',
        baseDigits: rules ? fractionDigits(rules.baseIncrement) : 8,
      },
      // A market order walks these 20 levels (its average price, slippage, and whether it is larger than them).
      { bestBid: book?.bids[0]?.[0], bestAsk: book?.asks[0]?.[0], bids: book?.bids, asks: book?.asks },
      fees,
      rules?.quoteCurrency ?? '',
      rules ? fractionDigits(rules.quoteIncrement) : 8,
    );
  }

  /**
   * Server time minus the signing clock (local midpoint of the round trip + `offsetMs`), in ms;
   * undefined when GET /api/v1/timestamp fails.
   */
  async measureSkew(client: SpotClient, offsetMs: number): Promise<number | undefined> {
    try {
      const t0 = Date.now();
      const server = await client.getServerTime();
      const t1 = Date.now();
      return Math.round(server - ((t0 + t1) / 2 + offsetMs));
    } catch {
      return undefined;
    }
  }

  /**
   * `curl` command of the draft's order test. With `includeSecrets` the user is asked first
   * (modal) and the real header values are used; resolves undefined when declined.
   * @throws Error when the client cannot reveal header values.
   */
  async curl(draft: OrderDraft, includeSecrets: boolean): Promise<string | undefined> {
    const { client, prepared } = await this.prepare(draft);
    if (!includeSecrets) return renderCurl(prepared);
    const ok = await this.deps.confirm(
      'Copy the curl command WITH your API key, signature and passphrase header?',
      'Anyone with this text can replay the request for a few seconds and learns your API key and, for key version 1, your passphrase. The API secret itself is never included.',
      'Include secrets',
    );
    if (!ok) return undefined;
    const headers = client.unredactedHeaders(prepared);
    if (!headers) throw new Error('This client cannot reveal header values; use "Copy as curl" (masked).');
    return renderCurl({ ...prepared, headers }, true);
  }
}

/** The action button of the placement confirmation. */
export const PLACE_ACTION = 'Place Order';

/**
 * The placement confirmation: the message names the profile (the sandbox is no real money; a real
 * exchange is said to be REAL), the detail lists the order, its notional, the estimated fee and
 * any warning (crossing the spread, far from the market), and where it is sent.
 */
export function placementConfirmation(
  order: Record<string, unknown>,
  profile: FundsProfile,
  estimate: OrderEstimate,
  quote: string,
): { message: string; detail: string } {
  const what = `${String(order.side)} ${String(order.type)} order on ${String(order.symbol)}`;
  const kind = fundsKind(profile);
  const message =
    kind === 'sandbox' ? `Place a ${what} on the sandbox profile "${profile.name}"?` : kind === 'local' ? `Place a ${what} on the local server of profile "${profile.name}"?` : `Place a REAL ${what} with profile "${profile.name}"?`;
  const where = `Profile: ${fundsPhrase(profile)}.`;
  return {
    message,
    detail: `${orderSummary(order)}\n\n${estimateLines(estimate, quote, order.side === 'sell' ? 'sell' : 'buy', typeof order.symbol === 'string' ? order.symbol.split('-')[0] : '').join('\n')}\n\n${where} This sends POST /api/v1/hf/orders: the order goes to the matching engine.`,
  };
}

/** The order in lines: side, type, symbol, price, size or funds, time in force, flags, clientOid. */
export function orderSummary(order: Record<string, unknown>): string {
  const lines = [
    `${String(order.side).toUpperCase()} ${String(order.type)} on ${String(order.symbol)}`,
    order.price !== undefined ? `price ${String(order.price)}` : undefined,
    order.size !== undefined ? `size ${String(order.size)}` : undefined,
    order.funds !== undefined ? `funds ${String(order.funds)}` : undefined,
    order.timeInForce !== undefined ? `timeInForce ${String(order.timeInForce)}${order.cancelAfter !== undefined ? ` (cancel after ${String(order.cancelAfter)} s)` : ''}` : undefined,
    ['postOnly', 'hidden', 'iceberg'].filter((f) => order[f] === true).join(', ') || undefined,
    order.clientOid !== undefined ? `clientOid ${String(order.clientOid)}` : undefined,
  ].filter((l): l is string => l !== undefined);
  return lines.join('\n');
}

/**
 * What a session does with a draft loaded from an order document once the webview is ready:
 * run the order test, or place it — through {@link RequestBuilderController.run}, which validates
 * the order and asks for the modal confirmation first (the "Place order…" code lens).
 */
export type AfterLoad = 'test' | 'place' | undefined;

/** What a {@link RequestBuilderSession} needs from its host (the VS Code panel or the e2e harness). */
export interface SessionHost {
  /** Deliver a message to the webview. */
  post(msg: ToWebview): void;
  /** Put text on the clipboard. */
  writeClipboard(text: string): Promise<void>;
  /** The active profile (name, sandbox flag). */
  profile(): { name: string; sandbox: boolean };
  /** Log a warning (never contains secrets). */
  warn(line: string): void;
}

/**
 * One webview session of the request builder: the message handling behind the panel, free of
 * `vscode` so the Chromium harness drives the same code with a real sandbox.
 */
export class RequestBuilderSession {
  private draft: OrderDraft;
  private replaceDraft: boolean;
  private ready = false;
  private runAfterInit: AfterLoad;
  /** Messages posted to the webview, newest last (at most 200; host tests read them). */
  readonly posted: ToWebview[] = [];
  /** The last run (test or placement) outcome. */
  lastRun: RunOutcome | undefined;

  constructor(
    private readonly controller: RequestBuilderController,
    private readonly host: SessionHost,
    draft: OrderDraft,
    replaceDraft: boolean,
    then: AfterLoad = undefined,
  ) {
    this.draft = draft;
    this.replaceDraft = replaceDraft;
    this.runAfterInit = then;
  }

  private post(msg: ToWebview): void {
    this.posted.push(msg);
    if (this.posted.length > 200) this.posted.splice(0, this.posted.length - 200);
    this.host.post(msg);
  }

  /** Replace the form with `draft` (order documents), then optionally run the order test or place it (guarded). */
  async load(draft: OrderDraft, then: AfterLoad): Promise<void> {
    this.draft = draft;
    this.replaceDraft = true;
    if (!this.ready) {
      this.runAfterInit = then;
      return;
    }
    await this.sendInit();
    if (then) await this.handle({ type: then === 'test' ? 'runTest' : 'place', draft });
  }

  /**
   * The active profile changed: drop cached symbols and the last result (it was another
   * exchange's), and re-initialize the webview, which clears its result and says which profile it
   * now speaks to.
   */
  async profileChanged(): Promise<void> {
    this.controller.reset();
    this.lastRun = undefined;
    if (this.ready) await this.sendInit(true);
  }

  private async sendInit(profileChanged = false): Promise<void> {
    let symbols: SymbolRules[] = [];
    let symbolsError: string | undefined;
    try {
      symbols = await this.controller.symbols();
    } catch (err) {
      symbolsError = failureText(err);
    }
    if (!this.draft.symbol && symbols.length) this.draft = { ...this.draft, symbol: symbols.find((s) => s.symbol === 'BTC-USDT')?.symbol ?? symbols[0].symbol };
    this.post({ type: 'init', symbols, draft: this.draft, profile: this.host.profile(), replaceDraft: this.replaceDraft, ...(symbolsError ? { symbolsError } : {}), ...(profileChanged ? { profileChanged } : {}) });
    this.replaceDraft = false;
  }

  /**
   * Handle one message from the webview (already validated by the protocol's `parseToHost`). Never
   * throws: failures become a `notice`. Host tests call it to drive the panel as the webview does.
   */
  async handle(msg: ToHost): Promise<void> {
    try {
      switch (msg.type) {
        case 'ready':
          this.ready = true;
          await this.sendInit();
          if (this.runAfterInit) {
            const then = this.runAfterInit;
            this.runAfterInit = undefined;
            await this.handle({ type: then === 'test' ? 'runTest' : 'place', draft: this.draft });
          }
          return;
        case 'reloadSymbols':
          await this.controller.symbols(true);
          await this.sendInit();
          return;
        case 'draft': {
          this.draft = msg.draft;
          const pv = await this.controller.preview(msg.draft);
          this.post({ type: 'preview', prepared: pv.prepared, issues: pv.issues, ...(pv.error ? { error: pv.error } : {}), ...(msg.seq !== undefined ? { seq: msg.seq } : {}) });
          return;
        }
        case 'runTest':
        case 'place': {
          this.draft = msg.draft;
          this.post({ type: 'busy', busy: true });
          try {
            const out = await this.controller.run(msg.type === 'runTest' ? 'test' : 'place', msg.draft, msg.type === 'runTest' ? msg.experiment : undefined);
            if (!out) {
              this.post({ type: 'notice', level: 'info', message: 'Placement cancelled.' });
              return;
            }
            this.lastRun = out;
            this.post({ type: 'result', result: out.result });
          } finally {
            this.post({ type: 'busy', busy: false });
          }
          return;
        }
        case 'copyCurl': {
          const text = await this.controller.curl(msg.draft, msg.includeSecrets);
          if (text === undefined) {
            this.post({ type: 'notice', level: 'info', message: 'Not copied.' });
            return;
          }
          await this.host.writeClipboard(text);
          this.post({ type: 'notice', level: 'info', message: msg.includeSecrets ? 'curl copied WITH credentials: handle with care.' : 'curl copied (credentials masked).' });
          return;
        }
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.host.warn(`request builder: ${message}`);
      this.post({ type: 'notice', level: 'error', message });
    }
  }
}
