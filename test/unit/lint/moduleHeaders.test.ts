/**
 * Module headers stay short: the leading header comment of every `src/**\/*.ts` file is at most
 * {@link MAX_HEADER_LINES} lines, counted from the line that opens it (`/*` or `/**`) to the line that closes
 * it, both included. A header says what the module is, its one or two key rules and where the rest is; the
 * design, invariants, formats and numbers behind it live in docs/ (engine.md, sandbox.md, ARCHITECTURE.md,
 * recording.md, events.md, market.md) under a heading the header names.
 *
 * The leading header comment is the first block comment of the file, after an optional `#!` line, blank lines
 * and `//` line comments (a generated file's notice); a file that starts with code has none. A failure names
 * each file and its count. {@link ALLOWED} lists the files that may exceed the limit for now, each with its
 * reason; an entry whose header is already short enough fails too, so that the list only ever shrinks.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SRC = path.join(ROOT, 'src');

/** The longest a module's header comment may be, in lines: a header says what the module is and its key rules; the rest lives in docs/. */
const MAX_HEADER_LINES = 20;

/** Files whose header may exceed the limit for now (repository-relative path → why). */
const ALLOWED: ReadonlyMap<string, string> = new Map([
]);

/**
 * The length in lines of `text`'s leading header comment (see the module docstring), 0 when it has none.
 * @throws Error when the header comment is never closed.
 */
function headerLines(text: string): number {
  const lines = text.split(/\r?\n/);
  let i = 0;
  if (lines[0]?.startsWith('#!')) i++;
  while (i < lines.length && (lines[i].trim() === '' || lines[i].trimStart().startsWith('//'))) i++;
  if (i >= lines.length || !lines[i].trimStart().startsWith('/*')) return 0;
  const open = i;
  // the closing `*/` may stand on the opening line itself (a one-line header), after its `/*`
  if (lines[open].indexOf('*/', lines[open].indexOf('/*') + 2) >= 0) return 1;
  for (i = open + 1; i < lines.length; i++) if (lines[i].includes('*/')) return i - open + 1;
  throw new Error(`the header comment opened on line ${open + 1} is never closed`);
}

/** Every `.ts` file under `dir`, repository-relative with '/' separators, sorted. */
function tsFiles(dir: string = SRC): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const p = path.join(abs, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.ts')) out.push(path.relative(ROOT, p).split(path.sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** `file: N lines` for every source file whose header is over the limit (allowed or not). */
function overLimit(): Map<string, number> {
  const over = new Map<string, number>();
  for (const rel of tsFiles()) {
    const n = headerLines(fs.readFileSync(path.join(ROOT, rel), 'utf8'));
    if (n > MAX_HEADER_LINES) over.set(rel, n);
  }
  return over;
}

describe(`lint: module headers are at most ${MAX_HEADER_LINES} lines (the rest in docs/)`, () => {
  it(`no src/**/*.ts file opens with a header comment over ${MAX_HEADER_LINES} lines, but for the allow-list`, () => {
    const files = tsFiles();
    assert.ok(files.length > 100, `found only ${files.length} .ts files under src/`);
    const bad = [...overLimit()].filter(([rel]) => !ALLOWED.has(rel)).map(([rel, n]) => `${rel}: ${n} lines`);
    assert.deepEqual(bad, [], `headers over ${MAX_HEADER_LINES} lines (move the detail into docs/ under a heading the header names):\n${bad.join('\n')}\n`);
  });

  it('every allow-listed file exists, says why, and still needs its entry', () => {
    const over = overLimit();
    for (const [rel, why] of ALLOWED) {
      assert.ok(fs.existsSync(path.join(ROOT, rel)), `${rel} is allow-listed but does not exist`);
      assert.ok(why.trim() !== '', `${rel} is allow-listed without a reason`);
      assert.ok(over.has(rel), `${rel}'s header is now at most ${MAX_HEADER_LINES} lines: remove it from ALLOWED`);
    }
  });

  it('counts from the opening to the closing line, after a #! line, blank lines and // comments', () => {
    assert.equal(headerLines('/**\n * one\n */\nexport const x = 1;\n'), 3);
    assert.equal(headerLines('/** one line */\nexport const x = 1;\n'), 1);
    assert.equal(headerLines('#!/usr/bin/env node\n\n/*\n * a\n * b\n */\n'), 4);
    assert.equal(headerLines('// GENERATED: do not edit.\n// run the script\n/**\n * the table\n */\n'), 3);
    assert.equal(headerLines('/**\r\n * crlf\r\n */\r\n'), 3);
    assert.equal(headerLines("import * as fs from 'fs';\n/**\n * not a header\n */\n"), 0);
    assert.equal(headerLines(''), 0);
    assert.equal(headerLines(`/**\n${' * x\n'.repeat(MAX_HEADER_LINES - 1)} */\n`), MAX_HEADER_LINES + 1);
    assert.throws(() => headerLines('/**\n * never closed\n'), /never closed/);
  });
});
