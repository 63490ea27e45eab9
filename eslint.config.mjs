// ESLint flat config: typescript-eslint recommended rules, plus the architecture rules of
// docs/ARCHITECTURE.md "Layers": which folder may import which, and that only host glue
// (src/host/ and src/features/<name>/host/, plus the extension-host tests) may import `vscode`.
//
// The layer rules use @typescript-eslint/no-restricted-imports (ESLint's rule plus
// `allowTypeImports`: a type-only import costs nothing at run time, so e.g. the engine may take the
// wire types of src/api/schemas without loading zod). Patterns are matched against the import
// specifier (regex, case-insensitive), so they name the folder a relative path reaches
// (`../../api/client` → `api/client`). In a flat config the last matching block sets a rule's
// options, so every layer block repeats the `vscode` restriction. test/unit/lint/layers.test.ts
// lints a small in-memory file per rule to prove each one fires.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const VSCODE = { name: 'vscode', message: 'Only host glue (src/host/, src/features/<name>/host/) may import vscode (see docs/ARCHITECTURE.md, Layers).' };

/** A folder reached through a relative import: `(^|/)name(/|$)`. */
const folder = (...names) => `(^|/)(${names.join('|')})(/|$)`;
/** src/host reached by climbing out of the importing folder (`../../host/services`), not a sibling `./host`. */
const HOST_INFRA = '^(\\.\\./)+host(/|$)';
/** src/api modules other than the listed ones, reached through a relative import. */
const apiExcept = (...allowed) => `(^|/)api/(?!(${allowed.join('|')})$)`;
/** Node built-ins (`node:` prefix or a bare core-module name). */
const NODE_API = '^(node:|(fs|path|os|crypto|http|https|net|child_process|worker_threads|stream|url|util|zlib)(/|$))';
/**
 * The modules of src/api that load neither zod nor Node: what webview bundles and a feature's model may
 * import (the decimal arithmetic, the order rules and field table, and the client-side formatting and
 * valuation helpers several features share).
 */
const PURE_API = ['decimal', 'orderRules', 'advancedOrderRules', 'orderFields', 'candleIntervals', 'bookWalk', 'numberFormat', 'moneyWords', 'orderEstimate', 'valuation', 'pnl', 'failure', 'displayFormat', 'borrowedMarket'];

/** Host glue: where `vscode` may be imported. */
const HOST_FILES = ['src/host/**/*.ts', 'src/features/*/host/**/*.ts'];
/** A feature's pure parts: its model, its webview protocol and its page HTML (they run in webviews too). */
const PURE_FEATURE_FILES = ['src/features/*/model/**/*.ts', 'src/features/*/protocol.ts', 'src/features/*/page.ts'];

/** The import restrictions of one layer; `vscode` is always among them outside host glue. */
function layer(patterns, { vscode = true } = {}) {
  return { '@typescript-eslint/no-restricted-imports': ['error', { paths: vscode ? [VSCODE] : [], patterns }] };
}

