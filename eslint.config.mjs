// ESLint flat config: typescript-eslint recommended rules, plus the architecture rules of
// CONTRIBUTING.md "Layout": which folder may import which (the layer table), and that only
// src/extension (and the extension-host tests) may import `vscode`.
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

const VSCODE = { name: 'vscode', message: 'Only src/extension/ may import vscode (see CONTRIBUTING.md, Layout).' };

/** A folder reached through a relative import: `(^|/)name(/|$)`. */
const folder = (...names) => `(^|/)(${names.join('|')})(/|$)`;
/** src/api modules other than the listed ones, reached through a relative import. */
const apiExcept = (...allowed) => `(^|/)api/(?!(${allowed.join('|')})$)`;
/** Node built-ins (`node:` prefix or a bare core-module name). */
const NODE_API = '^(node:|(fs|path|os|crypto|http|https|net|child_process|worker_threads|stream|url|util|zlib)(/|$))';

/** The import restrictions of one layer; `vscode` is always among them outside src/extension. */
function layer(patterns, { vscode = true } = {}) {
  return { '@typescript-eslint/no-restricted-imports': ['error', { paths: vscode ? [VSCODE] : [], patterns }] };
}

const msg = (text) => `${text} (CONTRIBUTING.md, Layout: dependencies point one way).`;

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
  // Everything but src/extension: no `vscode`.
  { files: ['src/**/*.ts', 'bench/**/*.ts', 'test/unit/**/*.ts'], ignores: ['src/extension/**'], rules: layer([]) },
  // src/api: the client; nothing of ours but src/api.
  {
    files: ['src/api/**/*.ts'],
    rules: layer([{ regex: folder('exchange', 'shared', 'extension', 'webview'), message: msg('src/api imports nothing of ours but src/api') }]),
  },
  // src/exchange/core: the pure engine; src/api/decimal, and src/api/schemas for types only; no packages, no I/O.
  {
    files: ['src/exchange/core/**/*.ts'],
    rules: layer([
      { regex: '(^|/)api/schemas$', allowTypeImports: true, message: msg('src/exchange/core takes only the TYPES of src/api/schemas (import type)') },
      { regex: apiExcept('decimal', 'schemas'), message: msg('src/exchange/core may import src/api/decimal and the types of src/api/schemas only') },
      { regex: folder('server', 'shared', 'extension', 'webview'), message: msg('src/exchange/core imports no other layer') },
      { regex: '^[^.]', allowTypeImports: true, message: msg('src/exchange/core is pure: no packages and no Node APIs (type-only imports are free)') },
    ]),
  },
  // src/exchange/server: the sandbox; src/api/* and src/exchange/core.
  {
    files: ['src/exchange/server/**/*.ts'],
    rules: layer([{ regex: folder('shared', 'extension', 'webview'), message: msg('src/exchange/server may import src/api and src/exchange/core only') }]),
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
    rules: layer([{ regex: folder('api', 'exchange', 'shared', 'extension', 'webview', 'language'), message: msg('src/sandboxApi imports nothing of ours but src/sandboxApi') }]),
  },
  // src/shared: pure code for extension and webviews; the pure modules of src/api; no Node APIs.
  {
    files: ['src/shared/**/*.ts'],
    rules: layer([
      { regex: apiExcept('decimal', 'schemas', 'orderRules', 'advancedOrderRules', 'orderFields', 'withdrawalFee', 'withdrawalAddress', 'candleIntervals', 'bookWalk'), message: msg('src/shared may import the pure modules of src/api only (decimal, schemas, orderRules, advancedOrderRules, orderFields, withdrawalFee, withdrawalAddress, candleIntervals)') },
      { regex: folder('exchange', 'extension', 'webview'), message: msg('src/shared imports no exchange, extension or webview code') },
      { regex: NODE_API, message: msg('src/shared runs in webviews too: no Node APIs') },
    ]),
  },
  // src/webview/<panel>: browser code; src/shared and the zod-free pure modules of src/api.
  {
    files: ['src/webview/**/*.ts'],
    rules: layer([
      { regex: '(^|/)api/schemas$', allowTypeImports: true, message: msg('a webview takes only the TYPES of src/api/schemas (zod stays out of webview bundles)') },
      { regex: apiExcept('decimal', 'orderRules', 'advancedOrderRules', 'orderFields', 'schemas', 'candleIntervals'), message: msg('a webview may import src/shared and src/api/decimal, orderRules, advancedOrderRules, orderFields, candleIntervals only') },
      { regex: folder('exchange', 'extension'), message: msg('a webview imports no exchange or extension code') },
      { regex: NODE_API, message: msg('webview code runs in the browser: no Node APIs') },
    ]),
  },
  // src/language: the order-document language server (its own Node process); src/api only.
  {
    files: ['src/language/**/*.ts'],
    rules: layer([{ regex: folder('exchange', 'shared', 'extension', 'webview'), message: msg('src/language (the language server) may import src/api only') }]),
  },
  // src/extension: VS Code glue; everything above, but not webview (browser) code.
  {
    files: ['src/extension/**/*.ts'],
    rules: {
      ...layer([{ regex: folder('webview'), message: msg('src/extension does not import webview (browser) code') }], { vscode: false }),
      // A command's result reaches any extension that calls it: register commands through
      // src/extension/guardedCommand.ts (registerCommand / guardedRegistrar), which hands back plain data only.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='registerCommand'][callee.object.property.name='commands']",
          message: 'Register commands with registerCommand() or guardedRegistrar() from src/extension/guardedCommand.ts: they return plain data only.',
        },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' } }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
