#!/usr/bin/env node
// `npm run sandbox:package [-- --out DIR]`: build the `spotdesk-sandbox` npm package from this repository's
// sources into DIR (default dist-sandbox/), ready for `npm pack DIR` / `npm publish DIR`:
//   cli.js          the sandbox CLI (src/exchange/cli.ts), one minified CJS bundle: zod, ws… inside, so the
//                   package has NO dependencies and installs offline; `bin: spotdesk-sandbox`
//   sandbox-snapshot-worker.js  the worker thread that writes the state dir's snapshots in the background
//   index.cjs/.mjs  the test-runner API (src/sandboxApi/index.ts), CommonJS and ES module
//   index.d.cts/.d.mts  its declarations (one self-contained file, emitted by TypeScript from index.ts)
//   cli-flags.json  which optional CLI flags this cli.js understands (asked from its own parseArgs), so the
//                   API passes on `market`, `tls`, `world` only where the CLI has them (src/sandboxApi/options.ts)
//   package.json, README.md (= docs/bots.md), LICENSE
// Why a generated directory and not npm workspaces: the root package is a VS Code extension whose install
// (hundreds of dev packages, one lockfile) every contributor and CI job shares; a workspace would change
// that install's layout for a package that needs none of it. The package is a build output of the same
// sources, like dist/ is for the .vsix: nothing is copied by hand, and `vscode` cannot slip in (it is
// not resolvable for a bundle that does not mark it external, so the build fails).
// Prints each file's size. Exported: build(outDir) for tests and the benchmark.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const DEFAULT_OUT = path.join(ROOT, 'dist-sandbox');

/**
 * esbuild plugin: zod's `z.locales` namespace (every language's error messages, ≈ 260 KB of the 850 KB CLI
 * bundle) reduced to English, the default zod registers by itself (zod/v4/classic/schemas.js imports
 * locales/en.js directly); the sandbox never calls `z.config(z.locales.xx())`. A third less JavaScript to
 * compile at every start of a sandbox process (npm run bench -- package).
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir) ? { path: path.join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: "export { default as en } from './en.js';", resolveDir: path.dirname(args.path), loader: 'js' }));
  },
};

/** Optional flags of the bundled CLI, asked from its own parseArgs (it throws on a flag it does not know). */
function probeCliFlags(cliFile) {
  const resolved = require.resolve(cliFile);
  delete require.cache[resolved];
  const cli = require(resolved);
  if (typeof cli.parseArgs !== 'function') throw new Error(`${cliFile} exports no parseArgs`);
  const ok = (argv) => {
    try {
      cli.parseArgs(argv);
      return true;
    } catch {
      return false;
    }
  };
  return {
    market: ['quiet', 'realistic', 'volatile'].filter((m) => ok(['--market', m])),
    tls: ok(['--tls']),
    world: ok(['--world', 'world.json']),
    fastReset: ok(['--fast-reset']),
  };
}

