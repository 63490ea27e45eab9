/**
 * The state dir of a sandbox: generations of snapshot + journal, recovery on start,
 * rotation, and removal of what is no longer needed.
 *
 * Rotation (in the background through a worker thread, or in the foreground on shutdown and after a
 * replay) and recovery (the newest snapshot that reads back whole, then its journals in order) are
 * described in docs/sandbox.md, "State dir internals": a SIGKILL at any moment loses no acknowledged
 * command.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Journal, type JournalHeader } from './journal';
import { SnapshotReader, fsyncDir, snapshotName, writeSnapshot, type SnapshotWriteStats } from './snapshot';
import type { Command, JournalLike, SandboxState, SnapshotSource } from './state';
import { startSnapshotBuild, type RunningBuild, type WorkerScript } from './snapshotWorker';

/** Options of {@link StateStore.open}. */
export interface StateStoreOptions {
  /** fdatasync every journal record (power-loss durability). Default false. */
  fsync?: boolean;
  /** Rotate when the journal holds this many records. Default {@link DEFAULT_SNAPSHOT_EVERY_RECORDS}. */
  snapshotEveryRecords?: number;
  /** Rotate when the journal reaches this many bytes. Default {@link DEFAULT_SNAPSHOT_EVERY_BYTES}. */
  snapshotEveryBytes?: number;
  /** Notes (rotations with their pause, fallbacks). */
  log?: (line: string) => void;
  /** Called while a snapshot is written, with the bytes written so far and its generation (tests kill the process here). */
  onSnapshotWrite?: (bytes: number, gen: number) => void;
  /** Write the snapshots of queued rotations in a worker thread running this script (snapshotWorker.ts); none: in the foreground. */
  worker?: WorkerScript;
}

/**
 * Default rotation threshold in records: a start replays at most this many journal records after its
 * snapshot (≈ 25 µs each on the dev box: under 1 s), and at the simulation's ≈ 35 commands/s it rotates every
 * ≈ 15 min.
 */
export const DEFAULT_SNAPSHOT_EVERY_RECORDS = 30_000;
/** Default rotation threshold in bytes (16 MiB). */
export const DEFAULT_SNAPSHOT_EVERY_BYTES = 16 << 20;

/** File name of generation `gen`'s journal. */
export function journalName(gen: number): string {
  return `journal-${String(gen).padStart(8, '0')}.log`;
}
const LEGACY_JOURNAL = 'journal.log';
const SNAP_RE = /^snapshot-(\d{8})\.snap$/;
const BAD_RE = /^snapshot-(\d{8})\.snap\.bad$/;
const JOURNAL_RE = /^journal-(\d{8})\.log$/;

/** A rotation's figures. */
export interface RotationStats extends SnapshotWriteStats {
  gen: number;
  /** ms the sandbox was paused: the next journal created (and, in the foreground, the snapshot written and synced) */
  pauseMs: number;
  /** true when the snapshot was written by the worker */
  background: boolean;
  /** ms this thread spent when the background snapshot was complete (old files removed); 0 in the foreground */
  finishMs: number;
  /** journal records the worker replayed to rebuild the state (background only) */
  replayed?: number;
}

/** The state dir's files by generation. */
function scan(dir: string): { snapshots: Map<number, string>; journals: Map<number, string>; bad: Map<number, string>; tmp: string[] } {
  const snapshots = new Map<number, string>();
  const journals = new Map<number, string>();
  const bad = new Map<number, string>();
  const tmp: string[] = [];
  for (const f of fs.readdirSync(dir)) {
    let m: RegExpExecArray | null;
    if ((m = SNAP_RE.exec(f))) snapshots.set(Number(m[1]), f);
    else if ((m = JOURNAL_RE.exec(f))) journals.set(Number(m[1]), f);
    else if ((m = BAD_RE.exec(f))) bad.set(Number(m[1]), f);
    else if (/^snapshot-\d{8}\.snap\.tmp$/.test(f)) tmp.push(f);
  }
  if (fs.existsSync(path.join(dir, LEGACY_JOURNAL))) {
    if (journals.has(0)) throw new Error(`state dir ${dir} holds both ${LEGACY_JOURNAL} and ${journalName(0)}; move one away`);
    journals.set(0, LEGACY_JOURNAL);
  }
  return { snapshots, journals, bad, tmp };
}

