// The browser engine gives the native program's answers: perft counts, the bench
// positions' fixed-depth searches (nodes, best move, score), the AI's moves at the levels
// with node budgets; and its searches stop on request, on every game.
//   node tests/wasm/wasm.mjs BUILD/gravulien
import { performance } from 'node:perf_hooks';
import { must, nativeBench, nativePerft, nativeThink, start } from './engine.mjs';

const bin = process.argv[2];
if (!bin) {
  console.error('usage: node tests/wasm/wasm.mjs path/to/gravulien');
  process.exit(2);
}
let passed = 0, failed = 0;
function check(ok, what, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? ` ${detail}` : ''}`);
}

const engine = start();
const games = (await must(engine, 'games')).games.map((g) => g.name);
check(['chu', 'exac', 'grav'].every((g) => games.includes(g)), 'games', games.join(' '));

// 1. Perft from the start positions and from the bench positions, against the native
// program's counts.
const bench = (await must(engine, 'benchPositions')).positions;
const perfts = [
  ['chu', '', 'startpos', 4],
  ['exac', '', 'startpos', 4],
  ['grav', '', 'startpos', 2],
  ['grav', 'size=7,players=3,seed=3', 'startpos', 3],
  ['grav', 'size=11,players=2,seed=5', 'startpos', 3],
];
for (const b of bench) {
  if (b.game !== 'grav' && b.position !== 'startpos') perfts.push([b.game, b.rules, b.position, 3]);
}
for (const [game, rules, position, maxDepth] of perfts) {
  await must(engine, 'load', { game, rules, position });
  for (let d = 1; d <= maxDepth; d++) {
    const t0 = performance.now();
    const got = (await must(engine, 'perft', { depth: d })).nodes;
    const ms = performance.now() - t0;
    const want = nativePerft(bin, game, d, position, rules);
    check(got === want, `perft ${game} ${rules || 'default'} ${position.slice(0, 24)} d${d}`,
      `${got}${got === want ? '' : ` != native ${want}`} (${ms.toFixed(0)} ms)`);
  }
}

// 2. The bench: each position searched to its depth (Grav: its playouts) by a new engine.
const nat = nativeBench(bin);
check(nat.length === bench.length, 'bench positions', `${bench.length} (native ${nat.length})`);
for (let i = 0; i < bench.length && i < nat.length; i++) {
  const b = bench[i], n = nat[i];
  await must(engine, 'load', { game: b.game, rules: b.rules, position: b.position });
  let infos = 0;
  const r = (await must(engine, 'search', { depth: b.depth, nodes: b.playouts }, () => infos++)).result;
  const same = r.nodes === n.nodes && r.best === n.best && r.score === n.score;
  check(same && infos > 0, `bench ${b.game} ${i + 1}`,
    `nodes ${r.nodes} best ${r.best} score ${r.score}${same ? '' : ` != native nodes ${n.nodes} best ${n.best} score ${n.score}`}` +
    ` (${r.time} ms, ${infos} reports)`);
}

// 3. The AI at levels whose node or playout budget ends the search first (the time is
// ample): the same move as the native engine with the same seed, and as many nodes.
const aiCases = [
  ['chu', '', [1, 4, 7]],
  ['exac', '', [1, 4, 7]],
  ['grav', 'size=11,players=2,seed=5', [1, 4, 7]],
];
for (const [game, rules, levels] of aiCases) {
  for (const level of levels) {
    await must(engine, 'load', { game, rules });
    await must(engine, 'setOption', { name: 'hash', value: '64' });
    const seed = 1000 + level;
    const r = (await must(engine, 'aiMove', { level, seed, movetime: 600000 })).result;
    const n = nativeThink(bin, game, rules, level, seed);
    check(r.best === n.best && r.nodes === n.nodes, `aiMove ${game} level ${level}`,
      `${r.best} ${r.nodes} nodes${r.best === n.best && r.nodes === n.nodes ? '' : ` != native ${n.best} ${n.nodes}`}`);
  }
}

// 4. Stop: an infinite search stopped after a while answers with a legal move, and the
// engine plays it and searches again; a stop sent right behind a search stops it too.
for (const [game, rules] of [['chu', ''], ['exac', ''], ['grav', 'size=13,players=2,seed=0']]) {
  const st = (await must(engine, 'load', { game, rules })).state;
  const t0 = performance.now();
  let last = null;
  const p = must(engine, 'search', { infinite: true }, (info) => { last = info; });
  await new Promise((res) => setTimeout(res, 400));
  const s = await must(engine, 'stop');
  const r = (await p).result;
  const ms = performance.now() - t0;
  check(s.stopping && st.moves.includes(r.best) && last !== null && ms < 5000,
    `stop ${game}`, `best ${r.best} depth ${r.depth} nodes ${r.nodes} after ${ms.toFixed(0)} ms`);
  const after = (await must(engine, 'play', { move: r.best })).state;
  check(after.plies === 1, `play after stop ${game}`, `${after.plies} plies`);
  const q = engine.req('search', { infinite: true });
  const s2 = await must(engine, 'stop');
  const r2 = await q;
  check(s2.stopping && r2.ok && after.moves.includes(r2.result.best), `stop a search just sent ${game}`,
    `best ${r2.ok && r2.result.best}`);
}

// 5. MultiPV: three lines reported per iteration, ranked, with different first moves; the
// lines and played moves in Chu's TSA and KIF beside the USI texts; Exaç's moves with the
// positions after them.
{
  await must(engine, 'load', { game: 'chu' });
  await must(engine, 'setOption', { name: 'multipv', value: '3' });
  const infos = [];
  await must(engine, 'search', { depth: 3 }, (info) => infos.push(info));
  const last = infos.filter((i) => i.depth === 3);
  const firsts = last.map((i) => i.pv.split(' ')[0]);
  check(last.length === 3 && last.map((i) => i.multipv).join() === '1,2,3' && new Set(firsts).size === 3,
    'multipv 3', `depth 3 lines ${last.map((i) => `${i.multipv}:${i.pv.split(' ')[0]}`).join(' ')}`);
  const tsa = last[0] && last[0].pvTexts && last[0].pvTexts.tsa;
  check(!!tsa && tsa.length === last[0].pv.split(' ').length && /^[A-Z+!']+[-x]/.test(tsa[0]), 'pv in TSA',
    `${tsa && tsa.join(' ')} (${last[0] && last[0].pv})`);
  const pl = await must(engine, 'play', { move: '7i7h' });
  check(pl.texts.tsa === 'P-7h' && pl.texts.kif === '☗７八歩兵' && pl.state.notations.join() === 'tsa,kif',
    'texts of a move played', JSON.stringify(pl.texts));
  await must(engine, 'load', { game: 'exac' });
  const lp = await must(engine, 'legalPositions');
  const st = (await must(engine, 'state')).state;
  check(lp.moves.length === st.moves.length && st.plies === 0 && lp.moves.every((m) => m.position !== lp.position),
    'legal moves with their positions', `${lp.moves.length} moves`);
}

// 6. Errors come back as answers.
const bad = await engine.req('load', { game: 'nosuch' });
check(!bad.ok && /unknown game/.test(bad.error), 'unknown game refused', bad.error);
await must(engine, 'load', { game: 'chu' });
const ill = await engine.req('play', { move: 'z9z9' });
check(!ill.ok, 'illegal move refused', ill.error);
const un = await engine.req('frobnicate');
check(!un.ok, 'unknown request refused', un.error);

await engine.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
