// kill -9 durability: "a move is acknowledged only after it is committed; kill -9 at any
// moment and a restart lose no acknowledged move, and games in progress (AI turns
// included) resume."
//
// Usage: node kill9.mjs <gravulien> [cycles]   (default 20 cycles; KILL9_CYCLES too)
//
// One database, many kill/restart cycles. In each cycle the server plays AI-vs-AI games
// with clocks (Chu, Exaç, Grav; levels 1-2) and clients drive human-vs-human and
// human-vs-AI games over HTTP as fast as they can, WebSocket watchers following every
// game; after a random 50-700 ms (every fourth cycle: 0-50 ms after the restart, while
// the loaded games resume) the server is killed with SIGKILL and started again on the
// same file. Then, for every game:
//   - everything the server told anyone (a 200 to a move/join/resign, a move in any
//     reply's move list, a move event to a watcher, a 201 for the game) is still there
//     with the same n, seat and text, and finished results are unchanged;
//   - the moves are numbered 1..N without a gap and N is the game's n;
//   - a move at a human seat is one our clients sent (acknowledged, or in flight when
//     the server died), nothing else;
//   - AI-vs-AI games and AI turns of human-vs-AI games progress within seconds;
//   - GET /api/games (open, live, finished) lists every game; the server restarts
//     every time; at the end it stops cleanly and the file passes integrity_check.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  api, check, removeDir, sleep, startServer, summary, tempDir, watcher,
} from './lib.mjs';

const bin = process.argv[2];
if (!bin) {
  console.log('usage: node kill9.mjs <gravulien> [cycles]');
  process.exit(2);
}
const CYCLES = Number(process.argv[3] || process.env.KILL9_CYCLES || 20);
const GAMES = ['chu', 'exac', 'grav'];
const AIAI_PER_GAME = 3;        // live AI-vs-AI games of each kind at every cycle's start
// No cap on AI-only games: this test keeps nine of them going (the default cap is 8).
const SERVER_ARGS = ['--rate', '0', '--ai-threads', '2', '--ai-hash', '4', '--max-ai-games', '0'];

const dir = tempDir('gv-kill9-');
const db = join(dir, 'games.db');
const games = new Map();        // id -> game record (see newRecord)
let srv = null;
let serverErrors = [];
let creationsInFlight = 0;      // POST /api/games without an answer (maybe created)
let stats = { acked: 0, ackedHuman: 0, seen: 0, inDoubt: 0, inDoubtKept: 0, finished: 0,
  kills: 0, aiProgress: 0, created: 0 };

const rnd = (n) => Math.floor(Math.random() * n);
const pick = (a) => a[rnd(a.length)];

function newRecord(view, kind) {
  const g = {
    id: view.id, game: view.game, kind,
    tokens: [], ai: view.seats.map((s) => s.type === 'ai'),
    moves: new Map(),            // n -> {move, seat, src}: the server told us; must stay
    sent: new Map(),             // n -> {move, seat}: sent by our clients this cycle
    result: null,                // a finished result we were told
    joinAcked: false,
  };
  for (const t of view.tokens || []) g.tokens[t.seat] = t.token;
  games.set(g.id, g);
  stats.created++;
  learnView(g, view, 'create');
  return g;
}

function sameResult(a, b) {
  return a && b && a.status === b.status && (a.winner ?? null) === (b.winner ?? null) &&
    a.reason === b.reason;
}

// The server told someone that move n of g is `move` by `seat`: it must never change.
function learnMove(g, n, move, seat, src) {
  const had = g.moves.get(n);
  if (had) {
    if (had.move !== move || had.seat !== seat)
      check(false, `game ${g.id} (${g.game}) move ${n}: was '${had.move}' seat ${had.seat} (${had.src}), now '${move}' seat ${seat} (${src})`);
    return;
  }
  g.moves.set(n, { move, seat, src });
  stats.seen++;
}

function learnResult(g, status, result, src) {
  if (status !== 'finished' || !result) return;
  if (g.result) {
    if (!sameResult(g.result, result))
      check(false, `game ${g.id}: result ${JSON.stringify(g.result)} became ${JSON.stringify(result)} (${src})`);
    return;
  }
  g.result = result;
  stats.finished++;
}

function learnView(g, v, src) {
  for (const m of v.moves || []) learnMove(g, m.n, m.move, m.seat, src);
  learnResult(g, v.status, v.result, src);
}

function onWatchMessage(m) {
  const g = games.get(m.id);
  if (!g) return;
  if (m.type === 'move' && m.move) learnMove(g, m.move.n, m.move.move, m.move.seat, 'ws');
  if (m.type === 'moves' && Array.isArray(m.moves)) for (const mv of m.moves) learnMove(g, mv.n, mv.move, mv.seat, 'catch-up');
  if (m.type === 'state') learnView(g, m, 'ws state');
  if (m.status === 'finished') learnResult(g, m.status, m.result, `ws ${m.type}`);
}

