/**
 * A killed recorder leaves a readable file: a real `spotdesk-sandbox record` child process is SIGKILLed while the
 * upstream's market moves, and the file reads minus at most its torn last block; and, byte by byte, a recording
 * cut anywhere reads as exactly the blocks before the cut (the torn one skipped with a warning), while a corrupt
 * block in the middle is skipped and the rest still read.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SpotClient } from '../../../src/api/client';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { readRecording, RecordingWriter, RecordingFormatError, RECORDING_FORMAT, RECORDING_VERSION, type RecordedEvent, type RecordingHeader } from '../../../src/exchange/server/mirror/recording';
import { buildCli, startTestSandbox } from '../server/helpers';
import { driveRound, tempDir, trader, waitFor } from './helpers';

const SYM = 'BTC-USDT';

/** Byte offsets where each block of a recording starts (from the blocks' own length fields). */
function blockStarts(file: string): number[] {
  const buf = fs.readFileSync(file);
  const out: number[] = [];
  for (let off = 0; off < buf.length; off += buf.readUInt32LE(off + 16)) out.push(off);
  return out;
}

describe('record: a killed recorder leaves a readable file', function () {
  this.timeout(60_000);
  let tmp: ReturnType<typeof tempDir>;
  before(() => {
    tmp = tempDir('spotdesk-killed-');
  });
  after(() => tmp?.cleanup());

  it('SIGKILL of a recording child process: the file reads minus at most the torn last block', async () => {
    const cli = await buildCli(path.join(tmp.dir, 'dist'));
    const up: RunningSandbox = await startTestSandbox({ rateLimits: false });
    const c: SpotClient = await trader(up);
    const file = path.join(tmp.dir, 'killed.sdrec');
    let child: ChildProcess | undefined;
    try {
      child = spawn(process.execPath, [cli, 'record', '--from', up.baseUrl, '--symbols', SYM, '--out', file, '--flush-ms', '10', '--progress-s', '0', '--snapshot-every-s', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<NodeJS.Signals | number | null>((r) => child!.on('exit', (code, sig) => r(sig ?? code)));
      await waitFor(() => out.includes('recording BTC-USDT from'), `the recorder to start (output: ${out})`, 20_000);
      // move the market until the file holds many blocks of increments, then kill the recorder while it still writes
      let i = 0;
      await waitFor(() => fs.existsSync(file) && readRecording(file).events.some((e) => e.type === 'snapshot'), 'the first snapshot on disk');
      while (blockStarts(file).length < 12) await driveRound(up, c, i++);
      const driving = (async () => {
        for (let j = 0; j < 6; j++) await driveRound(up, c, i++);
      })();
      child.kill('SIGKILL');
      assert.equal(await exited, 'SIGKILL');
      await driving;

      const r = readRecording(file);
      assert.equal(r.header.format, RECORDING_FORMAT);
      assert.equal(r.end, undefined, 'a killed recorder wrote no trailer');
      assert.ok(r.warnings.length <= 1, r.warnings.join('; '));
      // every complete block was read; only a torn last block may be missing
      assert.ok(r.events.length > 0);
      if (r.warnings.length === 1) assert.match(r.warnings[0], /is torn/);
      // the recorded trades are a prefix of the upstream's, in order
      const upTrades = up.state.exchange.trades(SYM).map((t) => String(t.tradeId));
      const recTrades = r.events.filter((e) => e.type === 'trade').map((e) => (e.type === 'trade' ? e.tradeId : ''));
      assert.ok(recTrades.length > 0);
      const first = upTrades.indexOf(recTrades[0]);
      assert.ok(first >= 0);
      assert.deepEqual(recTrades, upTrades.slice(first, first + recTrades.length));
      // and the increments are contiguous after the snapshot
      let last: bigint | undefined;
      for (const e of r.events) {
        if (e.type === 'snapshot') last = BigInt(e.sequence);
        if (e.type === 'l2') {
          assert.ok(last !== undefined && BigInt(e.sequenceStart) <= last + 1n);
          last = BigInt(e.sequenceEnd);
        }
      }
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      c.close();
      await up.close();
    }
  });

  /** A small recording of `n` blocks of 3 events each (deterministic content). */
  function writeSample(file: string, n: number): RecordedEvent[] {
    const header: RecordingHeader = { format: RECORDING_FORMAT, version: RECORDING_VERSION, source: 'test', start: 1000, symbolNames: [SYM], symbols: [], currencies: [] };
    const w = new RecordingWriter(file, header);
    const all: RecordedEvent[] = [];
    w.append({ type: 'snapshot', symbol: SYM, sequence: '10', bids: [['100', '1']], asks: [['101', '2']], time: 1000, recv: 1001 });
    all.push({ type: 'snapshot', symbol: SYM, sequence: '10', bids: [['100', '1']], asks: [['101', '2']], time: 1000, recv: 1001 });
    w.flush();
    for (let b = 0; b < n; b++) {
      for (let k = 0; k < 3; k++) {
        const s = String(11 + b * 3 + k);
        const e: RecordedEvent = { type: 'l2', symbol: SYM, sequenceStart: s, sequenceEnd: s, changes: { asks: [], bids: [[String(99 - k), String(b + 1), s]] }, time: 1000 + b, recv: 1001 + b };
        w.append(e);
        all.push(e);
      }
      w.flush();
    }
    w.close('done', 2000);
    return all;
  }

  it('a recording cut at any byte reads as the blocks before the cut, the torn one skipped with one warning', () => {
    const file = path.join(tmp.dir, 'cut.sdrec');
    const all = writeSample(file, 4);
    const whole = fs.readFileSync(file);
    const starts = blockStarts(file);
    assert.equal(starts.length, 1 + 1 + 4 + 1, 'header, snapshot, 4 blocks, trailer');
    const cutFile = path.join(tmp.dir, 'cut-part.sdrec');
    // before the header block is complete the file is not a recording
    fs.writeFileSync(cutFile, whole.subarray(0, starts[1] - 1));
    assert.throws(() => readRecording(cutFile), RecordingFormatError);
    for (let cut = starts[1]; cut < whole.length; cut++) {
      fs.writeFileSync(cutFile, whole.subarray(0, cut));
      const r = readRecording(cutFile);
      const complete = starts.filter((s, i) => (starts[i + 1] ?? whole.length) <= cut && s > 0).length; // event blocks (and trailer) fully inside
      const eventBlocks = Math.min(complete, 5);
      assert.deepEqual(r.events, all.slice(0, eventBlocks === 0 ? 0 : 1 + (eventBlocks - 1) * 3), `cut at ${cut}`);
      assert.equal(r.warnings.length, starts.includes(cut) ? 0 : 1, `cut at ${cut}: ${r.warnings.join('; ')}`);
      assert.equal(r.end, undefined);
    }
    assert.deepEqual(readRecording(file).events, all);
    assert.equal(readRecording(file).end?.events, all.length);
  });

  it('a corrupt block in the middle is skipped with a warning and the blocks after it still read', () => {
    const file = path.join(tmp.dir, 'corrupt.sdrec');
    const all = writeSample(file, 4);
    const buf = fs.readFileSync(file);
    const starts = blockStarts(file);
    buf[starts[3] + 25] ^= 0xff; // inside the deflate data of the second l2 block
    fs.writeFileSync(file, buf);
    const r = readRecording(file);
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0], /block 3 is corrupt/);
    assert.deepEqual(r.events, [...all.slice(0, 4), ...all.slice(7)]);
    assert.equal(r.end?.events, all.length);
  });
});
