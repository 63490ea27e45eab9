/**
 * The `spotdesk-sandbox` package built once per test process (scripts/build-sandbox-package.js into a
 * temporary directory), shared by the suites that use the real artifact.
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

/** The public API module of the package (its types are those of the source it is built from). */
export type SandboxApi = typeof import('../../../src/sandboxApi/index');

/** What the build produced. */
export interface BuiltPackage {
  outDir: string;
  files: Record<string, number>;
  flags: { market: string[]; tls: boolean; world: boolean; fastReset: boolean };
  /** The CommonJS entry, loaded. */
  api: SandboxApi;
}

const ROOT = path.resolve(__dirname, '..', '..', '..');
const requireHere = createRequire(__filename);
let built: Promise<BuiltPackage> | undefined;

/** Build the package (once per process) into a temporary directory, removed at exit. */
export function builtPackage(): Promise<BuiltPackage> {
  built ??= (async () => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-sandbox-pkg-'));
    process.once('exit', () => fs.rmSync(outDir, { recursive: true, force: true }));
    const script = requireHere(path.join(ROOT, 'scripts', 'build-sandbox-package.js')) as { build(out: string): Promise<Omit<BuiltPackage, 'api'>> };
    const r = await script.build(outDir);
    return { ...r, api: requireHere(path.join(outDir, 'index.cjs')) as SandboxApi };
  })();
  return built;
}