// ---- creating games ------------------------------------------------------------------

function gameOptions(game) {
  return game === 'grav' ? { size: pick(['7', '11', '13']), seed: String(1 + rnd(100000)) } : {};
}

async function create(body, kind) {
  creationsInFlight++;
  const r = await api(srv.url, 'POST', '/api/games', body);
  creationsInFlight--;
  if (!check(r.status === 201, `create ${kind} ${body.game}: ${r.status} ${r.text.slice(0, 200)}`))
    return null;
  return newRecord(r.json, kind);
}

const clock = () => ({ initial: 60, increment: 0.1 });

async function topUp() {
  const live = (kind, game) => [...games.values()].filter((g) => g.kind === kind &&
    g.game === game && !g.result && !g.dead).length;
  const jobs = [];
  for (const game of GAMES) {
    for (let k = live('aiai', game); k < AIAI_PER_GAME; k++)
      jobs.push(create({ game, options: gameOptions(game), clock: clock(),
        seats: [{ type: 'ai', level: 1 + rnd(2) }, { type: 'ai', level: 1 + rnd(2) }] }, 'aiai'));
    if (live('hh', game) < 1)
      // Seat 1 is joined by the client (a join under load).
      jobs.push(create({ game, options: gameOptions(game), clock: rnd(2) ? clock() : null,
        seats: [{ type: 'human', you: true }, { type: 'human' }] }, 'hh'));
    if (live('hai', game) < 1) {
      const seats = [{ type: 'human', you: true }, { type: 'ai', level: 1 + rnd(2) }];
      if (rnd(2)) seats.reverse();
      jobs.push(create({ game, options: gameOptions(game), clock: clock(), seats }, 'hai'));
    }
  }
  await Promise.all(jobs);
}

// ---- load: human clients and watchers ------------------------------------------------

// Plays g's human seats as fast as it can until the game ends or the server dies.
async function humanClient(g, life) {
  const base = srv.url;
  const humans = g.tokens.map((t, s) => (t ? s : -1)).filter((s) => s >= 0);
  const resignAfter = g.kind === 'hh' && rnd(3) === 0 ? 10 + rnd(40) : Infinity;
  let played = 0;
  try {
    for (const s of humans) {
      const r = await api(base, 'GET', `/api/games/${g.id}?token=${g.tokens[s]}`);
      if (r.status === 200 && !r.json.seats[s].joined) {
        const j = await api(base, 'POST', `/api/games/${g.id}/join`, { token: g.tokens[s], name: `p${s}` });
        if (check(j.status === 200, `join ${g.id} seat ${s}: ${j.status} ${j.text.slice(0, 200)}`)) {
          g.joinAcked = true;
          learnView(g, j.json, 'join');
        }
      }
    }
    let turn = 0;
    while (!life.dead) {
      // The seat that acts: the first human seat with legal moves.
      let view = null;
      let seat = -1;
      for (let i = 0; i < humans.length && seat < 0; i++) {
        const s = humans[(turn + i) % humans.length];
        const r = await api(base, 'GET', `/api/games/${g.id}?token=${g.tokens[s]}`);
        if (!check(r.status === 200, `GET ${g.id}: ${r.status} ${r.text.slice(0, 200)}`)) return;
        view = r.json;
        learnView(g, view, 'get');
        if (view.status !== 'live') break;
        if (view.you.legal_moves.length) seat = s;
      }
      if (!view || view.status === 'finished') return;
      if (seat < 0) {              // the AI's turn (or an open game): wait a little
        await sleep(3);
        continue;
      }
      turn = humans.indexOf(seat) + 1;
      const n = view.n + 1;
      if (played >= resignAfter) {
        if (g.game === 'grav') g.sent.set(n, { move: `${seat + 1} resign`, seat });
        const r = await api(base, 'POST', `/api/games/${g.id}/resign`, { token: g.tokens[seat] });
        if (check(r.status === 200, `resign ${g.id}: ${r.status} ${r.text.slice(0, 200)}`))
          learnView(g, r.json, 'resign');
        return;
      }
      const move = pick(view.you.legal_moves);
      g.sent.set(n, { move, seat });
      const r = await api(base, 'POST', `/api/games/${g.id}/move`, { token: g.tokens[seat], move, n });
      if (r.status === 200) {
        stats.acked++;
        stats.ackedHuman++;
        const m = r.json.moves[n - 1];
        check(m && m.n === n && m.move === move && m.seat === seat,
          `move reply of ${g.id} n=${n}: ${JSON.stringify(m)} is not '${move}'`);
        learnView(g, r.json, 'move 200');
        played++;
      } else {
        g.sent.delete(n);        // refused: not stored
        // 409: another move came first; 422 "the game is over": the game ended between the
        // GET and the move (a flag fell, or the other seat's client resigned meanwhile).
        const over = r.status === 422 && /the game is over/.test(r.text);
        if (r.status !== 409 && !over)
          check(false, `move ${g.id} n=${n} '${move}': ${r.status} ${r.text.slice(0, 200)}`);
      }
    }
  } catch (e) {
    // The server died under us: whatever was in flight is in doubt.
    if (!life.dead) check(false, `client ${g.id}: ${e.message}`);
  }
}

