// `npm run bench [-- name...]`: runs every bench/*.bench.ts (or the named ones: api, engine, engine-ab,
// engine-instr, engine-ops, mirror, orderbook, replay, server, stream…) one after another,
// each in its own Node process (tsx), so that one benchmark's heap does not skew the next.
// Each benchmark prints its own figures and ratios against a baseline measured in the same run.
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const wanted = process.argv.slice(2);
const files = fs
  .readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f}`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(__dirname, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