/** The header of a journal file without reading its records (null: empty or torn header). */
function peekHeader(file: string): JournalHeader | null {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const nl = buf.subarray(0, n).indexOf(0x0a);
    if (nl < 0) return null;
    const line = buf.toString('latin1', 0, nl);
    if (line === 'SPOTDESK-JOURNAL 1') return { version: 1, gen: 0, base: null, start: 0 };
    const m = /^SPOTDESK-JOURNAL 2 (.*)$/.exec(line);
    if (!m) return null;
    const v = JSON.parse(m[1]) as JournalHeader;
    return { version: 2, gen: v.gen, base: v.base, start: v.start };
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The newest generation above 0 whose journal starts from the empty state with no command before it
 * (`base: null, start: 0`): where a reset (StateStore.startOver) began the state dir's history anew; 0 when
 * there is none. (A journal recreated at a start over a missing snapshot also says `base: null`, but with the
 * commands before it as `start`; with `start: 0` nothing came before it, so reading it as a reset loses nothing.)
 */
function newestResetGeneration(dir: string, journals: Map<number, string>): number {
  let newest = 0;
  for (const [g, f] of journals) {
    if (g <= newest) continue;
    const h = peekHeader(path.join(dir, f));
    if (h !== null && h.base === null && h.start === 0) newest = g;
  }
  return newest;
}

/**
 * The state dir of a running sandbox: the current journal (appends go here: it is the state's
 * JournalLike), rotation and clean shutdown (see the module doc).
 */
export class StateStore implements JournalLike {
  private rotationQueued = false;
  /** records of the current journal at which the next rotation is due */
  private dueRecords: number;
  private dueBytes: number;
  private closed = false;
  /** The last rotation's figures (undefined before the first). */
  lastRotation: RotationStats | undefined;
  /** The snapshot being written in the background, if any. */
  private building: { build: RunningBuild; finished: Promise<void> } | undefined;

  private constructor(
    readonly dir: string,
    private state: SandboxState,
    private journal: Journal<Command>,
    private gen: number,
    private readonly opts: StateStoreOptions,
  ) {
    this.dueRecords = opts.snapshotEveryRecords ?? DEFAULT_SNAPSHOT_EVERY_RECORDS;
    this.dueBytes = opts.snapshotEveryBytes ?? DEFAULT_SNAPSHOT_EVERY_BYTES;
  }

  /**
   * Recover the state of `dir` (see the module doc) and open its journal for appending; the returned state
   * has the store attached as its journal. `makeState(snapshot?)` builds a state, restored from `snapshot`
   * when given (it must read every section: SandboxState.importSections); it may be called again after a
   * snapshot turned out unusable (the half-built state is dropped).
   * @returns the store, the state, warnings, and how many journal records were replayed.
   * @throws Error when no consistent state can be rebuilt (a broken journal chain, a journal damaged in the
   *   middle, no usable snapshot where one is needed)
   */
  static open(
    dir: string,
    makeState: (snapshot?: SnapshotSource) => { state: SandboxState; warnings: string[] },
    opts: StateStoreOptions = {},
  ): { store: StateStore; state: SandboxState; warnings: string[]; replayed: number } {
    const log = opts.log ?? (() => undefined);
    fs.mkdirSync(dir, { recursive: true });
    const warnings: string[] = [];
    let files = scan(dir);
    for (const f of files.tmp) {
      warnings.push(`removed ${f}: a snapshot whose writing was interrupted`);
      fs.rmSync(path.join(dir, f), { force: true });
    }
    // 0. a reset (reset.ts) began a generation on the empty state: nothing before it counts (its deletion
    //    may have been cut short by the death of the process)
    const resetGen = newestResetGeneration(dir, files.journals);
    if (resetGen > 0) {
      for (const [g, f] of [...files.snapshots, ...files.journals, ...files.bad]) if (g < resetGen) fs.rmSync(path.join(dir, f), { force: true });
      files = scan(dir);
    }
    // 1. the newest usable snapshot
    let state: SandboxState | undefined;
    let base = { gen: -1, count: 0 };
    for (const gen of [...files.snapshots.keys()].sort((a, b) => b - a)) {
      const file = path.join(dir, files.snapshots.get(gen) as string);
      let reader: SnapshotReader | undefined;
      try {
        reader = new SnapshotReader(file);
        if (reader.meta.gen !== gen) throw new Error(`its meta record says generation ${reader.meta.gen}`);
        const made = makeState(reader);
        reader.finish();
        state = made.state;
        warnings.push(...made.warnings);
        base = { gen, count: reader.meta.count };
        break;
      } catch (e) {
        reader?.close();
        const msg = `snapshot ${path.basename(file)} is unusable (${(e as Error).message}); kept as ${path.basename(file)}.bad, falling back to the previous snapshot and its journals`;
        warnings.push(msg);
        log(`sandbox: ${msg}`);
        fs.renameSync(file, `${file}.bad`);
      }
    }
    files = scan(dir);
    // 2. the journals from the base's generation on
    const chain = [...files.journals.keys()].filter((g) => g >= Math.max(0, base.gen)).sort((a, b) => a - b);
    if (state === undefined) {
      const first = chain.length > 0 ? peekHeader(path.join(dir, files.journals.get(chain[0]) as string)) : null;
      if (chain.length > 0 && first !== null && (first.base !== null || first.start !== 0)) {
        throw new Error(
          `state dir ${dir}: no usable snapshot, and its oldest journal ${files.journals.get(chain[0])} continues ${first.base} (after ${first.start} commands), ` +
            `which is missing or damaged; move the state dir away to start fresh`,
        );
      }
      const made = makeState();
      state = made.state;
      warnings.push(...made.warnings);
    }
    let expected = base.count;
    let journal: Journal<Command> | undefined;
    let gen = Math.max(0, base.gen);
    const repWarnings: string[] = [];
    try {
      for (const [i, g] of chain.entries()) {
        const name = files.journals.get(g) as string;
        const h = peekHeader(path.join(dir, name));
        const last = i === chain.length - 1;
        if (h !== null && h.start !== expected) {
          throw new Error(`state dir ${dir}: journal ${name} starts after ${h.start} commands, but ${expected} come before it (a journal is missing or damaged)`);
        }
        const st = state;
        const opened = Journal.open<Command>(dir, {
          fileName: name,
          fsync: opts.fsync ?? false,
          create: { gen: g, base: base.gen === g ? snapshotName(g) : null, start: expected },
          onCommand: (cmd, k) => st.replayCommand(cmd, expected + k, repWarnings),
        });
        if (!last && opened.warnings.length > 0) {
          opened.journal.close();
          throw new Error(`state dir ${dir}: journal ${name} is damaged (${opened.warnings.join('; ')}) and later journals exist`);
        }
        warnings.push(...opened.warnings);
        expected += opened.count;
        gen = g;
        if (last) journal = opened.journal;
        else opened.journal.close();
      }
      if (journal === undefined) {
        // no journal after the base (a start after a snapshot whose journal was not created yet, or a new dir)
        gen = Math.max(0, base.gen);
        journal = Journal.open<Command>(dir, {
          fileName: journalName(gen),
          fsync: opts.fsync ?? false,
          create: { gen, base: base.gen >= 0 ? snapshotName(gen) : null, start: expected },
        }).journal;
        fsyncDir(dir);
      }
    } catch (e) {
      journal?.close();
      throw e;
    }
    warnings.push(...repWarnings);
    const store = new StateStore(dir, state, journal, gen, opts);
    state.attachJournal(store);
    return { store, state, warnings, replayed: expected - base.count };
  }

  /** The current generation (its journal receives the appends). */
  get generation(): number {
    return this.gen;
  }

  /** Records and bytes of the current journal. */
  get journalSize(): { records: number; bytes: number } {
    return { records: this.journal.records, bytes: this.journal.bytes };
  }

  /** Append one executed command (SandboxState.exec), and queue a rotation when a threshold is reached. */
  append(cmd: Command): void {
    this.journal.append(cmd);
    this.queueIfDue();
  }

  private queueIfDue(): void {
    if (!this.rotationQueued && !this.building && (this.journal.records >= this.dueRecords || this.journal.bytes >= this.dueBytes)) {
      this.rotationQueued = true;
      setImmediate(() => this.rotateIfDue());
    }
  }

  /**
   * Rotate now when a threshold is reached (what the queued rotation runs; a loop that never yields calls it):
   * in the background when the store has a worker script, else in the foreground. Nothing happens while a
   * background snapshot is still being written. @returns the foreground rotation's figures, or the background
   * rotation's switch (`pauseMs`; the rest arrives in {@link lastRotation} when the snapshot is complete).
   */
  rotateIfDue(): RotationStats | undefined {
    this.rotationQueued = false;
    if (this.closed || this.building || (this.journal.records < this.dueRecords && this.journal.bytes < this.dueBytes)) return undefined;
    return this.opts.worker ? this.rotateInBackground(this.opts.worker) : this.rotate();
  }

  /** Resolves when no background snapshot is being written (at once when none is). Never rejects. */
  idle(): Promise<void> {
    return this.building?.finished ?? Promise.resolve();
  }

  /** Whether a background snapshot is being written now. */
  get snapshotInProgress(): boolean {
    return this.building !== undefined;
  }

  /**
   * Switch appends to the next generation's journal now and have the worker write that generation's snapshot
   * (see the module doc). On failure to create the journal the current one stays in use (as {@link rotate});
   * a failed build is logged and leaves the dir recoverable from the previous snapshot and the journals.
   */
  private rotateInBackground(worker: WorkerScript): RotationStats | undefined {
    const log = this.opts.log ?? (() => undefined);
    const next = this.gen + 1;
    const count = this.journal.header.start + this.journal.records;
    const t0 = performance.now();
    let j: Journal<Command>;
    try {
      j = Journal.open<Command>(this.dir, { fileName: journalName(next), fsync: this.opts.fsync ?? false, create: { gen: next, base: snapshotName(next), start: count } }).journal;
      // the new file's directory entry matters on power loss only, which only fsync mode guards against
      // (a killed process leaves the page cache to the kernel); the worker fsyncs the dir with the snapshot
      if (this.opts.fsync) fsyncDir(this.dir);
    } catch (e) {
      log(`sandbox: journal ${journalName(next)} could not be created: ${(e as Error).message}; the journal goes on`);
      this.postponeRotation();
      return undefined;
    }
    this.journal.close();
    this.journal = j;
    this.gen = next;
    this.resetDue();
    const job = { dir: this.dir, gen: next, count, t: this.state.now(), manualClock: this.state.manualClock };
    const build = startSnapshotBuild(worker, job, this.opts.onSnapshotWrite);
    const pauseMs = performance.now() - t0;
    const finished = build.done.then(
      async (w) => {
        if (this.closed) return;
        const t1 = performance.now();
        const unlinked = this.removeOld(next, true);
        const finishMs = performance.now() - t1;
        await unlinked;
        this.lastRotation = { file: w.file, bytes: w.bytes, records: w.records, writeMs: w.writeMs, syncMs: w.syncMs, gen: next, pauseMs, background: true, finishMs, replayed: w.replayed };
        log(
          `sandbox: snapshot ${snapshotName(next)} (${count} commands): ${w.bytes} bytes, ${w.records} records, paused ${pauseMs.toFixed(1)} ms ` +
            `(background: replayed ${w.replayed} records, write ${w.writeMs.toFixed(1)} ms, sync ${w.syncMs.toFixed(1)} ms; finish ${finishMs.toFixed(1)} ms)`,
        );
      },
      (e: Error) => {
        if (!this.closed) log(`sandbox: background snapshot ${snapshotName(next)} failed: ${e.message}; the journals keep every command, the next rotation tries again`);
      },
    ).finally(() => {
      if (this.building?.build === build) this.building = undefined;
      if (!this.closed) this.queueIfDue();
    });
    this.building = { build, finished };
    return { file: snapshotName(next), bytes: 0, records: 0, writeMs: 0, syncMs: 0, gen: next, pauseMs, background: true, finishMs: 0 };
  }

  private resetDue(): void {
    this.dueRecords = this.opts.snapshotEveryRecords ?? DEFAULT_SNAPSHOT_EVERY_RECORDS;
    this.dueBytes = this.opts.snapshotEveryBytes ?? DEFAULT_SNAPSHOT_EVERY_BYTES;
  }

  private postponeRotation(): void {
    this.dueRecords = this.journal.records + (this.opts.snapshotEveryRecords ?? DEFAULT_SNAPSHOT_EVERY_RECORDS);
    this.dueBytes = this.journal.bytes + (this.opts.snapshotEveryBytes ?? DEFAULT_SNAPSHOT_EVERY_BYTES);
  }

  /** Stop a background snapshot in progress (its .tmp stays until the next start). */
  private stopBuild(): void {
    const b = this.building;
    this.building = undefined;
    if (b) void b.build.terminate().catch(() => undefined);
  }

  /**
   * Write the next generation's snapshot and switch to its journal (see the module doc). Runs between
   * commands. On failure (disk full…) the current journal stays in use, the error is logged, and the next
   * attempt waits for as many records again. @returns the rotation's figures, undefined when it failed.
   */
  rotate(): RotationStats | undefined {
    if (this.closed) throw new Error('state store is closed');
    const log = this.opts.log ?? (() => undefined);
    const next = this.gen + 1;
    const count = this.journal.header.start + this.journal.records;
    const t0 = performance.now();
    let w: SnapshotWriteStats;
    let j: Journal<Command>;
    try {
      w = writeSnapshot(this.dir, { gen: next, count, t: this.state.now(), createdAt: Date.now() }, this.state.exportSections(), this.opts.onSnapshotWrite);
      j = Journal.open<Command>(this.dir, { fileName: journalName(next), fsync: this.opts.fsync ?? false, create: { gen: next, base: snapshotName(next), start: count } }).journal;
      fsyncDir(this.dir);
    } catch (e) {
      log(`sandbox: snapshot ${snapshotName(next)} failed: ${(e as Error).message}; the journal goes on`);
      this.postponeRotation();
      return undefined;
    }
    this.journal.close();
    this.journal = j;
    this.gen = next;
    this.resetDue();
    const pauseMs = performance.now() - t0;
    this.removeOld(next);
    this.lastRotation = { ...w, gen: next, pauseMs, background: false, finishMs: 0 };
    log(`sandbox: snapshot ${snapshotName(next)} (${count} commands): ${w.bytes} bytes, ${w.records} records, paused ${pauseMs.toFixed(1)} ms (write ${w.writeMs.toFixed(1)} ms, sync ${w.syncMs.toFixed(1)} ms)`);
    return this.lastRotation;
  }

  /**
   * Delete the files of generations before the newest snapshot older than `newest` (see the module doc);
   * with `async`, the unlinks run off this thread (resolved when done; a failure only leaves a file behind).
   */
  private removeOld(newest: number, async = false): Promise<void> {
    const files = scan(this.dir);
    const older = [...files.snapshots.keys()].filter((g) => g < newest);
    if (older.length === 0) return Promise.resolve();
    const keepFrom = Math.max(...older);
    const gone = [...files.snapshots, ...files.journals, ...files.bad].filter(([g]) => g < keepFrom).map(([, f]) => path.join(this.dir, f));
    if (async) return Promise.all(gone.map((f) => fs.promises.rm(f, { force: true }).catch(() => undefined))).then(() => undefined);
    for (const f of gone) fs.rmSync(f, { force: true });
    return Promise.resolve();
  }

  /**
   * Clean shutdown: a last rotation when the journal holds anything (so the next start reads one snapshot and
   * an empty journal), then close. Idempotent.
   */
  close(): void {
    if (this.closed) return;
    // a background snapshot still being written is stopped and replaced by this last one
    const wasBuilding = this.building !== undefined;
    this.stopBuild();
    if (this.journal.records > 0 || wasBuilding) this.rotate();
    this.closed = true;
    this.journal.close();
  }

  /**
   * Start the state dir's history over with `state` (a sandbox reset, reset.ts): `commands` — the ones that
   * built `state` from the empty state — become the next generation's journal, with `base: null, start: 0`
   * in its header; once it and the directory are synced, appends go to it, `state` is the state snapshots are
   * taken of, and every file of the generations before it is deleted. A start finding such a generation
   * ignores (and deletes) everything before it (see {@link StateStore.open}).
   * @throws Error when the new journal cannot be written (nothing changed then)
   */
  startOver(state: SandboxState, commands: readonly Command[]): void {
    if (this.closed) throw new Error('state store is closed');
    const next = this.gen + 1;
    const j = Journal.open<Command>(this.dir, { fileName: journalName(next), fsync: this.opts.fsync ?? false, create: { gen: next, base: null, start: 0 } }).journal;
    // a background snapshot of the old world is of no use now (one that completes anyway is ignored: snapshotBuild.ts)
    try {
      for (const c of commands) j.append(c);
      j.sync();
      fsyncDir(this.dir);
    } catch (e) {
      j.close();
      fs.rmSync(path.join(this.dir, journalName(next)), { force: true });
      throw e;
    }
    this.stopBuild();
    this.journal.close();
    this.journal = j;
    this.gen = next;
    this.state = state;
    state.attachJournal(this);
    this.resetDue();
    const files = scan(this.dir);
    for (const [g, f] of [...files.snapshots, ...files.journals, ...files.bad]) if (g < next) fs.rmSync(path.join(this.dir, f), { force: true });
  }

  /** Close without the final snapshot (start-up failed). */
  abandon(): void {
    this.stopBuild();
    this.closed = true;
    this.journal.close();
  }
}