function openWatchers() {
  const ws = [];
  for (const g of games.values()) {
    if (g.result && rnd(4)) continue;   // a few finished games are watched (catch-up)
    const w = watcher(srv.url, g.id, rnd(2) ? 0 : Math.max(0, g.moves.size - 3));
    w.opened.catch(() => {});
    w.ws.on('error', () => {});
    w.ws.on('message', (data) => {
      try { onWatchMessage(JSON.parse(data.toString())); } catch { /* counted elsewhere */ }
    });
    ws.push(w);
  }
  return ws;
}

// ---- after a restart: what must hold -------------------------------------------------

async function listAll() {
  const ids = new Set();
  for (const status of ['open', 'live', 'finished']) {
    for (let offset = 0; ; offset += 200) {
      const r = await api(srv.url, 'GET', `/api/games?status=${status}&limit=200&offset=${offset}`);
      if (!check(r.status === 200, `list ${status}: ${r.status}`)) return ids;
      for (const x of r.json.games) ids.add(x.id);
      if (r.json.games.length < 200) break;
    }
  }
  return ids;
}

async function verifyAll(cycle) {
  const listed = await listAll();
  let unknown = 0;
  for (const id of listed) if (!games.has(id)) unknown++;
  check(unknown <= creationsInFlight,
    `cycle ${cycle}: ${unknown} listed games nobody created (${creationsInFlight} creations were in flight)`);
  creationsInFlight = 0;
  for (const id of listed) if (!games.has(id)) games.set(id, { id, unknown: true });
  let bad = 0;
  await Promise.all([...games.values()].map(async (g) => {
    if (g.unknown) return;
    if (!check(listed.has(g.id), `cycle ${cycle}: game ${g.id} (${g.kind} ${g.game}) not listed`)) bad++;
    const r = await api(srv.url, 'GET', `/api/games/${g.id}`);
    if (!check(r.status === 200, `cycle ${cycle}: GET ${g.id}: ${r.status} ${r.text.slice(0, 200)}`)) {
      bad++;
      return;
    }
    const v = r.json;
    const problems = [];
    const want = (cond, what) => { if (!cond) problems.push(what); };
    // 1..N, no gap, N is n.
    want(v.moves.every((m, i) => m.n === i + 1) && v.moves.length === v.n,
      `moves not numbered 1..${v.n}: ${v.moves.map((m) => m.n).join(',')}`);
    // Everything told survived, unchanged.
    for (const [n, m] of g.moves) {
      const got = v.moves[n - 1];
      want(got && got.move === m.move && got.seat === m.seat,
        `lost move ${n} '${m.move}' (${m.src}); now ${got ? `'${got.move}'` : `only ${v.moves.length} moves`}`);
    }
    // Human seats played only what our clients sent.
    for (const m of v.moves) {
      if (g.ai[m.seat]) continue;
      const known = g.moves.get(m.n);
      const sent = g.sent.get(m.n);
      if (known && known.move === m.move) continue;
      if (sent && sent.move === m.move && sent.seat === m.seat) {
        stats.inDoubtKept++;
        continue;
      }
      want(false, `move ${m.n} '${m.move}' at human seat ${m.seat} was never sent`);
    }
    stats.inDoubt += [...g.sent.keys()].filter((n) => !g.moves.has(n)).length;
    if (g.result)
      want(v.status === 'finished' && sameResult(v.result, g.result),
        `finished ${JSON.stringify(g.result)}, now ${v.status} ${JSON.stringify(v.result)}`);
    if (g.joinAcked)
      want(v.status !== 'open' && v.seats.every((s) => s.joined),
        `join acknowledged but the game is ${v.status}`);
    const ok = check(problems.length === 0, `cycle ${cycle}: game ${g.id} (${g.kind} ${g.game}, ${v.n} moves): ${problems.slice(0, 4).join('; ')}${problems.length > 4 ? ` (+${problems.length - 4} more)` : ''}`);
    if (!ok) bad++;
    // From now on, all of it is committed and known.
    g.sent.clear();
    learnView(g, v, `restart ${cycle}`);
    g.view = v;
  }));
  check(bad === 0, `cycle ${cycle}: every game intact after the restart (${bad} not)`);
}

