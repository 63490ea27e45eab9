/**
 * Runs {@link buildSnapshotFromFiles} (snapshotBuild.ts) in a worker thread, so that a rotation costs the
 * exchange only the switch to the next journal (stateStore.ts). The worker's script is
 * `sandbox-snapshot-worker.js` beside the running bundle (esbuild.js builds it next to dist/sandbox-cli.js),
 * or, when the sandbox runs from its TypeScript sources (tests, benches under tsx), snapshotWorkerEntry.ts
 * with tsx's loader. Where neither exists, {@link snapshotWorkerScript} answers undefined and rotations
 * write their snapshot in the foreground as before.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SnapshotWriteStats } from './snapshot';
import type { SnapshotJob } from './snapshotBuild';

/** File name of the bundled worker script (esbuild.js target `sandbox-snapshot-worker`). */
export const SNAPSHOT_WORKER_BUNDLE = 'sandbox-snapshot-worker.js';

/** A worker script and the Node options it needs. */
export interface WorkerScript {
  file: string;
  execArgv: string[];
}

/** The worker script for this process: the bundle beside this code, else the TypeScript entry; undefined when neither exists. */
export function snapshotWorkerScript(): WorkerScript | undefined {
  const js = path.join(__dirname, SNAPSHOT_WORKER_BUNDLE);
  if (fs.existsSync(js)) return { file: js, execArgv: [] };
  const ts = path.join(__dirname, 'snapshotWorkerEntry.ts');
  if (__filename.endsWith('.ts') && fs.existsSync(ts)) return { file: ts, execArgv: ['--require', 'tsx/cjs'] };
  return undefined;
}

/** Messages of the worker to its parent. */
export type WorkerReply =
  | { kind: 'progress'; bytes: number; gen: number }
  | { kind: 'done'; stats: SnapshotWriteStats & { replayed: number } }
  | { kind: 'error'; message: string };

/** A snapshot being built in a worker: its result, and a way to stop it. */
export interface RunningBuild {
  readonly done: Promise<SnapshotWriteStats & { replayed: number }>;
  /** Stop the worker (its .tmp file stays; the next start removes it). */
  terminate(): Promise<void>;
}

/**
 * Start building `job`'s snapshot in a worker. `onProgress(bytes, gen)`, when given, runs on this thread after
 * each chunk the worker wrote, and the worker waits for it to return before it writes on (so a test that kills
 * the process there kills it mid-write, exactly as with a foreground snapshot).
 * `done` rejects with the worker's error (the snapshot was not written).
 */
export function startSnapshotBuild(script: WorkerScript, job: SnapshotJob, onProgress?: (bytes: number, gen: number) => void): RunningBuild {
  const gate = onProgress ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
  const worker = new Worker(script.file, { execArgv: script.execArgv, workerData: { job, gate } });
  worker.unref();
  let settled = false;
  const done = new Promise<SnapshotWriteStats & { replayed: number }>((resolve, reject) => {
    worker.on('message', (m: WorkerReply) => {
      if (m.kind === 'progress') {
        try {
          onProgress?.(m.bytes, m.gen);
        } finally {
          if (gate) {
            Atomics.store(gate, 0, 1);
            Atomics.notify(gate, 0);
          }
        }
      } else if (m.kind === 'done') {
        settled = true;
        resolve(m.stats);
      } else {
        settled = true;
        reject(new Error(m.message));
      }
    });
    worker.on('error', (e) => {
      settled = true;
      reject(e);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`the snapshot worker stopped (exit code ${code}) before it finished`));
    });
  });
  return {
    done,
    terminate: async () => {
      await worker.terminate();
    },
  };
}