/** The public declarations of src/sandboxApi/index.ts as one file (no relative imports), via the TypeScript compiler. */
function emitDeclarations() {
  const ts = require('typescript');
  const entry = path.join(ROOT, 'src', 'sandboxApi', 'index.ts');
  const program = ts.createProgram([entry], {
    declaration: true,
    emitDeclarationOnly: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    // resolved from this repository wherever the script is run from
    typeRoots: [path.join(ROOT, 'node_modules', '@types')],
    removeComments: false,
  });
  let text;
  const result = program.emit(program.getSourceFile(entry), (file, data) => {
    if (file.endsWith('index.d.ts')) text = data;
  });
  const diags = ts.getPreEmitDiagnostics(program).concat(result.diagnostics);
  if (diags.length) throw new Error(`declarations of ${entry}:\n${ts.formatDiagnosticsWithColorAndContext(diags, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' })}`);
  if (!text) throw new Error('TypeScript emitted no index.d.ts');
  const relative = text.split('\n').filter((l) => /\bfrom ['"]\.\.?\//.test(l) || /import\(['"]\.\.?\//.test(l));
  if (relative.length) throw new Error(`index.d.ts must stand alone, but refers to: ${relative.join(' | ')}`);
  return text;
}

/** Build the package into `outDir` (emptied first). @returns {{outDir: string, files: Record<string, number>, flags: object}} */
async function build(outDir = DEFAULT_OUT) {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const rootPkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const common = { absWorkingDir: ROOT, bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', sourcemap: false };
  await esbuild.build({ ...common, entryPoints: ['src/exchange/cli.ts'], outfile: path.join(outDir, 'cli.js'), format: 'cjs', minify: true, banner: { js: '#!/usr/bin/env node' }, plugins: [zodEnglishOnly] });
  fs.chmodSync(path.join(outDir, 'cli.js'), 0o755);
  // the thread that writes snapshots in the background: the CLI loads it from beside itself (snapshotWorker.ts)
  await esbuild.build({ ...common, entryPoints: ['src/exchange/server/snapshotWorkerEntry.ts'], outfile: path.join(outDir, 'sandbox-snapshot-worker.js'), format: 'cjs', minify: true, plugins: [zodEnglishOnly] });
  const flags = probeCliFlags(path.join(outDir, 'cli.js'));
  fs.writeFileSync(path.join(outDir, 'cli-flags.json'), JSON.stringify(flags, null, 2) + '\n');
  const api = { ...common, entryPoints: ['src/sandboxApi/index.ts'], minify: false, legalComments: 'none' };
  await esbuild.build({ ...api, outfile: path.join(outDir, 'index.cjs'), format: 'cjs', logOverride: { 'empty-import-meta': 'silent' } });
  await esbuild.build({ ...api, outfile: path.join(outDir, 'index.mjs'), format: 'esm' });
  const dts = emitDeclarations();
  fs.writeFileSync(path.join(outDir, 'index.d.cts'), dts);
  fs.writeFileSync(path.join(outDir, 'index.d.mts'), dts);
  const pkg = {
    name: 'spotdesk-sandbox',
    version: rootPkg.version,
    description: 'A KuCoin-compatible spot exchange on localhost for trading-bot tests: start one per test worker, reset it between tests. Unmodified ccxt and kucoin-universal-sdk work against it.',
    license: rootPkg.license,
    repository: rootPkg.repository,
    bugs: rootPkg.bugs,
    homepage: 'https://github.com/spotdesk/spotdesk/blob/main/docs/bots.md',
    keywords: ['kucoin', 'sandbox', 'exchange', 'emulator', 'testing', 'trading bot', 'ccxt', 'mock server'],
    engines: { node: rootPkg.engines.node },
    bin: { 'spotdesk-sandbox': 'cli.js' },
    main: './index.cjs',
    module: './index.mjs',
    types: './index.d.cts',
    exports: {
      '.': {
        import: { types: './index.d.mts', default: './index.mjs' },
        require: { types: './index.d.cts', default: './index.cjs' },
      },
      './package.json': './package.json',
    },
    files: ['cli.js', 'sandbox-snapshot-worker.js', 'cli-flags.json', 'index.cjs', 'index.mjs', 'index.d.cts', 'index.d.mts'],
    sideEffects: false,
  };
  fs.writeFileSync(path.join(outDir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
  fs.copyFileSync(path.join(ROOT, 'docs', 'bots.md'), path.join(outDir, 'README.md'));
  fs.copyFileSync(path.join(ROOT, 'LICENSE'), path.join(outDir, 'LICENSE'));
  const files = {};
  for (const f of fs.readdirSync(outDir).sort()) files[f] = fs.statSync(path.join(outDir, f)).size;
  return { outDir, files, flags };
}

if (require.main === module) {
  const i = process.argv.indexOf('--out');
  const out = i >= 0 ? path.resolve(process.argv[i + 1]) : DEFAULT_OUT;
  build(out).then(
    ({ files, flags }) => {
      for (const [f, n] of Object.entries(files)) console.log(`  ${f.padEnd(16)} ${(n / 1024).toFixed(1)} KB`);
      console.log(`built spotdesk-sandbox -> ${path.relative(process.cwd(), out) || '.'} (CLI flags: ${JSON.stringify(flags)}); pack it with: npm pack ${path.relative(process.cwd(), out) || '.'}`);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}

module.exports = { build, probeCliFlags, emitDeclarations, DEFAULT_OUT };
