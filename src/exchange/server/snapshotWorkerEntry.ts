/**
 * The snapshot worker thread's script (see snapshotWorker.ts): builds the snapshot its parent asked for and
 * reports progress, then the result or the error. Bundled as dist/sandbox-snapshot-worker.js.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildSnapshotFromFiles, type SnapshotJob } from './snapshotBuild';
import type { WorkerReply } from './snapshotWorker';

const data = workerData as { job: SnapshotJob; gate?: Int32Array } | null;
if (parentPort && data?.job) {
  const port = parentPort;
  const post = (m: WorkerReply): void => port.postMessage(m);
  const gate = data.gate;
  try {
    const stats = buildSnapshotFromFiles(data.job, (bytes, gen) => {
      post({ kind: 'progress', bytes, gen });
      if (gate) {
        // wait until the parent ran its hook (tests kill the process there)
        Atomics.wait(gate, 0, 0);
        Atomics.store(gate, 0, 0);
      }
    });
    post({ kind: 'done', stats });
  } catch (e) {
    post({ kind: 'error', message: (e as Error).message });
  }
}
