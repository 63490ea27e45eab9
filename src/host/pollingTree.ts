/**
 * Base class of SpotDesk's three tree views (Accounts, Active Orders, Markets).
 *
 * Polls only while the view is visible (`TreeView.visible` / `onDidChangeVisibility`), keeps at
 * most one request in flight, backs off exponentially after errors, shows "updated HH:mm:ss" as
 * the view's description and, when a load fails, an error item with a Retry action instead of
 * an empty tree — or, when the view had data, that data marked **stale with its age** under a
 * "Stale" row that says why and retries on click (a network or proxy failure never
 * leaves a view blank or spinning).
 *
 * Live mode: while the private WebSocket stream is up, {@link PollingTree.setLive}
 * stops the timer — the view is updated from the stream (subclasses apply the messages) and
 * reloaded from REST once per (re)connection ({@link PollingTree.resync}); when the stream is down
 * the view polls again. {@link PollingTree.counters} counts timer-driven loads (`polls`) apart from
 * resyncs and other loads, so tests can assert that nothing polls while the stream is up. When the active profile lacks credentials a view that needs them
 * ({@link PollingTree.requiresCredentials}: Accounts, Active Orders) is empty so that its
 * `viewsWelcome` content (Set API Credentials) shows; a view of public data (Markets) loads anyway.
 */
import * as vscode from 'vscode';
import type { Services } from './services';
import { UserFacingError } from './connection';
import { failureText } from '../api/failure';
import { headline } from '../api/numberFormat';
import { backoffMs, hhmmss } from '../api/displayFormat';
import { COMMANDS } from './commandIds';

/** A node every SpotDesk tree can show when loading failed. */
export class ErrorNode {
  readonly kind = 'error';
  constructor(
    readonly message: string,
    readonly viewId: string,
    readonly fixCommand?: string,
  ) {}
}

/** Placeholder shown before the first load completes. */
export class LoadingNode {
  readonly kind = 'loading';
}

/** Node shown when a load succeeded but there is nothing to list. */
export class EmptyNode {
  readonly kind = 'empty';
  constructor(readonly message: string) {}
}

/** First row of a view whose last load failed while it still shows older data: why, and how old. */
export class StaleNode {
  readonly kind = 'stale';
  constructor(
    readonly message: string,
    readonly viewId: string,
    /** When the data shown was loaded. */
    readonly updatedAt: Date,
  ) {}
}

