/* global setTimeout */
// Helpers shared by scripts/start.js, scripts/run-host-tests.js and test/e2e/workbench.e2e.js:
// install code-server 4.100.3 (a real VS Code 1.100.3 workbench + extension host served over
// HTTP, installable from the npm registry alone) into .vscode-test/, start it, and build the
// workbench URL that loads SpotDesk in extension-development mode.
// Recipe and the reason for each workaround: docs/real-vscode-offline.md.
const { spawn, spawnSync, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');

const ROOT = path.resolve(__dirname, '..', '..');
const CODE_SERVER_VERSION = '4.100.3';
const CODE_SERVER_DIR = path.join(ROOT, '.vscode-test', `code-server-${CODE_SERVER_VERSION}`);
const CODE_SERVER_BIN = path.join(CODE_SERVER_DIR, 'node_modules', '.bin', 'code-server');
const RIPGREP_CACHE = path.join(os.tmpdir(), 'vscode-ripgrep-cache-1.15.11');
const RIPGREP_TARBALL = path.join(RIPGREP_CACHE, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
const APT_PACKAGES = 'libkrb5-dev ripgrep chromium fonts-liberation';

function say(msg) {
  console.log(`[spotdesk] ${msg}`);
}

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * Debian packages SpotDesk's scripts need, each with how to tell it is present (by file, not by dpkg,
 * so a machine that has the tool some other way is not asked to install it) and why it is needed.
 */
const PACKAGES = {
  'libkrb5-dev': { present: () => fs.existsSync('/usr/include/gssapi/gssapi.h'), why: "code-server's kerberos module compiles against its headers" },
  ripgrep: { present: () => Boolean(which('rg')), why: "seeds @vscode/ripgrep's download cache (its postinstall would fetch from GitHub)" },
  chromium: { present: () => Boolean(findChromium()), why: 'the headless browser that drives the workbench in the host and end-to-end tests' },
  'fonts-liberation': {
    present: () => ['/usr/share/fonts/truetype/liberation', '/usr/share/fonts/truetype/liberation2'].some((d) => fs.existsSync(d)),
    why: 'metric-compatible fonts, so screenshots render text',
  },
};

/** Missing Debian prerequisites for installing code-server (checked by file, not by dpkg). */
function missingPrerequisites() {
  return ['libkrb5-dev', 'ripgrep'].filter((p) => !PACKAGES[p].present());
}

/** True when this process may run apt-get: as root, or through passwordless sudo. */
function aptRunner() {
  if (!which('apt-get')) return undefined;
  if (typeof process.getuid === 'function' && process.getuid() === 0) return [];
  if (which('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0) return ['sudo', '-n'];
  return undefined;
}

/**
 * Make sure the named Debian packages are installed. Missing ones are installed with apt-get when this
 * process can (root, or passwordless sudo), saying what and why; otherwise this throws with the exact
 * command to run. Packages already present (by the check in PACKAGES) are left alone.
 * @throws Error when a package is missing and cannot be installed here.
 */
function ensurePackages(names) {
  const missing = names.filter((p) => !PACKAGES[p].present());
  if (!missing.length) return;
  const cmd = `sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  const runner = aptRunner();
  if (!runner) {
    throw new Error(
      `SpotDesk needs Debian packages that are missing: ${missing.join(', ')}.\n` +
        missing.map((p) => `  - ${p}: ${PACKAGES[p].why}\n`).join('') +
        (which('apt-get') ? `Install them with:\n  ${cmd}` : `This system has no apt-get: install the equivalents with your package manager.`),
    );
  }
  say(`installing missing Debian packages: ${missing.join(', ')}`);
  for (const p of missing) say(`  ${p}: ${PACKAGES[p].why}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => {
    const [bin, ...pre] = runner.length ? [...runner, 'apt-get'] : ['apt-get'];
    say(`running: ${[bin, ...pre, ...args].join(' ')}`);
    return spawnSync(bin, [...pre, ...args], { stdio: 'inherit', env }).status === 0;
  };
  if (!apt(['update']) || !apt(['install', '-y', '--no-install-recommends', ...missing])) {
    throw new Error(`apt-get could not install ${missing.join(', ')} (see its output above). Try:\n  ${cmd}`);
  }
  const still = missing.filter((p) => !PACKAGES[p].present());
  if (still.length) throw new Error(`apt-get finished but ${still.join(', ')} still look missing`);
  say(`installed ${missing.join(', ')}`);
}

/** Install code-server into .vscode-test/code-server-4.100.3 unless it is already there. */
function ensureCodeServer() {
  if (fs.existsSync(CODE_SERVER_BIN)) return CODE_SERVER_BIN;
  ensurePackages(['libkrb5-dev', 'ripgrep']);
  say(`installing code-server ${CODE_SERVER_VERSION} into ${path.relative(ROOT, CODE_SERVER_DIR)} (first use only, ~1-3 minutes, ~300 MB)`);
  if (!fs.existsSync(RIPGREP_TARBALL)) {
    // @vscode/ripgrep's postinstall downloads from GitHub; it first looks in this cache.
    say(`seeding the @vscode/ripgrep download cache with ${which('rg')}`);
    const seed = fs.mkdtempSync(path.join(os.tmpdir(), 'rgseed-'));
    fs.copyFileSync(which('rg'), path.join(seed, 'rg'));
    fs.mkdirSync(RIPGREP_CACHE, { recursive: true });
    execFileSync('tar', ['-czf', RIPGREP_TARBALL, '-C', seed, 'rg'], { stdio: 'inherit' });
  }
  fs.mkdirSync(CODE_SERVER_DIR, { recursive: true });
  fs.writeFileSync(path.join(CODE_SERVER_DIR, 'package.json'), JSON.stringify({ name: 'code-server-host', private: true }) + '\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--prefix', CODE_SERVER_DIR, `code-server@${CODE_SERVER_VERSION}`, '--unsafe-perm', '--foreground-scripts', '--no-audit', '--no-fund'];
  say(`running: npm_config_yes=true npm ${args.join(' ')}`);
  const r = spawnSync(npm, args, { stdio: 'inherit', env: { ...process.env, npm_config_yes: 'true' } });
  if (r.status !== 0 || !fs.existsSync(CODE_SERVER_BIN)) {
    throw new Error(`installing code-server failed (exit ${r.status}); see the npm output above`);
  }
  say('code-server installed');
  return CODE_SERVER_BIN;
}

/** Resolve a free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = require('net').createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Start code-server on 127.0.0.1:port with a throw-away (or given) user-data dir.
 * Resolves once /healthz answers. Returns {port, proc, userDataDir, stop()}.
 * `settings` are written to the user's settings.json before start.
 */
async function startCodeServer({ port = 8080, workspace, userDataDir, settings = {}, quiet = false, env = {} } = {}) {
  const bin = ensureCodeServer();
  const ud = userDataDir || fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-cs-'));
  fs.mkdirSync(path.join(ud, 'User'), { recursive: true });
  const settingsFile = path.join(ud, 'User', 'settings.json');
  const existing = fs.existsSync(settingsFile) ? safeJson(fs.readFileSync(settingsFile, 'utf8')) : {};
  fs.writeFileSync(
    settingsFile,
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'security.workspace.trust.enabled': false,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'update.mode': 'none',
        'git.openRepositoryInParentFolders': 'never',
        'workbench.enableExperiments': false,
        // the tests' sandbox: the slow, deterministic market they were written for (a test may set another)
        'spotdesk.sandbox.market': 'quiet',
        ...existing,
        ...settings,
      },
      null,
      2,
    ),
  );
  const args = [
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--user-data-dir', ud,
    '--extensions-dir', path.join(ud, 'extensions'),
  ];
  if (workspace) args.push(workspace);
  const proc = spawn(bin, args, {
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    // No extension gallery: the workbench would otherwise look up open-vsx.org. Tests and `npm start`
    // send no traffic off this machine; SpotDesk is loaded in development mode, not from a gallery.
    env: { ...process.env, EXTENSIONS_GALLERY: '{}', ...env },
  });
  const logLines = [];
  if (quiet) {
    const keep = (b) => {
      for (const l of b.toString().split('\n')) if (l) logLines.push(l);
      if (logLines.length > 400) logLines.splice(0, logLines.length - 400);
    };
    proc.stdout.on('data', keep);
    proc.stderr.on('data', keep);
  }
  let exited = false;
  proc.on('exit', () => (exited = true));
  const deadline = Date.now() + 60_000;
  while (!(await healthy(port))) {
    if (exited) throw new Error(`code-server exited during start-up:\n${logLines.slice(-40).join('\n')}`);
    if (Date.now() > deadline) throw new Error('code-server did not answer /healthz within 60 s');
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    port,
    proc,
    userDataDir: ud,
    logLines,
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => {
          if (!exited) proc.kill('SIGKILL');
        }, 5000).unref();
      }),
  };
}

