#!/usr/bin/env node
/* global __filename, performance */
// Measure the cost of loading and activating the extension bundle outside VS Code.
//
//   node scripts/measure-activation.js [--runs N] [--bundle dist/extension.js]
//
// Each run is a fresh Node process (module cache and JIT cold) that installs a minimal stand-in
// for the `vscode` module, then times
//   - require(dist/extension.js)  (module initialisation of everything the bundle loads eagerly)
//   - activate(context)           (the extension's own activation work)
// and checks whether zod (~800 KB) was initialised (esbuild `__esm` wrappers are
// not observable, so instead it reports whether globalThis.__zod_globalConfig exists, a marker that
// zod was initialised). The parent prints every run and the median of each figure, in ms.
// Build first: `node esbuild.js --only extension`.
const path = require('path');
const { spawnSync } = require('child_process');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const bundle = path.resolve(__dirname, '..', opt('--bundle', 'dist/extension.js'));

if (args.includes('--child')) {
  child();
} else {
  parent();
}

function parent() {
  const runs = Math.max(1, Number(opt('--runs', '7')));
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, [__filename, '--child', '--bundle', path.relative(path.resolve(__dirname, '..'), bundle)], { encoding: 'utf8' });
    if (r.status !== 0) {
      console.error(r.stdout, r.stderr);
      process.exit(1);
    }
    const m = JSON.parse(r.stdout.trim().split('\n').pop());
    results.push(m);
    console.log(`run ${i + 1}: require ${m.requireMs.toFixed(2)} ms, activate() ${m.activateMs.toFixed(2)} ms, zod initialised: ${m.zodLoaded}`);
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  console.log(
    `median over ${runs} runs: require(${path.relative(process.cwd(), bundle)}) ${median(results.map((r) => r.requireMs)).toFixed(2)} ms, ` +
      `activate() ${median(results.map((r) => r.activateMs)).toFixed(2)} ms, zod initialised at activation: ${results[0].zodLoaded}`,
  );
}

function child() {
  const Module = require('module');
  const vscode = fakeVscode();
  const origResolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (request === 'vscode') return 'vscode';
    return origResolve.call(this, request, ...rest);
  };
  require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscode };

  const t0 = performance.now();
  const ext = require(bundle);
  const t1 = performance.now();
  ext.activate(fakeContext(vscode));
  const t2 = performance.now();
  // zod 4 creates globalThis.__zod_globalConfig when its core module initialises.
  const zodLoaded = '__zod_globalConfig' in globalThis;
  process.stdout.write(JSON.stringify({ requireMs: t1 - t0, activateMs: t2 - t1, zodLoaded }) + '\n');
  // Timers armed by activate() (status bar) are unref'd; exit explicitly anyway.
  process.exit(0);
}

/** A minimal stand-in for the parts of the VS Code API that activate() touches (no UI, views hidden). */
function fakeVscode() {
  const disposable = () => ({ dispose() {} });
  const event = () => () => disposable();
  class EventEmitter {
    constructor() {
      this.listeners = new Set();
      this.event = (l) => {
        this.listeners.add(l);
        return { dispose: () => this.listeners.delete(l) };
      };
    }
    fire(e) {
      for (const l of this.listeners) l(e);
    }
    dispose() {
      this.listeners.clear();
    }
  }
  class Uri {
    constructor(p) {
      this.path = p;
      this.fsPath = p;
    }
    static file(p) {
      return new Uri(p);
    }
    static parse(p) {
      return new Uri(p);
    }
    static joinPath(u, ...parts) {
      return new Uri(path.join(u.path, ...parts));
    }
    toString() {
      return `file://${this.path}`;
    }
  }
  class Plain {
    constructor(...a) {
      this.args = a;
    }
  }
  const channel = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, appendLine() {}, show() {}, dispose() {} };
  return {
    EventEmitter,
    Uri,
    Disposable: class {
      constructor(f) {
        this.dispose = f;
      }
      static from(...ds) {
        return { dispose: () => ds.forEach((d) => d.dispose()) };
      }
    },
    ThemeColor: Plain,
    ThemeIcon: Plain,
    MarkdownString: class {
      constructor(v = '') {
        this.value = v;
      }
      appendMarkdown(s) {
        this.value += s;
        return this;
      }
      appendCodeblock(s) {
        this.value += s;
        return this;
      }
      appendText(s) {
        this.value += s;
        return this;
      }
    },
    TreeItem: Plain,
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
    window: {
      createOutputChannel: () => channel,
      createTreeView: () => ({ visible: false, description: '', onDidChangeVisibility: event(), dispose() {} }),
      createStatusBarItem: () => ({ show() {}, hide() {}, dispose() {} }),
      registerWebviewPanelSerializer: disposable,
      registerWebviewViewProvider: disposable,
      onDidChangeActiveTextEditor: event(),
      onDidChangeVisibleTextEditors: event(),
      visibleTextEditors: [],
      showInformationMessage: async () => undefined,
      showWarningMessage: async () => undefined,
      showErrorMessage: async () => undefined,
      withProgress: async (_o, f) => f({ report() {} }),
    },
    workspace: {
      getConfiguration: () => ({ get: (_k, d) => d, update: async () => undefined, has: () => false, inspect: () => undefined }),
      onDidChangeConfiguration: event(),
      onDidOpenTextDocument: event(),
      onDidChangeTextDocument: event(),
      onDidCloseTextDocument: event(),
      onDidSaveTextDocument: event(),
      textDocuments: [],
      workspaceFolders: undefined,
      fs: { createDirectory: async () => undefined },
    },
    languages: {
      createDiagnosticCollection: () => ({ set() {}, delete() {}, clear() {}, dispose() {} }),
      registerCodeLensProvider: disposable,
      registerHoverProvider: disposable,
      registerCompletionItemProvider: disposable,
    },
    commands: {
      registerCommand: disposable,
      executeCommand: async () => undefined,
      getCommands: async () => [],
    },
    env: { clipboard: { writeText: async () => undefined, readText: async () => '' }, openExternal: async () => true },
  };
}

function fakeContext(vscode) {
  const memento = () => {
    const m = new Map();
    return { get: (k, d) => (m.has(k) ? m.get(k) : d), update: async (k, v) => void m.set(k, v), keys: () => [...m.keys()], setKeysForSync() {} };
  };
  const root = path.resolve(__dirname, '..');
  return {
    subscriptions: [],
    extensionUri: vscode.Uri.file(root),
    extensionPath: root,
    globalStorageUri: vscode.Uri.file(path.join(require('os').tmpdir(), 'spotdesk-measure')),
    logUri: vscode.Uri.file(path.join(require('os').tmpdir(), 'spotdesk-measure-log')),
    extensionMode: vscode.ExtensionMode.Production,
    globalState: memento(),
    workspaceState: memento(),
    secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose() {} }) },
    asAbsolutePath: (p) => path.join(root, p),
  };
}
