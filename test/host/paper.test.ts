/**
 * Extension-host suite of the Paper and Replay profiles (src/host/connection.ts, embeddedProfiles.ts,
 * statusBar.ts, replayCommand.ts). The upstream is a second sandbox process (this machine has no internet; it
 * speaks KuCoin's API, see issue 33's tests): `spotdesk.paper.upstreamUrl` points at it. Switching to "Paper
 * (KuCoin prices)" starts the embedded sandbox in mirror mode; the status bar and the market panel say
 * `paper · live`, then `paper · unreachable` (cancel-only, the ticket's refusal) once the upstream is stopped.
 * "Replay a Recorded Market…" then replays a recording made from that upstream at the start of the suite: the
 * paper process stops, the status bar says `replay ×60 · …` and `finished` at the end.
 */
import * as assert from 'assert';
import { fork } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { startSandboxProcess, type SandboxProcess } from '../../src/host/sandboxProcess';
import { EXTENSION_ID, openMarketPanel, spotdesk, useSandboxProfile, waitFor } from './helpers';
import type { SpotDeskTestHooks } from '../../src/host/testHooks';

const cfg = () => vscode.workspace.getConfiguration('spotdesk');

describe('Paper and Replay profiles (extension host)', () => {
  let hooks: SpotDeskTestHooks;
  let up: SandboxProcess | undefined;
  let work: string;
  let entry: string;
  let recording: string;
  let restorePrompts: () => void = () => undefined;

  before(async function () {
    this.timeout(120_000);
    hooks = await spotdesk();
    const { openFile, pick } = hooks.prompts;
    restorePrompts = () => Object.assign(hooks.prompts, { openFile, pick });
    entry = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'sandbox-cli.js');
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-paper-'));
    up = await startSandboxProcess({ entry, stateDir: path.join(work, 'upstream'), port: 0, log: () => undefined, market: 'quiet', extraArgs: ['--sim-interval-ms', '100'] });
    // a short recording of the upstream, for the replay
    recording = path.join(work, 'up.sdrec');
    const rec = fork(entry, ['record', '--from', up.baseUrl, '--symbols', 'BTC-USDT', '--out', recording, '--duration-s', '2', '--flush-ms', '100'], { stdio: 'ignore' });
    const code = await new Promise<number | null>((r) => rec.once('exit', (c) => r(c)));
    assert.strictEqual(code, 0, 'the recorder finished');
    await cfg().update('paper.upstreamUrl', up.baseUrl, vscode.ConfigurationTarget.Global);
    await cfg().update('paper.symbols', ['BTC-USDT'], vscode.ConfigurationTarget.Global);
  });

  after(async function () {
    this.timeout(60_000);
    restorePrompts();
    await useSandboxProfile();
    await cfg().update('paper.upstreamUrl', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('paper.symbols', undefined, vscode.ConfigurationTarget.Global);
    await up?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('the paper profile mirrors the upstream: "paper · live", its own process and account; "paper · unreachable" and cancel-only once the upstream stops', async function () {
    this.timeout(180_000);
    const plain = await hooks.services.sandbox();
    assert.ok(plain, 'the simulated sandbox runs');
    await hooks.connection.selectProfile('Paper (KuCoin prices)');
    assert.deepStrictEqual(hooks.services.profile().mode, { kind: 'paper' });
    const paper = await hooks.services.sandbox();
    assert.ok(paper, 'the paper sandbox runs');
    assert.notStrictEqual(paper.baseUrl, plain.baseUrl, 'a process of its own');
    // its public book is the upstream's
    const book = async (base: string) => ((await (await fetch(`${base}/api/v1/market/orderbook/level2_20?symbol=BTC-USDT`)).json()) as { data: { bids: string[][] } }).data;
    assert.ok((await book(paper.baseUrl)).bids.length > 0, 'the mirrored book has bids');
    // the funded default key works on it
    const accounts = await (await hooks.services.client()).getAccounts({ type: 'trade' });
    assert.ok(accounts.some((a) => a.currency === 'USDT' && Number(a.available) > 0), 'play money in USDT');

    const item = hooks.statusBar.item;
    await hooks.statusBar.update();
    await waitFor('the status bar: paper · live', () => /^\$\(pulse\) paper · live$/.test(item.text), 30_000);
    assert.strictEqual(hooks.services.source()?.short, 'paper · live');
    const panel = await openMarketPanel('BTC-USDT', 'spotdesk.openMarket');
    type Posted = (typeof panel.posted)[number];
    const lastSource = () => [...panel.posted].reverse().find((m): m is Extract<Posted, { type: 'source' }> => m.type === 'source');
    await waitFor('the panel says paper · live', () => lastSource()?.source?.short === 'paper · live', 30_000);
    const init = [...panel.posted].reverse().find((m): m is Extract<Posted, { type: 'init' }> => m.type === 'init');
    assert.strictEqual(init?.profile?.fundsLabel, 'Paper · play money');

    await up!.stop();
    up = undefined;
    // the status bar polls a borrowed market every 5 s
    await waitFor('the status bar: paper · unreachable', () => /^\$\(debug-disconnect\) paper · unreachable$/.test(item.text), 60_000);
    const tip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip);
    assert.match(tip, /Service status: \*\*cancelonly\*\* — mirror: the upstream is unreachable since/);
    assert.ok(item.backgroundColor, 'a warning background');
    await waitFor('the panel says paper · unreachable', () => lastSource()?.source?.short === 'paper · unreachable' && lastSource()?.source?.warn === true, 30_000);
    await waitFor('the panel got the cancel-only status (the ticket refuses with it)', () =>
      panel.posted.some((m) => m.type === 'status' && m.status === 'cancelonly' && /^mirror: the upstream is unreachable/.test(m.msg)),
    60_000);
    // placing is refused by the paper sandbox with KuCoin's code, and nothing reached anyone
    await assert.rejects((await hooks.services.client()).placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1', size: '0.001', clientOid: `paper-${Date.now()}` } as never), /400200/);
  });

  it('Replay a Recorded Market…: picks the file and the speed, stops the paper process, and the status bar follows the replay to its end', async function () {
    this.timeout(180_000);
    const paper = await hooks.services.sandbox();
    assert.ok(paper && hooks.services.profile().id === 'paper');
    const asked: string[] = [];
    hooks.prompts.openFile = async (o) => (asked.push(`open ${o.title}`), vscode.Uri.file(recording));
    hooks.prompts.pick = (async (items: readonly (vscode.QuickPickItem & { speed?: unknown })[], o: vscode.QuickPickOptions) => {
      asked.push(`pick ${o.title}: ${items.map((i) => i.label).join(', ')}`);
      return items.find((i) => i.speed === 60);
    }) as typeof hooks.prompts.pick;
    const returned = await vscode.commands.executeCommand<unknown>('spotdesk.replayRecording');
    assert.strictEqual(returned, undefined);
    assert.deepStrictEqual(asked, [
      'open SpotDesk: Replay a Recorded Market (1/2): the recording',
      'pick SpotDesk: Replay a Recorded Market (2/2): the speed: 1× (real time), 10×, 60×, Manual clock',
    ]);
    assert.deepStrictEqual(hooks.services.profile().mode, { kind: 'replay', speed: 60 });
    const replay = await hooks.services.sandbox();
    assert.ok(replay && replay.baseUrl !== paper.baseUrl, 'a replay process of its own');
    await waitFor('the paper process stopped', async () => {
      try {
        await fetch(`${paper.baseUrl}/api/v1/timestamp`);
        return false;
      } catch {
        return true;
      }
    }, 30_000);
    const item = hooks.statusBar.item;
    await hooks.statusBar.update();
    await waitFor('the status bar: replay ×60 · finished', () => /^\$\(debug-stop\) replay ×60 · finished$/.test(item.text), 60_000);
    const tip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip);
    // (the tooltip is markdown: its punctuation is escaped)
    assert.match(tip, /The recording ended at \d{4}\\-\d\d\\-\d\dT.*Your orders still match against it, with play money/);
    // the replayed book is there and the default key trades on it
    const r = (await (await fetch(`${replay.baseUrl}/api/v1/market/orderbook/level2_20?symbol=BTC-USDT`)).json()) as { data: { asks: string[][] } };
    assert.ok(r.data.asks.length > 0, 'the replayed book has asks');
    await useSandboxProfile();
    await waitFor('the replay process stopped once another profile is active', async () => {
      try {
        await fetch(`${replay.baseUrl}/api/v1/timestamp`);
        return false;
      } catch {
        return true;
      }
    }, 30_000);
  });
});