function safeJson(s) {
  try {
    return JSON.parse(s);
  } catch {
    return {};
  }
}

function healthy(port) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
  });
}

/**
 * Workbench URL that opens `folder` and loads the extension at `extensionPath` in development
 * mode (and, with `testsPath`, runs that extension-host test module), via the `payload` parameter.
 * `extensionPath: null` loads no development extension (the installed ones only).
 */
function workbenchUrl({ port, folder, extensionPath = ROOT, testsPath }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [];
  if (extensionPath !== null) payload.push(['extensionDevelopmentPath', remote(extensionPath)]);
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  const q = [];
  if (folder) q.push(`folder=${encodeURIComponent(folder)}`);
  if (payload.length) q.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return `http://127.0.0.1:${port}/?${q.join('&')}`;
}

/**
 * Install a .vsix into the extensions dir of `userDataDir` (code-server --install-extension, as a user
 * would), so that a later startCodeServer with the same userDataDir runs it as an installed extension.
 * @throws Error when the install fails
 */
function installExtension({ vsix, userDataDir }) {
  const bin = ensureCodeServer();
  const r = spawnSync(bin, ['--user-data-dir', userDataDir, '--extensions-dir', path.join(userDataDir, 'extensions'), '--install-extension', vsix], {
    encoding: 'utf8',
    env: { ...process.env, EXTENSIONS_GALLERY: '{}' },
  });
  if (r.status !== 0) throw new Error(`code-server --install-extension ${vsix} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout.trim();
}

/** Chromium flags from the note (headless, no sandbox as root, no background traffic). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A Chromium binary: $CHROMIUM_PATH, Debian's /usr/bin/chromium, or chromium on PATH; undefined when none. */
function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', which('chromium'), which('chromium-browser'), which('google-chrome')];
  return candidates.find((c) => c && fs.existsSync(c));
}

/**
 * Path of a Chromium binary (see findChromium). When there is none, Debian's chromium and
 * fonts-liberation are installed first where this process may (ensurePackages).
 * @throws Error with the command to run when Chromium is missing and cannot be installed.
 */
function chromiumPath() {
  if (!findChromium() || !PACKAGES['fonts-liberation'].present()) ensurePackages(['chromium', 'fonts-liberation']);
  const found = findChromium();
  if (!found) throw new Error('Chromium not found after installing it; set CHROMIUM_PATH to a Chromium binary.');
  return found;
}

/** Build SpotDesk (all esbuild targets). */
function build() {
  say('building (node esbuild.js)');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'esbuild.js')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('build failed');
}

module.exports = {
  ROOT,
  CODE_SERVER_VERSION,
  CODE_SERVER_DIR,
  APT_PACKAGES,
  CHROMIUM_ARGS,
  say,
  which,
  ensureCodeServer,
  startCodeServer,
  workbenchUrl,
  installExtension,
  freePort,
  chromiumPath,
  build,
  missingPrerequisites,
  ensurePackages,
};
