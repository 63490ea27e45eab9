/**
 * Base class of SpotDesk's three tree views (Accounts, Active Orders, Markets).
 *
 * Polls only while the view is visible (`TreeView.visible` / `onDidChangeVisibility`), keeps at
 * most one request in flight, backs off exponentially after errors, shows "updated HH:mm:ss" as
 * the view's description and, when a load fails, an error item with a Retry action instead of
 * an empty tree. When the active profile lacks credentials a view that needs them
 * ({@link PollingTree.requiresCredentials}: Accounts, Active Orders) is empty so that its
 * `viewsWelcome` content (Set API Credentials) shows; a view of public data (Markets) loads anyway.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { UserFacingError } from '../connection';
import { failureText } from '../../shared/failure';
import { backoffMs, hhmmss } from './format';
import { COMMANDS } from '../commandIds';

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
export abstract class PollingTree<D, N extends object> implements vscode.TreeDataProvider<N | ErrorNode | LoadingNode | EmptyNode>, vscode.Disposable {
  protected readonly emitter = new vscode.EventEmitter<N | ErrorNode | LoadingNode | EmptyNode | undefined | void>();
  readonly onDidChangeTreeData = this.emitter.event;
  /** Fires after every completed load (success or failure). */
  private readonly loaded = new vscode.EventEmitter<LoadState<D>>();
  readonly onDidLoad = this.loaded.event;
  readonly state: LoadState<D> = { loads: 0 };
  view: vscode.TreeView<N | ErrorNode | LoadingNode | EmptyNode> | undefined;
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
  attach(): vscode.TreeView<N | ErrorNode | LoadingNode | EmptyNode> {
    const view = vscode.window.createTreeView(this.viewId, { treeDataProvider: this, showCollapseAll: false });
    this.view = view;
    const remember = (node: N | ErrorNode | LoadingNode | EmptyNode, expanded: boolean) => {
      const id = this.getTreeItem(node).id;
      if (id) this.expansion.set(id, expanded);
    };
    this.disposables.push(
      view,
      view.onDidChangeVisibility((e) => (e.visible ? this.refresh() : this.stopTimer())),
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
      }
    })();
    this.inFlight = run;
    return run;
  }

  private errorFix: string | undefined;

  private schedule(): void {
    this.stopTimer();
    if (!this.view?.visible || this.needsCredentials) return;
    const delay = this.failures > 0 ? backoffMs(this.failures - 1, this.intervalMs()) : this.intervalMs();
    this.timer = setTimeout(() => void this.refresh(), delay);
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private updateDescription(): void {
    if (!this.view) return;
    const updated = this.state.updatedAt ? `updated ${hhmmss(this.state.updatedAt)}` : '';
    this.view.description = this.state.error ? `${updated ? updated + ' · ' : ''}error` : updated;
  }

  getTreeItem(node: N | ErrorNode | LoadingNode | EmptyNode): vscode.TreeItem {
    if (node instanceof ErrorNode) {
      const it = new vscode.TreeItem(node.message, vscode.TreeItemCollapsibleState.None);
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

  async getChildren(node?: N | ErrorNode | LoadingNode | EmptyNode): Promise<Array<N | ErrorNode | LoadingNode | EmptyNode>> {
    if (node instanceof ErrorNode || node instanceof LoadingNode || node instanceof EmptyNode) return [];
    if (this.needsCredentials) return []; // viewsWelcome shows "Set API Credentials"
    const data = this.state.data;
    if (!node) {
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
    for (const d of this.disposables.splice(0)) d.dispose();
    this.emitter.dispose();
    this.loaded.dispose();
  }
}

/**
 * A one-line, user-facing description of a failure: what actually happened (unreachable and why,
 * timeout, HTTP status, the exchange's code and message) and, if known, what to do
 * (src/shared/failure.ts).
 */
export function describeError(err: unknown): string {
  return failureText(err);
}
