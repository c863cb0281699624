// The browser engine's views (the worker's `view`: gv_wasm_view) are the native server's:
// games played through the API of `gravulien serve` (every seat the test's own), a move
// chosen at each step among the legal moves the browser engine gives (for Grav, every
// player's: calls of "Grav!" and acceptances in a window too), and after every move the
// engine's view compared with the server's reply; then each position of the server's
// /positions with the engine's view after as many moves.
//   node tests/wasm/view.mjs BUILD/gravulien
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { must, start, startServe } from './engine.mjs';

const bin = process.argv[2];
if (!bin) {
  console.error('usage: node tests/wasm/view.mjs path/to/gravulien');
  process.exit(2);
}
let passed = 0, failed = 0;
function check(ok, what, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} view: ${what}${detail ? ` ${detail}` : ''}`);
  return ok;
}

const dir = mkdtempSync(join(tmpdir(), 'gv-wasm-view-'));
const { server, base } = await startServe(bin, dir, ['--rate', '0']);
async function call(method, path, body) {
  const r = await fetch(base + path, { method, headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined });
  const json = await r.json().catch(() => null);
  return { status: r.status, json };
}

// A small deterministic generator, so that a failure replays.
let seed = 12345;
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return Math.floor(seed / 65536) % n;
};

// The parts of a server view the game's web view adds: the keys of the engine's view.
const part = (engineView, serverView) => Object.fromEntries(Object.keys(engineView).map((k) => [k, serverView[k]]));

const engine = start();
const cases = [
  ['grav', { size: 7, players: 3, seed: 3 }, 3, 80],
  ['grav', { size: 11, players: 2, seed: 11, referee: 'strict' }, 2, 60],
  ['grav', { size: 5, players: 4, seed: 7 }, 4, 60],
  ['exac', {}, 2, 30],
  ['chu', {}, 2, 20],
];
try {
  for (const [game, options, nseats, plies] of cases) {
    const label = `${game} ${Object.entries(options).map(([k, v]) => `${k}=${v}`).join(',') || 'default'}`;
    const seats = Array.from({ length: nseats }, () => ({ type: 'human', you: true }));
    const c = await call('POST', '/api/games', { game, options, seats });
    if (!check(c.status === 201, `${label}: game created`, c.status === 201 ? c.json.id : JSON.stringify(c.json))) continue;
    const id = c.json.id, tokens = c.json.tokens.map((t) => t.token);
    const rules = Object.entries(c.json.options || {}).map(([k, v]) => `${k}=${v}`).join(',');
    let st = (await must(engine, 'load', { game, rules, position: c.json.start || 'startpos' })).state;
    let v0 = (await must(engine, 'view')).view;
    check(isDeepStrictEqual(v0, part(v0, c.json)) && Object.keys(v0).length > 0, `${label}: the start`,
      Object.keys(v0).join(','));
    const moves = [];
    let same = 0, differ = null, calls = 0;
    for (let i = 0; i < plies && st.status === 'ongoing'; i++) {
      const legal = st.moves.filter((m) => !/ resign$/.test(m));
      if (!legal.length) break;
      // Grav: a call or an acceptance whenever there is one, half the time.
      const asks = legal.filter((m) => / (grav|accept)$/.test(m));
      const mv = asks.length && rand(2) ? asks[rand(asks.length)] : legal[rand(legal.length)];
      const seat = game === 'grav' ? Number(mv.split(' ')[0]) - 1 : st.toMove;
      if (/ grav$/.test(mv)) calls++;
      const r = await call('POST', `/api/games/${id}/move`, { token: tokens[seat], move: mv, n: moves.length + 1 });
      if (r.status !== 200) {
        differ = `server refused ${mv} at ply ${moves.length}: ${JSON.stringify(r.json)}`;
        break;
      }
      moves.push(mv);
      st = (await must(engine, 'play', { move: mv })).state;
      const w = (await must(engine, 'view')).view;
      if (isDeepStrictEqual(w, part(w, r.json))) same++;
      else if (!differ) differ = `after ${moves.join(' / ')}: engine ${JSON.stringify(w)} server ${JSON.stringify(part(w, r.json))}`;
    }
    check(!differ && same === moves.length, `${label}: the view after every move`,
      differ || `${same} moves${game === 'grav' ? `, ${calls} calls of Grav!` : ''}`);
    // The positions of the game as the server replays them.
    const p = await call('GET', `/api/games/${id}/positions`);
    let ok = p.status === 200 && p.json.positions.length === moves.length + 1, bad = '';
    for (const pos of p.status === 200 ? p.json.positions : []) {
      await must(engine, 'load', { game, rules, position: c.json.start || 'startpos', moves: moves.slice(0, pos.n) });
      const w = (await must(engine, 'view')).view;
      const want = part(w, pos);
      // A position carries the game's object (and Chu's and Exaç's checks) as the view has it.
      if (!isDeepStrictEqual(w, want)) {
        ok = false;
        bad = bad || `position ${pos.n}: engine ${JSON.stringify(w)} server ${JSON.stringify(want)}`;
      }
    }
    check(ok, `${label}: the server's positions`, bad || `${p.json && p.json.positions ? p.json.positions.length : JSON.stringify(p.json)} positions`);
  }
} finally {
  await engine.close();
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`view: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