/** "12 s", "3 min", "2 h" (the age of stale data). */
export function ageText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h`;
}

type AnyNode<N> = N | ErrorNode | LoadingNode | EmptyNode | StaleNode;

/** Snapshot of a view's load state (exposed for host tests through the activate() API). */
export interface LoadState<D> {
  data?: D;
  error?: string;
  updatedAt?: Date;
  loads: number;
}

/**
 * A tree whose content `D` is fetched by `load()`. Subclasses implement `load`, `rootNodes`,
 * `childNodes` and `item`.
 */
export abstract class PollingTree<D, N extends object> implements vscode.TreeDataProvider<AnyNode<N>>, vscode.Disposable {
  protected readonly emitter = new vscode.EventEmitter<AnyNode<N> | undefined | void>();
  readonly onDidChangeTreeData = this.emitter.event;
  /** Fires after every completed load (success or failure). */
  private readonly loaded = new vscode.EventEmitter<LoadState<D>>();
  readonly onDidLoad = this.loaded.event;
  readonly state: LoadState<D> = { loads: 0 };
  /**
   * Loads by cause: `polls` started by the poll timer, `resyncs` asked by the live stream after a
   * (re)connection, `catchUps` one more load because stream messages arrived while a load was in
   * flight (its answer may predate them); `streamUpdates` changes applied from the stream (no request).
   */
  readonly counters = { polls: 0, resyncs: 0, streamUpdates: 0, catchUps: 0 };
  /** A stream message arrived while a load was in flight: its REST answer may predate the message. */
  private streamedDuringLoad = false;
  /** The load in flight is a catch-up (see {@link applyLive}); a further one waits a poll interval. */
  private catchingUp = false;
  private catchUpTimer: NodeJS.Timeout | undefined;
  view: vscode.TreeView<AnyNode<N>> | undefined;
  private live = false;
  private staleTimer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private followUp: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private needsCredentials = false;
  private readonly disposables: vscode.Disposable[] = [];
  /**
   * Expanded (true) / collapsed (false) state of collapsible rows by TreeItem id, as the person
   * left them: kept while the rows disappear (a profile switch empties the tree until the new
   * profile's data arrives) and applied when they come back.
   */
  private readonly expansion = new Map<string, boolean>();

  constructor(
    readonly viewId: string,
    protected readonly services: Services,
  ) {}

  /** Poll interval while visible, in ms (setting `spotdesk.pollIntervalSeconds`, default 10 s). */
  protected intervalMs(): number {
    const s = vscode.workspace.getConfiguration('spotdesk').get<number>('pollIntervalSeconds') ?? 10;
    return Math.max(2, s) * 1000;
  }

  /**
   * Whether this view needs API credentials (private endpoints). When true and the active profile
   * has none, the view is left empty (its welcome content shows) and is not polled. Views of
   * public data override this with false and load through `Services.publicClient()`.
   */
  protected readonly requiresCredentials: boolean = true;

  /** Fetch this view's data from the exchange. */
  protected abstract load(): Promise<D>;
  protected abstract rootNodes(data: D): N[] | Promise<N[]>;
  protected abstract childNodes(node: N, data: D): N[] | Promise<N[]>;
  protected abstract item(node: N): vscode.TreeItem;
  /** Message shown when `rootNodes` is empty. */
  protected abstract emptyMessage(): string;

  /** Create the TreeView and start polling whenever it is visible. */
  attach(): vscode.TreeView<AnyNode<N>> {
    const view = vscode.window.createTreeView(this.viewId, { treeDataProvider: this, showCollapseAll: false });
    this.view = view;
    const remember = (node: AnyNode<N>, expanded: boolean) => {
      const id = this.getTreeItem(node).id;
      if (id) this.expansion.set(id, expanded);
    };
    this.disposables.push(
      view,
      // Live: the stream kept the data current while hidden, nothing to load.
      view.onDidChangeVisibility((e) => (!e.visible ? this.stopTimer() : this.live && this.state.data !== undefined && !this.state.error ? undefined : this.refresh())),
      view.onDidExpandElement((e) => remember(e.element, true)),
      view.onDidCollapseElement((e) => remember(e.element, false)),
      this.services.onDidChangeProfile(() => {
        this.state.data = undefined;
        this.state.error = undefined;
        this.state.updatedAt = undefined;
        this.failures = 0;
        this.updateDescription();
        this.emitter.fire();
        if (view.visible) this.refresh();
      }),
    );
    if (view.visible) this.refresh();
    return view;
  }

  /**
   * Load now and re-arm the poll timer if the view is visible. Resolves when a load that STARTED
   * AFTER this call has completed (so the data reflects any action taken before the call); never
   * rejects. At most one request is in flight: a call made during a load queues one follow-up
   * load, shared by every caller made meanwhile.
   */
  refresh(): Promise<void> {
    if (this.inFlight) {
      if (!this.followUp) {
        this.followUp = this.inFlight.then(() => {
          this.followUp = undefined;
          return this.refresh();
        });
      }
      return this.followUp;
    }
    this.stopTimer();
    this.streamedDuringLoad = false;
    const run = (async () => {
      try {
        this.needsCredentials = this.requiresCredentials && !(await this.services.credentialsPresent());
        if (this.needsCredentials) {
          this.state.data = undefined;
          this.state.error = undefined;
          this.state.updatedAt = undefined;
        } else {
          const data = await this.load();
          this.state.data = data;
          this.state.error = undefined;
          this.state.updatedAt = new Date();
          this.failures = 0;
        }
      } catch (err) {
        this.failures++;
        this.state.error = describeError(err);
        this.errorFix = err instanceof UserFacingError ? err.fixCommand : undefined;
        this.services.log.warn(`${this.viewId}: ${this.state.error}`);
      } finally {
        this.state.loads++;
        this.inFlight = undefined;
        this.updateDescription();
        this.emitter.fire();
        this.loaded.fire(this.state);
        this.schedule();
        // While live nothing polls: a message the REST answer may predate (an order placed and cancelled
        // during the load, say) would stay wrong until the next reconnection. Load once more instead.
        // A busy account (messages during every load) gets at most one catch-up per poll interval after the first.
        if (this.streamedDuringLoad && this.live && this.state.error === undefined && !this.catchUpTimer) {
          const again = () => {
            this.catchUpTimer = undefined;
            if (!this.live) return;
            this.counters.catchUps++;
            this.catchingUp = true;
            void this.refresh().finally(() => (this.catchingUp = false));
          };
          if (this.catchingUp) this.catchUpTimer = setTimeout(again, this.intervalMs());
          else again();
        }
      }
    })();
    this.inFlight = run;
    return run;
  }

  private errorFix: string | undefined;

  /**
   * Live mode on (the private stream is up: no timer polling, the stream updates the view) or off
   * (poll again while visible; a load starts now when the view is visible).
   */
  setLive(live: boolean): void {
    if (live === this.live) return;
    this.live = live;
    if (live) this.stopTimer();
    else if (this.view?.visible) void this.refresh();
  }

  /** Whether the view is updated by the live stream (no polling). */
  get isLive(): boolean {
    return this.live;
  }

  /** Whether a timer-driven load (a poll) is scheduled now: never while live, hidden or without credentials. */
  get pollScheduled(): boolean {
    return this.timer !== undefined;
  }

  /** One REST load asked by the live stream after a (re)connection (counted apart from polls). */
  resync(): Promise<void> {
    this.counters.resyncs++;
    return this.refresh();
  }

  /**
   * Change the loaded data in place from a stream message and re-render. `mutate` returns whether
   * it changed anything; nothing happens before the first load (the resync after it has the change).
   * A message that arrives while a load is in flight also asks for one more load after it (`catchUps`).
   */
  protected applyLive(mutate: (data: D) => boolean): boolean {
    if (this.inFlight) this.streamedDuringLoad = true;
    const data = this.state.data;
    if (data === undefined || !mutate(data)) return false;
    this.counters.streamUpdates++;
    // The stream is current: data it updated is no longer stale.
    if (this.state.error === undefined) this.state.updatedAt = new Date();
    this.updateDescription();
    this.emitter.fire();
    return true;
  }

  private schedule(): void {
    this.stopTimer();
    this.scheduleStaleRender();
    if (!this.view?.visible || this.needsCredentials || this.live) return;
    const delay = this.failures > 0 ? backoffMs(this.failures - 1, this.intervalMs()) : this.intervalMs();
    this.timer = setTimeout(() => {
      this.counters.polls++;
      void this.refresh();
    }, delay);
  }

  /** While stale data is shown, re-render every 15 s so that its age stays true. */
  private scheduleStaleRender(): void {
    if (this.staleTimer) clearInterval(this.staleTimer);
    this.staleTimer = undefined;
    if (this.state.error === undefined || this.state.data === undefined) return;
    this.staleTimer = setInterval(() => {
      if (this.state.error === undefined || this.state.data === undefined) {
        if (this.staleTimer) clearInterval(this.staleTimer);
        this.staleTimer = undefined;
        return;
      }
      if (this.view?.visible) {
        this.updateDescription();
        this.emitter.fire();
      }
    }, 15_000);
    this.staleTimer.unref?.();
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private updateDescription(): void {
    if (!this.view) return;
    const at = this.state.updatedAt;
    const updated = at ? `updated ${hhmmss(at)}` : '';
    if (this.state.error && at && this.state.data !== undefined) this.view.description = `stale · ${ageText(Date.now() - at.getTime())} old`;
    else this.view.description = this.state.error ? `${updated ? updated + ' · ' : ''}error` : `${this.live ? 'live · ' : ''}${updated}`;
  }

  getTreeItem(node: AnyNode<N>): vscode.TreeItem {
    if (node instanceof StaleNode) {
      const age = ageText(Date.now() - node.updatedAt.getTime());
      // A narrow side bar: the shortest useful text in the row, the whole message in the tooltip.
      const it = new vscode.TreeItem(`Stale: ${age} old — ${headline(node.message)}`, vscode.TreeItemCollapsibleState.None);
      it.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
      it.description = 'click to retry';
      it.tooltip = `The figures below were loaded at ${hhmmss(node.updatedAt)} (${age} ago) and may be out of date.\n\nThe last update failed: ${node.message}\n\nClick to retry now (SpotDesk also retries by itself, backing off).`;
      it.contextValue = 'spotdesk.error';
      it.command = { command: COMMANDS.retry, title: 'Retry', arguments: [node.viewId] };
      return it;
    }
    if (node instanceof ErrorNode) {
      const short = headline(node.message);
      const it = new vscode.TreeItem(short, vscode.TreeItemCollapsibleState.None);
      if (short !== node.message) it.description = node.fixCommand ? 'click to fix' : 'click to retry';
      it.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
      it.tooltip = `${node.message}\n\nClick to retry.`;
      it.contextValue = 'spotdesk.error';
      it.command = node.fixCommand
        ? { command: node.fixCommand, title: 'Fix' }
        : { command: COMMANDS.retry, title: 'Retry', arguments: [node.viewId] };
      return it;
    }
    if (node instanceof LoadingNode) {
      const it = new vscode.TreeItem('Loading…');
      it.iconPath = new vscode.ThemeIcon('loading~spin');
      return it;
    }
    if (node instanceof EmptyNode) {
      const it = new vscode.TreeItem(node.message);
      it.iconPath = new vscode.ThemeIcon('info');
      return it;
    }
    const it = this.item(node);
    const expanded = it.id !== undefined && it.collapsibleState !== vscode.TreeItemCollapsibleState.None ? this.expansion.get(it.id) : undefined;
    if (expanded !== undefined) it.collapsibleState = expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    return it;
  }

  /** Whether the person left the row with TreeItem id `id` expanded (true), collapsed (false), or never touched it. */
  expandedState(id: string): boolean | undefined {
    return this.expansion.get(id);
  }

  async getChildren(node?: AnyNode<N>): Promise<Array<AnyNode<N>>> {
    if (node instanceof ErrorNode || node instanceof LoadingNode || node instanceof EmptyNode || node instanceof StaleNode) return [];
    if (this.needsCredentials) return []; // viewsWelcome shows "Set API Credentials"
    const data = this.state.data;
    if (!node) {
      if (this.state.error && data !== undefined && this.state.updatedAt) {
        // Keep the last good data, marked stale with its age, under a row that retries.
        const roots = await this.rootNodes(data);
        return [new StaleNode(this.state.error, this.viewId, this.state.updatedAt), ...(roots.length ? roots : [new EmptyNode(this.emptyMessage())])];
      }
      if (this.state.error) return [new ErrorNode(this.state.error, this.viewId, this.errorFix)];
      if (data === undefined) {
        if (!this.inFlight) void this.refresh();
        return [new LoadingNode()];
      }
      const roots = await this.rootNodes(data);
      return roots.length ? roots : [new EmptyNode(this.emptyMessage())];
    }
    if (data === undefined) return [];
    try {
      return await this.childNodes(node, data);
    } catch (err) {
      return [new ErrorNode(describeError(err), this.viewId)];
    }
  }

  /**
   * The parent of `node` (needed by `TreeView.reveal`, e.g. to select an order); top-level nodes,
   * and views that do not say, have none.
   */
  protected parentNode(node: N): N | undefined {
    void node;
    return undefined;
  }

  getParent(node: N | ErrorNode | LoadingNode | EmptyNode): N | undefined {
    if (node instanceof ErrorNode || node instanceof LoadingNode || node instanceof EmptyNode) return undefined;
    return this.parentNode(node);
  }

  /** Re-render without re-fetching (e.g. after a display setting changed). */
  rerender(): void {
    this.emitter.fire();
  }

  dispose(): void {
    this.stopTimer();
    if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
    if (this.staleTimer) clearInterval(this.staleTimer);
    for (const d of this.disposables.splice(0)) d.dispose();
    this.emitter.dispose();
    this.loaded.dispose();
  }
}

/**
 * A one-line, user-facing description of a failure: what actually happened (unreachable and why,
 * timeout, HTTP status, the exchange's code and message) and, if known, what to do
 * (src/api/failure.ts).
 */
export function describeError(err: unknown): string {
  return failureText(err);
}