// AI turns resume: every live game whose side to move is an AI makes a move (or ends).
async function checkAiProgress(cycle, life) {
  const due = [...games.values()].filter((g) => g.view && g.view.status === 'live' &&
    g.ai[g.view.to_move]);
  const deadline = Date.now() + 8000;
  const pending = new Set(due);
  while (pending.size && Date.now() < deadline && !life.dead) {
    await Promise.all([...pending].map(async (g) => {
      const r = await api(srv.url, 'GET', `/api/games/${g.id}`);
      if (r.status === 200 && (r.json.n > g.view.n || r.json.status !== 'live')) {
        pending.delete(g);
        stats.aiProgress++;
      }
    }));
    if (pending.size) await sleep(50);
  }
  const aiai = due.filter((g) => g.kind === 'aiai').length;
  check(pending.size === 0,
    `cycle ${cycle}: AI turns resume (${due.length - pending.size}/${due.length} games moved, ${aiai} AI-vs-AI): stuck ${[...pending].map((g) => `${g.id}(${g.kind} ${g.game} n=${g.view.n})`).join(' ')}`);
}

// ---- the run -------------------------------------------------------------------------

async function start() {
  const t = Date.now();
  try {
    srv = await startServer(bin, db, SERVER_ARGS);
  } catch (e) {
    check(false, `the server restarts on the same database: ${e.message}`);
    return false;
  }
  srv.proc.stderr.on('data', (d) => { serverErrors.push(String(d)); });
  return Date.now() - t;
}

async function main() {
  const t0 = Date.now();
  let startMs = [];
  if (!(await start())) return;
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    await topUp();
    const life = { dead: false };
    const watchers = openWatchers();
    const clients = [...games.values()]
      .filter((g) => !g.unknown && (g.kind === 'hh' || g.kind === 'hai') && !g.result)
      .map((g) => humanClient(g, life));
    if (cycle % 4 === 3) {
      await sleep(rnd(50));          // killed while the games it just loaded resume
    } else {
      if (cycle > 0) await checkAiProgress(cycle, life);
      await sleep(50 + rnd(651));
    }
    life.dead = true;
    await srv.kill();
    stats.kills++;
    await Promise.all(clients);
    for (const w of watchers) { try { w.ws.terminate(); } catch { /* closed */ } }
    const ms = await start();
    if (!ms) return;
    startMs.push(ms);
    await verifyAll(cycle + 1);
  }
  // The last restart: AI turns resume, a clean stop, and the file is sound.
  await checkAiProgress(CYCLES, { dead: false });
  await verifyAll(CYCLES + 1);
  const st = await srv.stop();
  check(st.code === 0, `the server stops cleanly on SIGTERM (exit ${st.code} ${st.sig})`);
  srv = null;
  const sq = spawnSync('sqlite3', [db, 'PRAGMA integrity_check; PRAGMA foreign_key_check;'], { encoding: 'utf8' });
  if (sq.error) {
    console.log('sqlite3 not installed: integrity_check skipped');
  } else {
    check(sq.stdout.trim() === 'ok', `integrity_check: ${sq.stdout.trim()} ${sq.stderr.trim()}`);
  }
  const bad = serverErrors.join('').split('\n').filter((l) => /not resumed|not stored|AI seat/.test(l));
  check(bad.length === 0, `the server reported no lost game or move: ${bad.slice(0, 5).join(' | ')}`);
  const kinds = {};
  for (const g of games.values()) if (!g.unknown) kinds[`${g.kind}`] = (kinds[`${g.kind}`] || 0) + 1;
  const finished = [...games.values()].filter((g) => g.result).length;
  console.log(`kill9: ${stats.kills} kills in ${((Date.now() - t0) / 1000).toFixed(1)} s; ` +
    `${games.size} games (${Object.entries(kinds).map(([k, v]) => `${v} ${k}`).join(', ')}; ${finished} finished); ` +
    `${stats.ackedHuman} acknowledged human moves, ${stats.seen} moves told in all; ` +
    `${stats.inDoubt} in-flight moves at kills (${stats.inDoubtKept} were committed); ` +
    `${stats.aiProgress} AI turns resumed; restarts took ${Math.min(...startMs)}-${Math.max(...startMs)} ms`);
  check(stats.ackedHuman > 0 && finished > 0 && stats.aiProgress > 0,
    'the load did something (acknowledged moves, finished games, AI turns after restarts)');
}

let code = 1;
try {
  await main();
} catch (e) {
  check(false, `unexpected: ${e.stack}`);
} finally {
  if (srv) await srv.kill();
  removeDir(dir);
  code = summary();
}
process.exit(code);
