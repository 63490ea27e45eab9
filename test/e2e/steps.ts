/**
 * A named step of an end-to-end script: runs `f`, prints `✔ name (N ms)` or `✖ name`, and rethrows
 * failures so the script exits non-zero (scripts/run-e2e.js reads the exit code).
 */
export async function step<T>(name: string, f: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    const r = await f();
    console.log(`  ✔ ${name} (${Date.now() - t0} ms)`);
    return r;
  } catch (err) {
    console.log(`  ✖ ${name}`);
    throw err;
  }
}
