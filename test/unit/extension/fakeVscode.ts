/**
 * A stand-in for the parts of the VS Code API that activate() and the funding commands touch,
 * for unit tests that run the extension outside VS Code (e.g. in Production mode, which the
 * extension-host tests cannot use). Records registered commands and every prompt shown; quick
 * picks and input boxes are answered by a script (or dismissed), modals by a function.
 *
 * `install()` makes `require('vscode')` resolve to the fake (Module._resolveFilename hook).
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

type Listener<T> = (e: T) => unknown;

/** Minimal vscode.EventEmitter. */
export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (l: Listener<T>) => {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

class Uri {
  constructor(readonly path: string) {}
  get fsPath(): string {
    return this.path;
  }
  static file(p: string): Uri {
    return new Uri(p);
  }
  static parse(p: string): Uri {
    return new Uri(p.replace(/^file:\/\//, ''));
  }
  static joinPath(u: Uri, ...parts: string[]): Uri {
    return new Uri(path.join(u.path, ...parts));
  }
  toString(): string {
    return `file://${this.path}`;
  }
}

class Plain {
  readonly args: unknown[];
  constructor(...a: unknown[]) {
    this.args = a;
  }
}

/** vscode.TreeItem: label and collapsible state (the other fields are set by the caller). */
class TreeItem extends Plain {
  constructor(
    readonly label: unknown,
    readonly collapsibleState: number = 0,
  ) {
    super(label, collapsibleState);
  }
}

/**
 * A webview panel of the fake: records the HTML, the options and every message posted; tests
 * drive it as VS Code would ({@link FakeWebviewPanel.receive} a message from the page,
 * {@link FakeWebviewPanel.setVisible}, {@link FakeWebviewPanel.close}).
 */
export class FakeWebviewPanel {
  title: string;
  visible = true;
  active = true;
  disposed = false;
  revealed = 0;
  readonly posted: unknown[] = [];
  private readonly messageEmitter = new EventEmitter<unknown>();
  private readonly stateEmitter = new EventEmitter<unknown>();
  private readonly disposeEmitter = new EventEmitter<void>();
  readonly webview: {
    html: string;
    options: unknown;
    cspSource: string;
    asWebviewUri(u: Uri): Uri;
    postMessage(m: unknown): Promise<boolean>;
    onDidReceiveMessage: EventEmitter<unknown>['event'];
  };
  readonly onDidChangeViewState = this.stateEmitter.event;
  readonly onDidDispose = this.disposeEmitter.event;

  constructor(
    readonly viewType: string,
    title: string,
    readonly options: Record<string, unknown>,
  ) {
    this.title = title;
    const posted = this.posted;
    this.webview = {
      html: '',
      options,
      cspSource: 'https://fake.vscode-cdn.net',
      asWebviewUri: (u) => u,
      postMessage: async (m) => {
        posted.push(m);
        return true;
      },
      onDidReceiveMessage: this.messageEmitter.event,
    };
  }

  /** A message from the page. */
  receive(m: unknown): void {
    this.messageEmitter.fire(m);
  }

  /** Show or hide the panel (fires onDidChangeViewState). */
  setVisible(v: boolean): void {
    this.visible = v;
    this.stateEmitter.fire({ webviewPanel: this });
  }

  reveal(): void {
    this.revealed++;
    this.setVisible(true);
  }

  /** The user closes the tab. */
  close(): void {
    this.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.visible = false;
    this.disposeEmitter.fire();
  }
}

/** A QuickPick or InputBox the fake showed: its options at the time it was shown. */
export interface ShownInput {
  kind: 'pick' | 'input';
  title?: string;
  placeholder?: string;
  prompt?: string;
  items?: Array<{ label: string }>;
}

/** What the fake window does when a prompt appears. */
export interface FakeUi {
  /** Answer a QuickPick (return the item to accept) or undefined to dismiss it. */
  pick(shown: ShownInput, items: Array<{ label: string }>): { label: string } | undefined;
  /** Answer an InputBox (the text to accept) or undefined to dismiss it. */
  input(shown: ShownInput): string | undefined;
  /** Answer a message (modal or not): the chosen action, or undefined to dismiss. */
  message(kind: 'info' | 'warning' | 'error', message: string, options: unknown, actions: string[]): string | undefined;
}

/** The fake module plus what it recorded. */
export interface FakeVscode {
  module: Record<string, unknown>;
  commands: Map<string, (...args: unknown[]) => unknown>;
  shown: ShownInput[];
  messages: Array<{ kind: string; message: string; modal: boolean; detail?: string }>;
  ui: FakeUi;
  config: Map<string, unknown>;
  /** Webview panels created, oldest first. */
  panels: FakeWebviewPanel[];
  /** Lines written to the output channel, as `level: text`. */
  log: string[];
}

/** Build a fake `vscode` module. */
export function fakeVscode(): FakeVscode {
  const commands = new Map<string, (...args: unknown[]) => unknown>();
  const shown: ShownInput[] = [];
  const messages: FakeVscode['messages'] = [];
  const config = new Map<string, unknown>();
  const fake: FakeVscode = {
    module: {},
    commands,
    shown,
    messages,
    config,
    panels: [],
    log: [],
    ui: { pick: () => undefined, input: () => undefined, message: () => undefined },
  };
  const disposable = () => ({ dispose() {} });
  const event = () => () => disposable();
  const line = (level: string) => (text: string) => void fake.log.push(`${level}: ${text}`);
  const channel = { info: line('info'), warn: line('warn'), error: line('error'), debug: line('debug'), trace() {}, appendLine() {}, show() {}, dispose() {} };
  const message = (kind: 'info' | 'warning' | 'error') => async (msg: string, ...rest: unknown[]) => {
    const opts = rest[0] !== null && typeof rest[0] === 'object' ? (rest[0] as { modal?: boolean; detail?: string }) : undefined;
    const actions = rest.filter((r): r is string => typeof r === 'string');
    messages.push({ kind, message: msg, modal: opts?.modal === true, detail: opts?.detail });
    return fake.ui.message(kind, msg, opts, actions);
  };

  function quickInput(kind: 'pick' | 'input') {
    const accept = new EventEmitter<void>();
    const hide = new EventEmitter<void>();
    const button = new EventEmitter<unknown>();
    const change = new EventEmitter<string>();
    const q: Record<string, unknown> = {
      items: [] as Array<{ label: string }>,
      activeItems: [] as unknown[],
      selectedItems: [] as unknown[],
      value: '',
      buttons: [],
      onDidAccept: accept.event,
      onDidHide: hide.event,
      onDidTriggerButton: button.event,
      onDidChangeValue: change.event,
      onDidChangeSelection: event(),
      onDidChangeActive: event(),
      hide: () => hide.fire(),
      dispose: () => undefined,
      show: () => {
        const s: ShownInput = { kind, title: q.title as string | undefined, placeholder: q.placeholder as string | undefined, prompt: q.prompt as string | undefined };
        if (kind === 'pick') s.items = (q.items as Array<{ label: string }>).map((i) => ({ label: i.label }));
        shown.push(s);
        setImmediate(() => {
          if (kind === 'pick') {
            const chosen = fake.ui.pick(s, q.items as Array<{ label: string }>);
            if (!chosen) return hide.fire();
            q.selectedItems = [chosen];
            accept.fire();
          } else {
            const text = fake.ui.input(s);
            if (text === undefined) return hide.fire();
            q.value = text;
            change.fire(text);
            accept.fire();
          }
        });
      },
    };
    return q;
  }

  Object.assign(fake.module, {
    EventEmitter,
    Uri,
    Disposable: class {
      constructor(readonly dispose: () => void) {}
      static from(...ds: Array<{ dispose(): void }>) {
        return { dispose: () => ds.forEach((d) => d.dispose()) };
      }
    },
    ThemeColor: Plain,
    ThemeIcon: Plain,
    MarkdownString: class {
      constructor(public value = '') {}
      appendMarkdown(s: string) {
        this.value += s;
        return this;
      }
      appendCodeblock(s: string) {
        this.value += s;
        return this;
      }
      appendText(s: string) {
        this.value += s;
        return this;
      }
    },
    TreeItem,
    Range: Plain,
    Position: Plain,
    Diagnostic: Plain,
    CodeLens: Plain,
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    ExtensionMode: { Production: 1, Development: 2, Test: 3 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    QuickInputButtons: { Back: { iconPath: 'back' } },
    window: {
      createOutputChannel: () => channel,
      createTreeView: () => ({ visible: false, description: '', onDidChangeVisibility: event(), onDidExpandElement: event(), onDidCollapseElement: event(), reveal: async () => undefined, dispose() {} }),
      createStatusBarItem: () => ({ show() {}, hide() {}, dispose() {} }),
      createQuickPick: () => quickInput('pick'),
      createInputBox: () => quickInput('input'),
      showQuickPick: async (items: Array<{ label: string }>, o: { title?: string; placeHolder?: string }) => {
        const s: ShownInput = { kind: 'pick', title: o?.title, placeholder: o?.placeHolder, items: (await items).map((i) => ({ label: i.label })) };
        shown.push(s);
        return fake.ui.pick(s, await items);
      },
      // the person cancels every file dialog
      showOpenDialog: async () => undefined,
      showSaveDialog: async () => undefined,
      showInputBox: async (o: { title?: string; prompt?: string; placeHolder?: string }) => {
        const s: ShownInput = { kind: 'input', title: o?.title, prompt: o?.prompt, placeholder: o?.placeHolder };
        shown.push(s);
        return fake.ui.input(s);
      },
      createWebviewPanel: (viewType: string, title: string, _column: unknown, options: Record<string, unknown>) => {
        const p = new FakeWebviewPanel(viewType, title, options ?? {});
        fake.panels.push(p);
        return p;
      },
      registerWebviewPanelSerializer: disposable,
      onDidChangeActiveTextEditor: event(),
      visibleTextEditors: [],
      showInformationMessage: message('info'),
      showWarningMessage: message('warning'),
      showErrorMessage: message('error'),
      setStatusBarMessage: disposable,
      withProgress: async (_o: unknown, f: (p: { report(): void }) => unknown) => f({ report() {} }),
    },
    workspace: {
      getConfiguration: (section?: string) => ({
        get: (k: string, d?: unknown) => {
          const key = section ? `${section}.${k}` : k;
          return config.has(key) ? config.get(key) : d;
        },
        update: async () => undefined,
        has: () => false,
        inspect: () => undefined,
      }),
      onDidChangeConfiguration: event(),
      openTextDocument: async (u: Uri) => ({ uri: u, getText: () => fs.readFileSync(u.fsPath, 'utf8') }),
      onDidOpenTextDocument: event(),
      onDidChangeTextDocument: event(),
      onDidCloseTextDocument: event(),
      textDocuments: [],
      workspaceFolders: undefined,
      fs: { createDirectory: async () => undefined },
    },
    languages: {
      createDiagnosticCollection: () => ({ set() {}, delete() {}, clear() {}, dispose() {} }),
      registerCodeLensProvider: disposable,
    },
    commands: {
      registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
        commands.set(id, fn);
        return { dispose: () => commands.delete(id) };
      },
      executeCommand: async (id: string, ...args: unknown[]) => commands.get(id)?.(...args),
      getCommands: async () => [...commands.keys()],
    },
    env: { clipboard: { writeText: async () => undefined, readText: async () => '' } },
  });
  return fake;
}

/** An ExtensionContext for `mode` (1 Production, 2 Development, 3 Test) with the given secrets. */
export function fakeContext(mode: number, secrets: Map<string, string> = new Map()): Record<string, unknown> {
  const memento = () => {
    const m = new Map<string, unknown>();
    return { get: (k: string, d?: unknown) => (m.has(k) ? m.get(k) : d), update: async (k: string, v: unknown) => void m.set(k, v), keys: () => [...m.keys()], setKeysForSync() {} };
  };
  const root = path.resolve(__dirname, '..', '..', '..');
  return {
    subscriptions: [] as Array<{ dispose(): void }>,
    extensionUri: Uri.file(root),
    extensionPath: root,
    globalStorageUri: Uri.file(path.join(os.tmpdir(), 'spotdesk-unit-global')),
    logUri: Uri.file(path.join(os.tmpdir(), 'spotdesk-unit-log')),
    extensionMode: mode,
    globalState: memento(),
    workspaceState: memento(),
    secrets: {
      get: async (k: string) => secrets.get(k),
      store: async (k: string, v: string) => void secrets.set(k, v),
      delete: async (k: string) => void secrets.delete(k),
      onDidChange: () => ({ dispose() {} }),
    },
    asAbsolutePath: (p: string) => path.join(root, p),
  };
}

/** Make `require('vscode')` return `fake.module` (until `uninstall()` is called). */
export function install(fake: FakeVscode): () => void {
  const Module = require('module') as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const orig = Module._resolveFilename;
  Module._resolveFilename = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return 'vscode';
    return orig.call(this, request, ...rest);
  };
  require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fake.module } as unknown as NodeJS.Module;
  return () => {
    Module._resolveFilename = orig;
    delete require.cache.vscode;
  };
}
