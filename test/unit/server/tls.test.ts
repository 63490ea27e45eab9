/**
 * The sandbox with `--tls` (src/exchange/server/tls.ts, docs/sandbox.md "TLS"): HTTPS and wss:// on its
 * one port with a certificate for 127.0.0.1, ::1 and localhost signed by a local CA it creates once in
 * the state dir (ca.pem; ca-key.pem 0600) and reuses; the server certificate renewed when it expires;
 * in memory without a state dir; the readiness output naming the CA file; bullet tokens saying wss://.
 * Every TLS check here is a real verification by Node's TLS client against the CA file.
 */
import { strict as assert } from 'node:assert';
import { fork } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TLSSocket } from 'node:tls';
import WebSocket from 'ws';
import { signRequest } from '../../../src/api/signing';
import { parseArgs, type SandboxIpcMessage } from '../../../src/exchange/cli';
import { startSandbox, StateDirInUseError, type RunningSandbox } from '../../../src/exchange/server/index';
import { certificateNames, createCa, loadSandboxTls, serverCertProblem, TLS_FILES } from '../../../src/exchange/server/tls';
import { credsOf } from './helpers';

/** One HTTPS request trusting only `ca` (undefined: Node's default roots). Resolves the answer and the server's certificate. */
function httpsRequest(
  url: string,
  ca: string | undefined,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; json: { code?: string; data?: unknown }; peer: ReturnType<TLSSocket['getPeerCertificate']> }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: opts.method ?? 'GET', headers: opts.headers, ca, agent: false }, (res) => {
      const peer = (res.socket as TLSSocket).getPeerCertificate();
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as { code?: string; data?: unknown }, peer }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const mode = (file: string): number => fs.statSync(file).mode & 0o777;
const tlsOf = (sb: RunningSandbox): { caPem: string; caPath: string | null } => {
  assert.ok(sb.tls, 'the sandbox reports its CA');
  return sb.tls;
};