const msg = (text) => `${text} (docs/ARCHITECTURE.md, Layers: dependencies point one way).`;

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'media/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  // Everything but host glue: no `vscode`.
  { files: ['src/**/*.ts', 'bench/**/*.ts', 'test/unit/**/*.ts'], ignores: HOST_FILES, rules: layer([]) },
  // src/api: the client and the client-side helpers; nothing of ours but src/api.
  {
    files: ['src/api/**/*.ts'],
    rules: layer([
      { regex: folder('exchange', 'features', 'webviewBridge', 'language'), message: msg('src/api imports nothing of ours but src/api') },
      { regex: HOST_INFRA, message: msg('src/api imports nothing of ours but src/api') },
    ]),
  },
  // src/exchange/core: the pure engine; src/api/decimal, and src/api/schemas for types only; no packages, no I/O.
  {
    files: ['src/exchange/core/**/*.ts'],
    rules: layer([
      { regex: '(^|/)api/schemas$', allowTypeImports: true, message: msg('src/exchange/core takes only the TYPES of src/api/schemas (import type)') },
      { regex: apiExcept('decimal', 'schemas'), message: msg('src/exchange/core may import src/api/decimal and the types of src/api/schemas only') },
      { regex: folder('server', 'features', 'webviewBridge'), message: msg('src/exchange/core imports no other layer') },
      { regex: HOST_INFRA, message: msg('src/exchange/core imports no other layer') },
      { regex: '^[^.]', allowTypeImports: true, message: msg('src/exchange/core is pure: no packages and no Node APIs (type-only imports are free)') },
    ]),
  },
  // src/exchange/server: the sandbox; src/api/* and src/exchange/core. (Its own market/host.ts is a sibling, not src/host.)
  {
    files: ['src/exchange/server/**/*.ts'],
    rules: layer([
      { regex: folder('features', 'webviewBridge'), message: msg('src/exchange/server may import src/api and src/exchange/core only') },
      { regex: HOST_INFRA, message: msg('src/exchange/server may import src/api and src/exchange/core only') },
    ]),
  },
  // src/exchange/cli.ts: only the sandbox server.
  {
    files: ['src/exchange/cli.ts'],
    rules: layer([{ regex: '^\\.\\.?/(?!server(/|$))', message: msg('src/exchange/cli.ts imports src/exchange/server only') }]),
  },
  // src/sandboxApi: the `spotdesk-sandbox` package's API; it runs the bundled CLI as a process and talks HTTP,
  // so it imports nothing of ours (its declarations are published as one file).
  {
    files: ['src/sandboxApi/**/*.ts'],
    rules: layer([
      { regex: folder('api', 'exchange', 'features', 'webviewBridge', 'language'), message: msg('src/sandboxApi imports nothing of ours but src/sandboxApi') },
      { regex: HOST_INFRA, message: msg('src/sandboxApi imports nothing of ours but src/sandboxApi') },
    ]),
  },
  // src/webviewBridge: the message contract and page shell shared by host panels and webviews; runs in both.
  {
    files: ['src/webviewBridge/**/*.ts'],
    rules: layer([
      { regex: folder('api', 'exchange', 'features', 'language'), message: msg('src/webviewBridge imports nothing of ours but src/webviewBridge') },
      { regex: HOST_INFRA, message: msg('src/webviewBridge imports nothing of ours but src/webviewBridge') },
      { regex: NODE_API, message: msg('src/webviewBridge runs in webviews too: no Node APIs') },
    ]),
  },
  // src/features/<name>/*: a feature's client-side logic outside host glue (feeds, controllers): src/api, other features' non-host code; no vscode, no webview code.
  {
    files: ['src/features/**/*.ts'],
    ignores: HOST_FILES,
    rules: layer([
      { regex: folder('exchange', 'webview'), message: msg('feature code outside host/ imports no webview (browser) or exchange code') },
      // the types of what host glue hands in (e.g. the money gate's Confirmation) are free; host code is not
      { regex: folder('host'), allowTypeImports: true, message: msg('feature code outside host/ imports no host glue (its types only)') },
    ]),
  },
  // A feature's model, protocol and page: pure code for host and webviews; the pure modules of src/api; no Node APIs.
  {
    files: PURE_FEATURE_FILES,
    rules: layer([
      // (types of any src/api module are free: they cost nothing at run time)
      { regex: apiExcept(...PURE_API, 'schemas', 'withdrawalFee', 'withdrawalAddress'), allowTypeImports: true, message: msg(`a feature model may import the pure modules of src/api only (${PURE_API.join(', ')}, withdrawalFee, withdrawalAddress; other modules' types)`) },
      { regex: folder('exchange', 'host', 'webview'), message: msg('a feature model imports no exchange, host or webview code') },
      { regex: NODE_API, message: msg('a feature model runs in webviews too: no Node APIs') },
    ]),
  },
  // src/features/<name>/webview: browser code; the feature's model and protocol, src/webviewBridge and the zod-free pure modules of src/api.
  {
    files: ['src/features/*/webview/**/*.ts'],
    rules: layer([
      { regex: '(^|/)api/schemas$', allowTypeImports: true, message: msg('a webview takes only the TYPES of src/api/schemas (zod stays out of webview bundles)') },
      { regex: apiExcept(...PURE_API, 'schemas'), message: msg(`a webview may import its feature's model and protocol, src/webviewBridge and src/api/{${PURE_API.join(',')}} only`) },
      { regex: folder('exchange', 'host'), message: msg('a webview imports no exchange or host code') },
      { regex: NODE_API, message: msg('webview code runs in the browser: no Node APIs') },
    ]),
  },
  // src/language: the order-document language server (its own Node process); src/api only.
  {
    files: ['src/language/**/*.ts'],
    rules: layer([
      { regex: folder('exchange', 'features', 'webviewBridge'), message: msg('src/language (the language server) may import src/api only') },
      { regex: HOST_INFRA, message: msg('src/language (the language server) may import src/api only') },
    ]),
  },
  // Host glue: src/host (activation and shared host services) and src/features/<name>/host: VS Code glue; everything above, but not webview (browser) code.
  {
    files: HOST_FILES,
    rules: {
      ...layer([{ regex: folder('webview'), message: msg('host glue does not import webview (browser) code') }], { vscode: false }),
      // A command's result reaches any extension that calls it: register commands through
      // src/host/guardedCommand.ts (registerCommand / guardedRegistrar), which hands back plain data only.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='registerCommand'][callee.object.property.name='commands']",
          message: 'Register commands with registerCommand() or guardedRegistrar() from src/host/guardedCommand.ts: they return plain data only.',
        },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' } }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
