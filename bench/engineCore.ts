/**
 * The exchange core the engine benchmarks measure, bundled by esbuild into one scope exactly as the sandbox
 * ships it (esbuild.js: platform node, format cjs, target node20). Loading the core's modules one by one
 * through tsx would measure a cost production never pays: tsx compiles each module to CommonJS, where every
 * use of an imported constant or function is a getter call on the exporting module's object.
 *
 * `BENCH_CORE=<path to a core's index.ts>` measures another core (e.g. a reference revision checked out with
 * `git worktree add`), so that two cores can be compared under the same harness. `BENCH_UNBUNDLED=1` loads
 * the core's modules through tsx instead (to measure what that costs).
 */
import { execFileSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

type Core = typeof import('../src/exchange/core');

/** Path of the measured core's entry module. */
export const CORE_ENTRY = resolve(process.env.BENCH_CORE ?? join(__dirname, '..', 'src', 'exchange', 'core', 'index.ts'));

/** How the core is loaded: 'bundled' (default) or 'tsx modules' (BENCH_UNBUNDLED=1). */
export const CORE_LOAD = process.env.BENCH_UNBUNDLED === '1' ? 'tsx modules' : 'bundled';

/** The core at {@link CORE_ENTRY}, loaded as CORE_LOAD says (bundled unless BENCH_UNBUNDLED=1). */
export function loadCore(): Core {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return CORE_LOAD === 'bundled' ? bundleCore(CORE_ENTRY) : (require(CORE_ENTRY) as Core);
}

/** The core whose entry module is `entry` (a core's index.ts), bundled by esbuild and loaded (a fresh module
 * instance per call). */
export function bundleCore(entry: string): Core {
  return loadBundle(entry) as Core;
}

/** What {@link bundleCoreWith} loads: the core's exports and those of the modules bundled with it. */
export type CoreWith<M> = Core & M;

/**
 * The core at `entry` bundled together with the modules `withModules` (absolute paths): one bundle, so that
 * their functions are compiled against this core's classes only (bench/enginePlay.ts, the A/B loop).
 */
export function bundleCoreWith<M>(entry: string, withModules: string[]): CoreWith<M> {
  const lines = [entry, ...withModules].map((m) => `export * from ${JSON.stringify(m.replace(/\.ts$/, ''))};`);
  const dir = mkdtempSync(join(tmpdir(), 'spotdesk-bench-entry-'));
  const file = join(dir, 'entry.ts');
  writeFileSync(file, lines.join('\n'));
  try {
    return loadBundle(file) as CoreWith<M>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** esbuild's bundle of `entry` (as the sandbox ships: platform node, cjs, node20), required. */
function loadBundle(entry: string): unknown {
  const out = buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'warning' });
  const dir = mkdtempSync(join(tmpdir(), 'spotdesk-bench-core-'));
  const file = join(dir, 'core.js');
  writeFileSync(file, out.outputFiles[0].text);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The reference core of the A/B benches (engine-ab, engine-instr): BENCH_AB_REF=<a core's index.ts>, or else
 * revision BENCH_AB_REV (default 082982d, the last before the core was composed of parts) extracted with
 * `git archive` into a temp dir. @returns its entry module, a label, and `done` to remove the temp dir.
 */
export function referenceEntry(): { entry: string; label: string; done: () => void } {
  if (process.env.BENCH_AB_REF) return { entry: process.env.BENCH_AB_REF, label: process.env.BENCH_AB_REF, done: () => undefined };
  const rev = process.env.BENCH_AB_REV ?? '082982d';
  const dir = mkdtempSync(join(tmpdir(), 'spotdesk-bench-ref-'));
  const tar = execFileSync('git', ['archive', rev, 'src'], { cwd: join(__dirname, '..'), maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return { entry: join(dir, 'src', 'exchange', 'core', 'index.ts'), label: `revision ${rev}`, done: () => rmSync(dir, { recursive: true, force: true }) };
}
