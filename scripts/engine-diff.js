// `npm run engine:diff [-- --rev REV] [options of scripts/engine-diff.ts]`: checks the working tree's exchange
// core against REV's (default HEAD) for identical observable behaviour. REV is checked out into a temporary
// git worktree (removed afterwards); its core imports nothing outside src/, so it needs no install.
const { execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const args = process.argv.slice(2);
let rev = 'HEAD';
const at = args.indexOf('--rev');
if (at >= 0) {
  rev = args[at + 1];
  args.splice(at, 2);
}
const root = path.resolve(__dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-engine-ref-'));
execFileSync('git', ['worktree', 'add', '--detach', '--quiet', dir, rev], { cwd: root, stdio: 'inherit' });
try {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join('scripts', 'engine-diff.ts'), ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, OLD: path.join(dir, 'src', 'exchange', 'core', 'index.ts') },
  });
  process.exitCode = r.status ?? 1;
} finally {
  execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: root });
}
