/**
 * Entry of `dist/spotorder-language-server.js`, the order-document language server.
 *
 *   node dist/spotorder-language-server.js --stdio [--base-url URL] [--cache-dir DIR]
 *
 * `--stdio` for any LSP client (Neovim, Helix, Zed…); VS Code's client starts it with
 * `--node-ipc` (vscode-languageserver picks the transport from the arguments). `--base-url` is the
 * exchange whose PUBLIC symbol rules apply (default https://api.kucoin.com; a client's
 * `initializationOptions.baseUrl` overrides it); `--cache-dir` holds the offline copy of them.
 * `--help` prints this usage. The server has no credentials and places no orders.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

const USAGE = `spotorder-language-server: LSP for SpotDesk order documents (*.spotorder.json)

usage: node spotorder-language-server.js (--stdio | --node-ipc | --socket=PORT) [--base-url URL] [--cache-dir DIR]

  --base-url URL   exchange whose public symbol rules apply (default https://api.kucoin.com;
                   initializationOptions.baseUrl overrides it)
  --cache-dir DIR  offline copy of the symbol rules (default $XDG_CACHE_HOME/spotdesk)
`;

function arg(name: string): string | undefined {
  const argv = process.argv;
  const i = argv.indexOf(name);
  if (i >= 0 && i + 1 < argv.length) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(USAGE);
} else if (!process.argv.some((a) => a === '--stdio' || a === '--node-ipc' || a.startsWith('--socket') || a.startsWith('--pipe'))) {
  process.stderr.write(`${USAGE}\nerror: choose a transport (--stdio for most editors)\n`);
  process.exitCode = 2;
} else {
  startServer(createConnection(ProposedFeatures.all), { baseUrl: arg('--base-url'), cacheDir: arg('--cache-dir') });
}