describe('sandbox --tls', function () {
  this.timeout(30_000);
  let dir: string;
  /** A state dir's TLS files made once (RSA key generation is the slow part): copied where a test needs a CA but not its creation. */
  let template: string;
  const withTemplateCa = (): void => {
    for (const f of Object.values(TLS_FILES)) {
      fs.copyFileSync(path.join(template, f), path.join(dir, f));
      fs.chmodSync(path.join(dir, f), mode(path.join(template, f)));
    }
  };
  before(() => {
    template = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-tls-ca-'));
    loadSandboxTls(template);
  });
  after(() => fs.rmSync(template, { recursive: true, force: true }));
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-tls-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates the CA once (ca.pem 0644, ca-key.pem 0600), serves HTTPS with a certificate for 127.0.0.1, ::1 and localhost chained to it, and reuses both on restart', async () => {
    const sb = await startSandbox({ stateDir: dir, sim: false, manualClock: true, tls: true });
    let caPem: string;
    let serverPem: string;
    try {
      const t = tlsOf(sb);
      assert.match(sb.baseUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(sb.credentials.baseUrl, sb.baseUrl);
      assert.equal(t.caPath, path.join(dir, TLS_FILES.ca));
      caPem = fs.readFileSync(t.caPath!, 'utf8');
      assert.equal(t.caPem, caPem);
      assert.equal(mode(path.join(dir, TLS_FILES.ca)), 0o644);
      assert.equal(mode(path.join(dir, TLS_FILES.caKey)), 0o600);
      assert.equal(mode(path.join(dir, TLS_FILES.key)), 0o600);
      assert.ok(new X509Certificate(caPem).ca, 'ca.pem is a CA certificate');
      serverPem = fs.readFileSync(path.join(dir, TLS_FILES.cert), 'utf8');

      // Node verifies the chain to ca.pem and the IP / host name
      const r = await httpsRequest(`${sb.baseUrl}/api/v1/timestamp`, caPem);
      assert.equal(r.status, 200);
      assert.equal(r.json.code, '200000');
      assert.equal(typeof r.json.data, 'number');
      const names = (r.peer.subjectaltname ?? '').split(', ').sort();
      assert.deepEqual(names, ['DNS:localhost', 'IP Address:0:0:0:0:0:0:0:1', 'IP Address:127.0.0.1']);
      assert.equal(r.peer.fingerprint256, new X509Certificate(serverPem).fingerprint256, 'it serves server.pem');
      const port = new URL(sb.baseUrl).port;
      assert.equal((await httpsRequest(`https://localhost:${port}/api/v1/timestamp`, caPem)).json.code, '200000');
      // a client that does not trust the CA is refused by its own verification
      await assert.rejects(httpsRequest(`${sb.baseUrl}/api/v1/timestamp`, undefined), (e: NodeJS.ErrnoException) => e.code === 'SELF_SIGNED_CERT_IN_CHAIN');
      // … and a plain-HTTP client gets no answer, while the server goes on serving
      await assert.rejects(
        new Promise((resolve, reject) => http.get(`http://127.0.0.1:${port}/api/v1/timestamp`, { agent: false }, resolve).on('error', reject)),
        (e: NodeJS.ErrnoException) => ['ECONNRESET', 'HPE_INVALID_CONSTANT', 'HPE_INVALID_HEADER_TOKEN'].includes(e.code ?? '') || /socket hang up|Parse Error/.test(e.message),
      );
      assert.equal((await httpsRequest(`${sb.baseUrl}/api/v1/timestamp`, caPem)).status, 200);
    } finally {
      await sb.close();
    }

    const sb2 = await startSandbox({ stateDir: dir, sim: false, manualClock: true, tls: true });
    try {
      assert.equal(tlsOf(sb2).caPem, caPem, 'the same CA');
      assert.equal(fs.readFileSync(path.join(dir, TLS_FILES.ca), 'utf8'), caPem);
      assert.equal(fs.readFileSync(path.join(dir, TLS_FILES.cert), 'utf8'), serverPem, 'the valid server certificate is reused');
      assert.equal(sb2.credentials.apiKey, sb.credentials.apiKey);
      assert.equal((await httpsRequest(`${sb2.baseUrl}/api/v1/timestamp`, caPem)).json.code, '200000');
    } finally {
      await sb2.close();
    }
  });

  it('bullet-public and bullet-private hand out wss:// endpoints (encrypt true); a wss connection trusting ca.pem gets the welcome', async () => {
    withTemplateCa();
    const sb = await startSandbox({ stateDir: dir, sim: false, manualClock: true, tls: true });
    try {
      const ca = tlsOf(sb).caPem;
      const wss = sb.baseUrl.replace(/^https:/, 'wss:') + '/ws';
      const pub = await httpsRequest(`${sb.baseUrl}/api/v1/bullet-public`, ca, { method: 'POST' });
      const { headers } = signRequest({ credentials: credsOf(sb), timestamp: sb.state.now(), method: 'POST', pathWithRawQuery: '/api/v1/bullet-private', body: '' });
      const priv = await httpsRequest(`${sb.baseUrl}/api/v1/bullet-private`, ca, { method: 'POST', headers });
      for (const r of [pub, priv]) {
        assert.equal(r.json.code, '200000');
        const d = r.json.data as { token: string; instanceServers: Array<{ endpoint: string; encrypt: boolean; protocol: string }> };
        assert.deepEqual(
          d.instanceServers.map((s) => [s.endpoint, s.encrypt, s.protocol]),
          [[wss, true, 'websocket']],
        );
      }
      const token = (priv.json.data as { token: string }).token;
      const ws = new WebSocket(`${wss}?token=${encodeURIComponent(token)}&connectId=c1`, { ca });
      try {
        const first = await new Promise<string>((resolve, reject) => {
          ws.once('message', (m: Buffer) => resolve(m.toString()));
          ws.once('error', reject);
        });
        assert.deepEqual(JSON.parse(first), { id: 'c1', type: 'welcome' });
      } finally {
        ws.terminate();
      }
    } finally {
      await sb.close();
    }
  });

  it('renews an expired server certificate, or one of another CA, and keeps the CA', () => {
    withTemplateCa();
    assert.deepEqual(loadSandboxTls(dir).notes, [], 'all reused');
    const ca = fs.readFileSync(path.join(dir, TLS_FILES.ca), 'utf8');
    const cert1 = fs.readFileSync(path.join(dir, TLS_FILES.cert), 'utf8');
    const validTo = Date.parse(new X509Certificate(cert1).validTo);

    // a start after the server certificate expired
    const later = validTo + 3600_000;
    const renewed = loadSandboxTls(dir, { now: later });
    assert.equal(renewed.notes.length, 1);
    assert.match(renewed.notes[0], /^renewed the server certificate: it expires /);
    const cert2 = fs.readFileSync(path.join(dir, TLS_FILES.cert), 'utf8');
    assert.notEqual(cert2, cert1);
    assert.equal(fs.readFileSync(path.join(dir, TLS_FILES.ca), 'utf8'), ca, 'same CA');
    assert.equal(renewed.caPem, ca);
    assert.ok(Date.parse(new X509Certificate(cert2).validTo) > later, 'valid after the renewal');
    assert.equal(serverCertProblem(cert2, renewed.key, ca, ['localhost', '127.0.0.1', '::1'], later), undefined);
    assert.ok(new X509Certificate(cert2).checkIssued(new X509Certificate(ca)));
    assert.equal(mode(path.join(dir, TLS_FILES.key)), 0o600);

    // a server certificate of some other CA (here: the user replaced the CA files) is replaced
    const other = createCa(Date.now());
    fs.writeFileSync(path.join(dir, TLS_FILES.ca), other.certPem);
    fs.writeFileSync(path.join(dir, TLS_FILES.caKey), other.keyPem);
    const again = loadSandboxTls(dir);
    assert.deepEqual(again.notes, ['renewed the server certificate: it was not issued by the current CA']);
    assert.ok(new X509Certificate(fs.readFileSync(path.join(dir, TLS_FILES.cert), 'utf8')).checkIssued(new X509Certificate(other.certPem)));
    assert.equal(serverCertProblem(cert2, renewed.key, other.certPem, ['localhost'], Date.now()), 'it was not issued by the current CA');
    // and nothing is renewed when all is well
    assert.deepEqual(loadSandboxTls(dir).notes, []);
  });

  it('names: loopback always, plus a specific --host; a certificate lacking a wanted name is not reused', () => {
    assert.deepEqual(certificateNames(), ['localhost', '127.0.0.1', '::1']);
    assert.deepEqual(certificateNames('0.0.0.0'), ['localhost', '127.0.0.1', '::1']);
    assert.deepEqual(certificateNames('[::1]'), ['localhost', '127.0.0.1', '::1']);
    assert.deepEqual(certificateNames('192.168.1.5'), ['localhost', '127.0.0.1', '::1', '192.168.1.5']);
    const read = (f: string): string => fs.readFileSync(path.join(template, f), 'utf8');
    const now = Date.now();
    assert.equal(serverCertProblem(read(TLS_FILES.cert), read(TLS_FILES.key), read(TLS_FILES.ca), certificateNames(), now), undefined);
    assert.equal(serverCertProblem(read(TLS_FILES.cert), read(TLS_FILES.key), read(TLS_FILES.ca), certificateNames('192.168.1.5'), now), 'it does not name 192.168.1.5');
    assert.equal(serverCertProblem(read(TLS_FILES.cert), read(TLS_FILES.caKey), read(TLS_FILES.ca), certificateNames(), now), 'its key does not match');
    assert.match(serverCertProblem('garbage', read(TLS_FILES.key), read(TLS_FILES.ca), certificateNames(), now) ?? '', /^it cannot be read/);
  });

  it('a CA whose key is gone is never replaced behind the user: the start fails saying what to do, and the lock is released', async () => {
    withTemplateCa();
    const ca = fs.readFileSync(path.join(dir, TLS_FILES.ca), 'utf8');
    fs.rmSync(path.join(dir, TLS_FILES.caKey));
    await assert.rejects(startSandbox({ stateDir: dir, sim: false, manualClock: true, tls: true }), /ca-key\.pem is missing\. Delete .*ca\.pem and .*ca-key\.pem to let the sandbox create a new CA/);
    assert.equal(fs.readFileSync(path.join(dir, TLS_FILES.ca), 'utf8'), ca);
    // the state dir is free again: a start without TLS works
    const sb = await startSandbox({ stateDir: dir, sim: false, manualClock: true });
    await sb.close();
  });

  it('in memory: a fresh CA and certificate per start, nothing written', async () => {
    const cwdBefore = fs.readdirSync(process.cwd()).sort();
    const sb = await startSandbox({ sim: false, manualClock: true, tls: true });
    try {
      const t = tlsOf(sb);
      assert.equal(t.caPath, null);
      assert.equal((await httpsRequest(`${sb.baseUrl}/api/v1/timestamp`, t.caPem)).json.code, '200000');
    } finally {
      await sb.close();
    }
    assert.deepEqual(fs.readdirSync(process.cwd()).sort(), cwdBefore);
  });

  it('a second sandbox on the state dir names the running --tls holder by its https URL (confirmed with the state dir’s CA)', async () => {
    withTemplateCa();
    const sb = await startSandbox({ stateDir: dir, sim: false, manualClock: true, tls: true });
    try {
      await assert.rejects(startSandbox({ stateDir: dir, sim: false, manualClock: true, tls: true }), (e: unknown) => {
        assert.ok(e instanceof StateDirInUseError);
        assert.equal(e.holder?.baseUrl, sb.baseUrl);
        assert.ok(e.message.includes(`serving ${sb.baseUrl}`), e.message);
        return true;
      });
    } finally {
      await sb.close();
    }
  });

  it('CLI --tls: the listening line and the ipc ready message name the CA file', async () => {
    assert.equal(parseArgs(['--tls']).tls, true);
    assert.equal(parseArgs([]).tls, undefined);
    withTemplateCa();
    const child = fork(path.join(process.cwd(), 'src/exchange/cli.ts'), ['--ipc', '--tls', '--state-dir', dir, '--no-sim', '--port', '0'], {
      execArgv: ['--require', 'tsx/cjs'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const ready = await new Promise<Extract<SandboxIpcMessage, { type: 'ready' }>>((resolve, reject) => {
        child.on('message', (m: SandboxIpcMessage) => {
          if (m.type === 'ready') resolve(m);
          if (m.type === 'error') reject(new Error(m.message));
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const caPath = path.join(dir, TLS_FILES.ca);
      assert.equal(ready.caPath, caPath);
      assert.match(ready.baseUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
      // the line is written before the ready message
      assert.equal(out, `SpotDesk sandbox listening on ${ready.baseUrl} (CA certificate: ${caPath})\n`);
      const r = await httpsRequest(`${ready.baseUrl}/api/v1/status`, fs.readFileSync(caPath, 'utf8'));
      assert.deepEqual(r.json, { code: '200000', data: { status: 'open', msg: '' } });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await exited;
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
    }
  });
});
