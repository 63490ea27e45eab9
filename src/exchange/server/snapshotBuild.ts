/**
 * The background half of a rotation: rebuild the state at a command count from the state dir's own files
 * (the newest complete snapshot before it, then the journals after that snapshot, replayed) and write it as
 * the next generation's snapshot. The running sandbox only switched its appends to the next journal; this
 * runs in a worker thread (snapshotWorker.ts), so the exchange never waits for a snapshot to be written.
 *
 * Why a replica and not the live state: a snapshot must be of one command count, and the live state changes
 * while a large snapshot is written. Replaying the journals is deterministic (state.ts: `exec` reads only the
 * command), so the replica at `count` equals the live state at `count`, record for record
 * (test/unit/server/backgroundSnapshot.test.ts compares the two files).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeRecord, forEachLine } from './journal';
import { SnapshotReader, writeSnapshot, type SnapshotWriteStats } from './snapshot';
import { SandboxState, type Command } from './state';

/** What the worker is asked to build. */
export interface SnapshotJob {
  /** the state dir */
  dir: string;
  /** the generation of the snapshot to write (its journal already receives the appends) */
  gen: number;
  /** commands the snapshot includes (the start of journal `gen`) */
  count: number;
  /** the sandbox clock at the rotation (ms), written in the meta record */
  t: number;
  /** whether the sandbox runs on a manual clock (replay must know) */
  manualClock: boolean;
}

const SNAP_RE = /^snapshot-(\d{8})\.snap$/;
const JOURNAL_RE = /^journal-(\d{8})\.log$/;
const LEGACY_JOURNAL = 'journal.log';

/** The journal header's `start` (commands before it); null when the header is unreadable. */
function journalStart(fd: number): { start: number; end: number } | null {
  const buf = Buffer.alloc(4096);
  const n = fs.readSync(fd, buf, 0, buf.length, 0);
  const nl = buf.subarray(0, n).indexOf(0x0a);
  if (nl < 0) return null;
  const line = buf.toString('latin1', 0, nl);
  if (line === 'SPOTDESK-JOURNAL 1') return { start: 0, end: nl + 1 };
  const m = /^SPOTDESK-JOURNAL 2 (.*)$/.exec(line);
  if (!m) return null;
  const h = JSON.parse(m[1]) as { start: number };
  return { start: h.start, end: nl + 1 };
}

/** Whether a journal's header says it begins a reset: the empty state with no command before it (`base: null, start: 0`). */
function beginsReset(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const m = /^SPOTDESK-JOURNAL 2 (.*)\n/.exec(buf.toString('latin1', 0, n));
    const h = m ? (JSON.parse(m[1]) as { base?: string | null; start?: number }) : undefined;
    return h !== undefined && h.base === null && h.start === 0;
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Rebuild the state at `job.count` commands from `job.dir` and write `snapshot-<job.gen>.snap` (streamed
 * through a .tmp file, fsynced, renamed: snapshot.ts). `hook(bytes, gen)` is called after each chunk written.
 * Nothing in the dir is changed except the new snapshot (an unusable older snapshot is skipped, not renamed:
 * that is the next start's job).
 * @throws Error when no snapshot and journal chain reaches exactly `job.count` commands, or on I/O failure
 */
export function buildSnapshotFromFiles(job: SnapshotJob, hook?: (bytes: number, gen: number) => void): SnapshotWriteStats & { replayed: number } {
  const names = fs.readdirSync(job.dir);
  const snapshots = new Map<number, string>();
  const journals = new Map<number, string>();
  for (const f of names) {
    let m: RegExpExecArray | null;
    if ((m = SNAP_RE.exec(f))) snapshots.set(Number(m[1]), f);
    else if ((m = JOURNAL_RE.exec(f))) journals.set(Number(m[1]), f);
  }
  if (!journals.has(0) && names.includes(LEGACY_JOURNAL)) journals.set(0, LEGACY_JOURNAL);

  // a reset (reset.ts) began the dir's history anew at a generation whose journal starts from the empty state
  // with nothing before it: a snapshot of before it (one a build stopped by the reset still completed) is of
  // another world
  const resetGen = Math.max(0, ...[...journals].filter(([g, f]) => g > 0 && g < job.gen && beginsReset(path.join(job.dir, f))).map(([g]) => g));
  let state: SandboxState | undefined;
  let base = { gen: resetGen, count: 0 };
  for (const g of [...snapshots.keys()].filter((x) => x < job.gen && x >= resetGen).sort((a, b) => b - a)) {
    let reader: SnapshotReader | undefined;
    try {
      reader = new SnapshotReader(path.join(job.dir, snapshots.get(g) as string));
      const s = new SandboxState({ manualClock: job.manualClock, snapshot: reader });
      s.importSections(reader);
      reader.finish();
      if (reader.meta.count > job.count) continue;
      state = s;
      base = { gen: g, count: reader.meta.count };
      break;
    } catch {
      reader?.close();
    }
  }
  state ??= new SandboxState({ manualClock: job.manualClock });

  let expected = base.count;
  const warnings: string[] = [];
  const st = state;
  for (let g = base.gen; g < job.gen; g++) {
    const name = journals.get(g);
    if (name === undefined) {
      // a generation whose journal was never created (a snapshot taken at a start with nothing to replay)
      continue;
    }
    const fd = fs.openSync(path.join(job.dir, name), 'r');
    try {
      const h = journalStart(fd);
      if (h === null) throw new Error(`journal ${name} has no readable header`);
      if (h.start !== expected) throw new Error(`journal ${name} starts after ${h.start} commands, but ${expected} come before it`);
      let bad: string | undefined;
      forEachLine(fd, h.end, (line) => {
        if (expected >= job.count) return false;
        const r = decodeRecord(line, 0);
        if ('error' in r) {
          bad = r.error;
          return false;
        }
        st.replayCommand(r.cmd as Command, expected, warnings);
        expected++;
        return true;
      });
      if (bad !== undefined) throw new Error(`journal ${name}: damaged record #${expected + 1} (${bad})`);
    } finally {
      fs.closeSync(fd);
    }
  }
  if (expected !== job.count) throw new Error(`the journals hold ${expected} commands, the snapshot needs ${job.count}`);
  if (warnings.length > 0) throw new Error(`replay diverged: ${warnings[0]}`);
  const w = writeSnapshot(job.dir, { gen: job.gen, count: job.count, t: job.t, createdAt: Date.now() }, st.exportSections(), hook);
  return { ...w, replayed: expected - base.count };
}
