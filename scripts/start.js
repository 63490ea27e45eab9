#!/usr/bin/env node
// `npm start`: build SpotDesk, then open a real VS Code with SpotDesk loaded in development mode.
// Its default profile is the built-in "Sandbox (local)" exchange, so no account or network is needed.
//
//  - Desktop VS Code when `code` is on PATH:  code --extensionDevelopmentPath=<this folder>
//  - Otherwise code-server 4.100.3 (VS Code 1.100.3 in the browser), installed on first use into
//    .vscode-test/code-server-4.100.3 and served at http://127.0.0.1:8080 with SpotDesk loaded
//    through the workbench URL's `payload` parameter. Open the printed URL in a browser.
//
// Both open the scratch workspace .vscode-test/scratch (kept between runs; scripts/lib/scratch.js):
// an empty folder with one example order document, not SpotDesk's own source folder.
//
// Options: --code-server (skip desktop VS Code), --port N (default 8080 or $PORT), --no-build.
// Prerequisites for code-server (Debian/Ubuntu: libkrb5-dev, ripgrep) are installed on first use where possible.
const { spawn } = require('child_process');
const path = require('path');
const cs = require('./lib/codeServer');
const { ensureScratchWorkspace, EXAMPLE_NAME } = require('./lib/scratch');

const args = process.argv.slice(2);
const portIdx = args.indexOf('--port');
const port = Number(portIdx >= 0 ? args[portIdx + 1] : process.env.PORT || 8080);

async function main() {
  if (!args.includes('--no-build')) cs.build();
  const workspace = ensureScratchWorkspace(path.join(cs.ROOT, '.vscode-test', 'scratch'));
  cs.say(`workspace: ${path.relative(cs.ROOT, workspace)} (try the order lenses in ${EXAMPLE_NAME})`);
  const code = !args.includes('--code-server') && cs.which('code');
  if (code) {
    cs.say(`launching desktop VS Code (${code}) with SpotDesk in development mode`);
    const p = spawn(code, ['--new-window', `--extensionDevelopmentPath=${cs.ROOT}`, workspace], { stdio: 'inherit' });
    p.on('exit', (c) => process.exit(c ?? 0));
    return;
  }
  cs.say('`code` is not on PATH: using code-server (VS Code in the browser)');
  // code-server's Debian prerequisites are installed by ensureCodeServer() where this process may (root or
  // passwordless sudo); elsewhere it stops with the exact apt-get command.
  const userDataDir = path.join(cs.ROOT, '.vscode-test', 'user-data');
  cs.say(`starting code-server on http://127.0.0.1:${port} (user data in ${path.relative(cs.ROOT, userDataDir)})`);
  const server = await cs.startCodeServer({ port, workspace, userDataDir, quiet: true });
  const url = cs.workbenchUrl({ port, folder: workspace });
  console.log('');
  console.log('  SpotDesk is running in VS Code (code-server). Open this URL in a browser:');
  console.log('');
  console.log(`    ${url}`);
  console.log('');
  console.log('  Click the SpotDesk icon in the activity bar. The "Sandbox (local)" profile starts an');
  console.log('  offline exchange on 127.0.0.1 on first use. Press Ctrl+C here to stop.');
  console.log('');
  let stopping = false;
  const stop = async () => {
    stopping = true;
    cs.say('stopping code-server');
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  server.proc.on('exit', (c) => {
    if (stopping) return;
    console.error(`[spotdesk] code-server exited (${c}). Last log lines:\n${server.logLines.slice(-30).join('\n')}`);
    process.exit(c ?? 1);
  });
}

main().catch((err) => {
  console.error(`[spotdesk] ${err && err.message ? err.message : err}`);
  process.exit(1);
});
