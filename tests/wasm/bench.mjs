// The browser engine's search speed against the native program's, on the positions of
// `gravulien bench` (make bench): each side searches them RUNS times (default 3), the
// fastest time of each position counts, and the ratio of the nodes per second (wasm /
// native) is given per position, as a median and over the whole set. The wasm searches
// run without reports (no pauses for the worker's message loop), as the native bench does.
//   node tests/wasm/bench.mjs BUILD/gravulien [RUNS]
import { must, nativeBench, start } from './engine.mjs';

const bin = process.argv[2];
const runs = Number(process.argv[3] || 3);
if (!bin) {
  console.error('usage: node tests/wasm/bench.mjs path/to/gravulien [runs]');
  process.exit(2);
}
const engine = start();
const positions = (await must(engine, 'benchPositions')).positions;
const native = [], wasm = [];
for (let r = 0; r < runs; r++) {
  nativeBench(bin).forEach((row, i) => {
    native[i] = native[i] && native[i].ms <= row.ms ? native[i] : row;
  });
  for (let i = 0; i < positions.length; i++) {
    const b = positions[i];
    await must(engine, 'load', { game: b.game, rules: b.rules, position: b.position });
    const res = (await must(engine, 'search', { depth: b.depth, nodes: b.playouts, reports: false })).result;
    if (!wasm[i] || res.time < wasm[i].time) wasm[i] = res;
  }
}
await engine.close();

const ratios = [];
let nNodes = 0, nMs = 0, wNodes = 0, wMs = 0;
console.log('wasm bench: position           nodes   native ms   wasm ms   wasm/native nps');
for (let i = 0; i < positions.length; i++) {
  const n = native[i], w = wasm[i];
  if (!n || n.nodes !== w.nodes || n.best !== w.best) {
    console.log(`wasm bench: position ${i + 1}: the searches differ (run ctest -R wasm)`);
    process.exit(1);
  }
  // Times are whole milliseconds: at least 1.
  const ratio = (w.nodes / Math.max(w.time, 1)) / (n.nodes / Math.max(n.ms, 1));
  ratios.push(ratio);
  nNodes += n.nodes; nMs += n.ms; wNodes += w.nodes; wMs += w.time;
  console.log(`wasm bench: ${`${positions[i].game} ${i + 1}`.padEnd(12)}${String(w.nodes).padStart(14)}` +
    `${String(n.ms).padStart(12)}${String(w.time).padStart(10)}${ratio.toFixed(2).padStart(18)}`);
}
ratios.sort((a, b) => a - b);
const mid = ratios.length >> 1;
const median = ratios.length % 2 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
const total = (wNodes / Math.max(wMs, 1)) / (nNodes / Math.max(nMs, 1));
console.log(`wasm bench: wasm/native nodes per second: median ${median.toFixed(2)}, ` +
  `whole set ${total.toFixed(2)} (${Math.round(wNodes * 1000 / Math.max(wMs, 1))} vs ` +
  `${Math.round(nNodes * 1000 / Math.max(nMs, 1))} nps; fastest of ${runs} runs)`);
