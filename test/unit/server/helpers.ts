/**
 * Test helpers for the sandbox server suites: start an in-process sandbox (no simulation, manual
 * clock, in-memory journal), raw HTTP with hand-built KuCoin headers (src/api/signing), admin calls.
 */
import * as http from 'node:http';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { signRequest, type Credentials } from '../../../src/api/signing';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';

/** A raw HTTP answer. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Parsed JSON body (undefined if not JSON). */
  json: { code?: string; msg?: string; data?: unknown } & Record<string, unknown>;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** Send one raw HTTP request. `body` is sent exactly; headers exactly as given. */
export function rawRequest(baseUrl: string, method: string, pathWithQuery: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawResponse> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path: pathWithQuery, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: RawResponse['json'];
        try {
          json = JSON.parse(text) as RawResponse['json'];
        } catch {
          json = {} as RawResponse['json'];
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Start a sandbox for tests: no sim, manual clock, in memory (unless stateDir). */
export async function startTestSandbox(extra: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  const logs: string[] = [];
  return startSandbox({ sim: false, manualClock: true, seed: 1, log: (l) => logs.push(l), ...extra });
}

/** Credentials object of the sandbox's default user, for signing. */
export function credsOf(sb: RunningSandbox): Credentials {
  const c = sb.credentials;
  return { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: c.keyVersion };
}

/**
 * A signed request, built by hand: prehash = timestamp + METHOD + pathWithRawQuery + body; the
 * wire path is `wirePath` when given (e.g. percent-encoded), else `pathWithRawQuery`.
 */
export function signed(
  sb: RunningSandbox,
  creds: Credentials,
  method: string,
  pathWithRawQuery: string,
  bodyObj?: unknown,
  opts: { wirePath?: string; timestamp?: number; contentType?: string | null; rawBody?: string } = {},
): Promise<RawResponse> {
  const body = opts.rawBody ?? (bodyObj === undefined ? '' : JSON.stringify(bodyObj));
  const { headers } = signRequest({ credentials: creds, timestamp: opts.timestamp ?? sb.state.now(), method, pathWithRawQuery, body });
  if (method === 'POST' && opts.contentType !== null) headers['Content-Type'] = opts.contentType ?? 'application/json';
  return rawRequest(sb.baseUrl, method, opts.wirePath ?? pathWithRawQuery, headers, method === 'POST' ? body : undefined);
}

/** Call the admin API. */
export function admin(sb: RunningSandbox, method: string, path: string, body?: unknown): Promise<RawResponse> {
  const headers: Record<string, string> = { Authorization: `Bearer ${sb.adminToken}` };
  let text: string | undefined;
  if (body !== undefined) {
    text = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  return rawRequest(sb.baseUrl, method, path, headers, text);
}

/** Create a user via the admin API and return its credentials (+ uid). */
export async function createUser(sb: RunningSandbox, body: Record<string, unknown> = {}): Promise<Credentials & { uid: string }> {
  const r = await admin(sb, 'POST', '/sandbox/v1/users', body);
  if (r.status !== 200) throw new Error(`createUser failed: ${r.text}`);
  const d = r.json.data as { uid: string; apiKey: string; apiSecret: string; apiPassphrase: string; keyVersion: '1' | '2' | '3' };
  return { uid: d.uid, apiKey: d.apiKey, apiSecret: d.apiSecret, apiPassphrase: d.apiPassphrase, keyVersion: d.keyVersion };
}

/** Balance line of a user (main/trade) as the engine reports it. */
export function balanceOf(sb: RunningSandbox, uid: string, currency: string, type: 'main' | 'trade'): { balance: string; available: string; holds: string } {
  const a = sb.state.exchange.accounts(uid, { currency, type })[0];
  return a ? { balance: a.balance, available: a.available, holds: a.holds } : { balance: '0', available: '0', holds: '0' };
}

/** Resolve after `ms` milliseconds (used only between polls of a state, never as a wait for one). */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Bundle the TypeScript entry `entry` (relative to the repository root) for Node into `outfile`, with
 * the options of esbuild.js's Node targets (cjs, node20, `vscode` external). Returns `outfile`.
 */
export async function bundleNodeEntry(entry: string, outfile: string): Promise<string> {
  await esbuild.build({
    entryPoints: [path.resolve(__dirname, '../../..', entry)],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * Build the sandbox CLI bundle (esbuild.js's `sandbox` target) into `outDir`, with the snapshot worker beside
 * it as in dist/ (`sandbox-snapshot-worker` target); returns the CLI's path.
 */
export async function buildCli(outDir: string): Promise<string> {
  await bundleNodeEntry('src/exchange/server/snapshotWorkerEntry.ts', path.join(outDir, 'sandbox-snapshot-worker.js'));
  return bundleNodeEntry('src/exchange/cli.ts', path.join(outDir, 'sandbox-cli.js'));
}
