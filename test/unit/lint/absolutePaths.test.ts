/**
 * The repository stands alone: no file of it names an absolute path of the machine
 * it was written on, so `npm test` means the same on any machine. Every tracked text file (`git ls-files`;
 * where git is missing or this is no git checkout, a walk of the checkout without the folders and
 * patterns .gitignore names) is searched for
 * - the checkout's parent folder as an absolute path (`path.dirname(repoRoot)` plus a slash; in a linked
 *   git worktree also the main checkout's parent folder), e.g. a sibling folder of shared files;
 * - the system's temporary and home folders (`/tmp` and `/home`, each followed by a slash).
 * A failure names file:line. Instead: a repository-relative path (`docs/…`, `test/fixtures/…`, a path
 * computed from `__dirname`), `os.tmpdir()`/`path.join` in code, `mktemp -d` or a placeholder in a
 * command example, and a neutral `file:///x/…` for the URI of a fake document.
 *
 * Test data is exempt, and only this: the data files under `test/fixtures/` (published payloads copied
 * verbatim and their SOURCES.md; the folder's `.ts` helpers are code and are checked). Skipped:
 * `package-lock.json` (the registry's resolved URLs) and binary files (a NUL byte in their first 8 KB).
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Test data (see the module docstring): the data files under test/fixtures/. */
const isTestData = (rel: string): boolean => rel.startsWith('test/fixtures/') && !rel.endsWith('.ts');
const SKIPPED = new Set(['package-lock.json']);

/** `git` in the checkout, or undefined when git is missing or fails (not a git checkout). */
function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

/**
 * The checkout's files without git, relative to ROOT with '/' separators: a walk that leaves out `.git`
 * and what .gitignore names as a folder (`dist/` at any depth, `/screenshots/` at the top) or as `*.ext`.
 */
function walkFiles(root: string = ROOT): string[] {
  const ignore = fs.existsSync(path.join(root, '.gitignore')) ? fs.readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n').map((l) => l.trim()) : [];
  // `name/` is ignored at any depth, `/name/` only at the top
  const dirs = new Set(['.git', ...ignore.filter((l) => l.endsWith('/') && !l.startsWith('/')).map((l) => l.slice(0, -1))]);
  const topDirs = new Set(ignore.filter((l) => l.endsWith('/') && l.startsWith('/')).map((l) => l.slice(1, -1)));
  const exts = ignore.filter((l) => /^\*\.[^*/]+$/.test(l)).map((l) => l.slice(1));
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!dirs.has(e.name) && !(rel === '' && topDirs.has(e.name))) walk(r);
      } else if (e.isFile() && !exts.some((x) => e.name.endsWith(x))) out.push(r);
    }
  };
  walk('');
  return out.sort();
}

/** The tracked files (git), else the walk. */
function repoFiles(): { files: string[]; how: string } {
  const listed = git(['ls-files', '-z']);
  if (listed !== undefined) return { files: listed.split('\0').filter((f) => f !== ''), how: 'git ls-files' };
  return { files: walkFiles(), how: 'a walk of the checkout (no git)' };
}

/** What no file may contain (see the module docstring). */
function needles(): string[] {
  const parents = [path.dirname(ROOT)];
  const common = git(['rev-parse', '--git-common-dir'])?.trim();
  // a linked worktree's common dir is the main checkout's .git: its parent folder is the main checkout's parent
  if (common) parents.push(path.dirname(path.dirname(path.resolve(ROOT, common))));
  const out = new Set(['tmp', 'home'].map((d) => `/${d}/`));
  for (const p of parents) if (p !== path.parse(p).root) out.add(p.endsWith('/') ? p : `${p}/`);
  return [...out];
}

/** `rel:line: 'needle' in: line` for every line of `text` that contains one of `find` (the longest it contains). */
function hitsIn(rel: string, text: string, find: string[]): string[] {
  if (!find.some((n) => text.includes(n))) return [];
  const longestFirst = [...find].sort((a, b) => b.length - a.length);
  const hits: string[] = [];
  text.split('\n').forEach((line, i) => {
    const n = longestFirst.find((x) => line.includes(x));
    if (n !== undefined) hits.push(`${rel}:${i + 1}: '${n}' in: ${line.trim().slice(0, 160)}`);
  });
  return hits;
}

describe('lint: no absolute paths of the machine (the repository stands alone)', () => {
  it("no tracked file outside test data names the checkout's parent folder, the temp or the home folder", () => {
    const { files, how } = repoFiles();
    assert.ok(files.length > 50, `${how} listed ${files.length} files`);
    const find = needles();
    const hits: string[] = [];
    for (const rel of files) {
      if (SKIPPED.has(rel) || isTestData(rel)) continue;
      let buf: Buffer;
      try {
        buf = fs.readFileSync(path.join(ROOT, rel));
      } catch {
        continue; // tracked but deleted in the working tree
      }
      if (buf.subarray(0, 8192).includes(0)) continue; // binary
      hits.push(...hitsIn(rel, buf.toString('utf8'), find));
    }
    assert.deepEqual(hits, [], `absolute paths of this machine (searched ${files.length} files from ${how} for ${find.join(', ')}):\n${hits.join('\n')}\n`);
  });

  it("searches for the checkout's parent folder, the temp and the home folder, and reports file:line", () => {
    const find = needles();
    const parent = path.dirname(ROOT);
    if (parent !== path.parse(parent).root) assert.ok(find.includes(`${parent}/`), find.join(', '));
    for (const n of find) {
      assert.deepEqual(hitsIn('a/b.ts', `one\nsee ${n}x here\nthree`, find), [`a/b.ts:2: '${n}' in: see ${n}x here`]);
    }
    assert.deepEqual(hitsIn('a/b.ts', 'file:///x/a.spotorder.json\nos.tmpdir()', find), []);
  });

  it('without git, the walk of the checkout finds every tracked file', function () {
    const listed = git(['ls-files', '-z']);
    if (listed === undefined) this.skip();
    const walked = new Set(walkFiles());
    const tracked = (listed as string).split('\0').filter((f) => f !== '' && fs.existsSync(path.join(ROOT, f)));
    assert.deepEqual(tracked.filter((f) => !walked.has(f)), []);
  });
});
