/**
 * Command ids live in one module (src/host/commandIds.ts): its contributed list is
 * exactly package.json's `contributes.commands`; every command a menu, keybinding or welcome link
 * names is contributed; and no source file under src/ spells a `spotdesk.*` command id itself.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { COMMANDS, INTERNAL_COMMANDS } from '../../../src/host/commandIds';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  contributes: {
    commands: Array<{ command: string }>;
    menus: Record<string, Array<{ command: string }>>;
    keybindings?: Array<{ command: string }>;
    viewsWelcome?: Array<{ contents: string }>;
  };
};

/** `text` without its comments (so that docs may name commands in backticks). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('command ids (src/host/commandIds.ts)', () => {
  const contributed = pkg.contributes.commands.map((c) => c.command);
  const ids = Object.values(COMMANDS) as string[];
  const internal = Object.values(INTERNAL_COMMANDS) as string[];

  it('COMMANDS is exactly the contributed commands; INTERNAL_COMMANDS are not contributed', () => {
    assert.deepEqual([...ids].sort(), [...contributed].sort());
    assert.deepEqual(internal.filter((id) => contributed.includes(id)), []);
    assert.equal(new Set([...ids, ...internal]).size, ids.length + internal.length, 'no id twice');
  });

  it('every menu item, keybinding and welcome link names a contributed command', () => {
    const named = [
      ...Object.values(pkg.contributes.menus).flat().map((m) => m.command),
      ...(pkg.contributes.keybindings ?? []).map((k) => k.command),
      ...(pkg.contributes.viewsWelcome ?? []).flatMap((w) => [...w.contents.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1])),
    ];
    assert.ok(named.length > 20);
    assert.deepEqual(named.filter((c) => !contributed.includes(c)), []);
  });

  it('every keyboard shortcut has a `when` clause (never clashes with editing) and is listed in the README', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const kb = pkg.contributes.keybindings ?? [];
    assert.ok(kb.length >= 3);
    for (const k of kb as Array<{ command: string; key: string; when?: string }>) {
      assert.ok(k.when && k.when.trim(), `${k.command} has a when clause`);
      const keys = k.key.split('+').map((x) => x[0].toUpperCase() + x.slice(1)).join('+');
      assert.ok(readme.includes(`\`${keys}\``), `README lists ${keys} (${k.command})`);
    }
  });

  it('no file under src/ spells a command id: they all read the module', () => {
    const all = new Set([...ids, ...internal]);
    const offenders: string[] = [];
    for (const file of sources(path.join(ROOT, 'src'))) {
      if (file.endsWith(path.join('host', 'commandIds.ts'))) continue;
      const text = code(fs.readFileSync(file, 'utf8'));
      for (const m of text.matchAll(/['"`](spotdesk\.[\w.]+)['"`]/g)) if (all.has(m[1])) offenders.push(`${path.relative(ROOT, file)}: ${m[1]}`);
      for (const m of text.matchAll(/(?:registerCommand|executeCommand)\(\s*['"`](spotdesk\.[\w.]+)/g)) offenders.push(`${path.relative(ROOT, file)}: ${m[1]} (unknown id)`);
    }
    assert.deepEqual(offenders, []);
  });
});
