// Soak benchmark of 'gravulien serve': mixed traffic for a long time against one server,
// killed with SIGKILL every few minutes and started again on the same database.
//
// Usage: node bench/soak.mjs <gravulien> [minutes]   (bench/soak.sh wraps it; make soak)
//
// Traffic, all on loopback:
//   - people: SOAK_HUMAN_GAMES (12) games between two human seats (Chu, Exaç, Grav in
//     turn), each move chosen from the view's legal moves after 100-400 ms of "thought",
//     posted with its number n; a game that reaches 150 moves is resigned; a finished game
//     is followed by a new one;
//   - human against AI: SOAK_HVAI_GAMES (4) games, AI level 1 or 2, the AI first in half
//     of them; the person polls the view and moves when it is their turn;
//   - AI against AI: SOAK_AIAI_GAMES (2) games, levels 1-3, followed by polling;
//   - watchers: SOAK_WATCHERS (40) WebSocket clients, each watching a random game from a
//     random move number for 3-15 s, then another;
//   - every SOAK_KILL_EVERY seconds (default 300, at most a third of the run so that even
//     a short run has two), kill -9 of the server and a restart on the same database (the
//     same port); and at the end one more, before the final check.
//
// Measured, and printed at the end with the targets:
//   - the loop's worst stall (bench/probe.mjs): a worker thread (its own event loop, not
//     delayed by the clients) opens a new connection for GET /api/health every 50 ms; and
//     it keeps one WebSocket that sends {"type":"ping"} every 100 ms: the worst round trip
//     and the worst gap between two pongs. Samples that overlap a restart (from the kill until
//     the new process printed its URL) are left out; target: no stall over 100 ms;
//   - memory: the server's VmRSS (/proc/PID/status) every second; per process (restart
//     segment): after its warm-up (150 s: the two minutes an idle game stays in memory,
//     so that the games in memory have reached their steady number), at its end,
//     its maximum, and the slope; next to the games in memory (/api/health), since a
//     finished game stays in memory two minutes after its last request; target: flat;
//   - durability: every move that got a 200 must be in its game, with the same number and
//     text, after the restarts (checked against each game's view at the end); the same for
//     every move any reply, view or watcher event showed; target: 0 lost.
// Exits 1 when a target is missed or the server could not be restarted.
//
// SOAK_DB=pg (bench/soak.sh runs it inside tests/pgtmp.sh) uses the PostgreSQL in
// GV_TEST_PG instead of a SQLite file. SOAK_KEEP=1 keeps the temporary directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import net from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { now, startProbe } from './probe.mjs';

// A process's memory is judged after this: an idle game's two minutes in memory, and a margin.
const WARM_MS = 150000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

await main();

async function main() {
  const bin = process.argv[2];
  if (!bin) {
    console.log('usage: node bench/soak.mjs <gravulien> [minutes]');
    process.exit(2);
  }
  const minutes = Number(process.argv[3] || process.env.SOAK_MINUTES || 30);
  const env = (k, d) => Number(process.env[k] || d);
  const RUN_MS = minutes * 60000;
  const KILL_MS = Math.min(env('SOAK_KILL_EVERY', 300) * 1000, RUN_MS / 3);
  const HUMAN = env('SOAK_HUMAN_GAMES', 12);
  const HVAI = env('SOAK_HVAI_GAMES', 4);
  const AIAI = env('SOAK_AIAI_GAMES', 2);
  const WATCHERS = env('SOAK_WATCHERS', 40);
  const STALL_MS = 100;
  const MOVE_CAP = 150;
  const usePg = process.env.SOAK_DB === 'pg';
  if (usePg && !process.env.GV_TEST_PG) {
    console.log('SOAK_DB=pg needs GV_TEST_PG (run through tests/pgtmp.sh, as bench/soak.sh does)');
    process.exit(2);
  }
  const { default: WebSocket } = await import('../tests/server/node_modules/ws/wrapper.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'gv-soak-'));
  const db = usePg ? process.env.GV_TEST_PG : join(dir, 'soak.db');
  const logFd = openSync(join(dir, 'server.log'), 'a');
  const SERVER_ARGS = ['--rate', '0', '--ai-threads', '2', '--ai-hash', '4', '--ai-movetime', '200', '--max-ai-games', '0'];

  // A free port for every process of the run (the clients keep it across restarts).
  const port = await new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
  const base = `http://127.0.0.1:${port}`;

  // ---- the server's processes --------------------------------------------------------------
  const segments = [];           // one per process: { pid, start, ready, end, loaded, rss: [[t, kB, games]] }
  const downs = [];              // [from, to]: the server was down (kill .. next ready)
  let srv = null;
  let logLines = 0;
  function startServer() {
    return new Promise((resolve, reject) => {
      const start = now();
      const proc = spawn(bin, ['serve', '--port', String(port), '--db', db, ...SERVER_ARGS], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let done = false;
      const timer = setTimeout(() => { if (!done) { done = true; proc.kill('SIGKILL'); reject(new Error(`no start: ${out}`)); } }, 30000);
      proc.stderr.on('data', (d) => {
        writeSync(logFd, d);
        logLines += String(d).split('\n').filter(Boolean).length;
      });
      proc.stdout.on('data', (d) => {
        out += d;
        const m = out.match(/http:\/\/\S+:(\d+)\/.*?(\d+) games in progress loaded/);
        if (m && !done) {
          done = true;
          clearTimeout(timer);
          const exited = new Promise((r) => proc.on('exit', (code, sig) => r({ code, sig })));
          const seg = { pid: proc.pid, start, ready: now(), end: null, loaded: Number(m[2]), rss: [] };
          segments.push(seg);
          resolve({ proc, exited, seg });
        }
      });
      proc.on('exit', (code, sig) => {
        if (!done) { done = true; clearTimeout(timer); reject(new Error(`exited ${code} ${sig}: ${out}`)); }
      });
    });
  }
  async function killAndRestart() {
    const t = now();
    srv.seg.end = t;
    srv.proc.kill('SIGKILL');
    await srv.exited;
    srv = await startServer();
    downs.push([t, srv.seg.ready]);
    return srv.seg.ready - t;
  }

  // ---- HTTP ----------------------------------------------------------------------------------
  const stats = { requests: 0, failed: 0, acked: 0, inDoubt: 0, refused: {}, created: { human: 0, hvai: 0, aiai: 0 },
    createRefused: 0, resigned: 0, finished: 0, watchSessions: 0, watchMsgs: 0, watchClosed: {}, catchUpBad: 0, liveGaps: 0 };
  async function call(method, path, body) {
    stats.requests++;
    try {
      const res = await fetch(base + path, {
        method, body: body === undefined ? undefined : JSON.stringify(body),
        headers: body === undefined ? {} : { 'content-type': 'application/json' }, signal: AbortSignal.timeout(5000),
      });
      const text = await res.text();
      let json = null;
      try { json = JSON.parse(text); } catch { /* not JSON */ }
      return { status: res.status, json };
    } catch {
      stats.failed++;
      return { status: 0, json: null };
    }
  }

  // ---- games and what the server said of them ------------------------------------------------
  const games = new Map();       // id -> { id, kind, game, tokens, acked: Map n->move, seen: Map n->move }
  const active = new Set();      // ids being played now (the watchers pick from these)
  function register(view, kind) {
    const g = { id: view.id, kind, game: view.game, tokens: [], acked: new Map(), seen: new Map(), n: 0 };
    for (const t of view.tokens || []) g.tokens[t.seat] = t.token;
    games.set(g.id, g);
    stats.created[kind]++;
    return g;
  }
  function learn(g, v) {
    if (!v || !Array.isArray(v.moves)) return;
    for (const m of v.moves) if (!g.seen.has(m.n)) g.seen.set(m.n, m.move);
    g.n = Math.max(g.n, v.n || 0);
  }
  const rnd = (n) => Math.floor(Math.random() * n);
  function choose(legal) {
    const acc = legal.find((m) => / accept$/.test(m));
    if (acc) return acc;
    const ok = legal.filter((m) => !/ (pass|grav)$/.test(m) && !/ declare /.test(m));
    const from = ok.length ? ok : legal;
    return from[rnd(from.length)];
  }
  const GAMES = ['chu', 'exac', 'grav'];
  const createBody = (game, seats) => (game === 'grav'
    ? { game, options: { size: 7, players: 2, max_turns: 60 }, seats }
    : { game, seats });

  let running = true;
  let killing = false;           // a kill -9 and restart is under way
  const deadline = now() + RUN_MS;

  // Two human seats: the driver plays both.
  async function humanDriver(k) {
    let round = k;
    while (running) {
      const game = GAMES[round++ % 3];
      const c = await call('POST', '/api/games', createBody(game, [{ type: 'human', you: true }, { type: 'human', you: true }]));
      if (c.status !== 201) { if (c.status) stats.createRefused++; await sleep(500); continue; }
      const g = register(c.json, 'human');
      active.add(g.id);
      await playPeople(g, [0, 1]);
      active.delete(g.id);
    }
  }

  // Plays the seats in `mine` (tokens in g) until the game ends or the run does.
  async function playPeople(g, mine) {
    let hint = mine[0];
    while (running) {
      let v = await call('GET', `/api/games/${g.id}?token=${g.tokens[hint]}`);
      if (!v.json || v.status !== 200) { await sleep(300); continue; }
      learn(g, v.json);
      if (v.json.status === 'finished') { stats.finished++; return; }
      // Resigning is always "legal" in Grav, even in another player's turn: not a move here.
      const playable = (x) => ((x.you && x.you.legal_moves) || []).filter((m) => !/ resign$/.test(m));
      let seat = hint;
      let legal = playable(v.json);
      if (!legal.length) {
        const tm = v.json.to_move;
        const others = mine.filter((s) => s !== hint);
        if (tm !== null && mine.includes(tm) && tm !== hint) { hint = tm; continue; }
        let found = false;
        for (const s of others) {
          const o = await call('GET', `/api/games/${g.id}?token=${g.tokens[s]}`);
          if (o.json && playable(o.json).length) {
            v = o; seat = s; legal = playable(o.json); found = true;
            break;
          }
        }
        if (!found) { await sleep(200); continue; }   // the AI's turn, or a game not live yet
      }
      if (v.json.n >= MOVE_CAP) {
        const r = await call('POST', `/api/games/${g.id}/resign`, { token: g.tokens[seat] });
        if (r.status === 200) { stats.resigned++; learn(g, r.json); if (r.json.status === 'finished') { stats.finished++; return; } }
        continue;
      }
      await sleep(100 + rnd(300));
      const mv = choose(legal);
      const n = v.json.n + 1;
      const r = await call('POST', `/api/games/${g.id}/move`, { token: g.tokens[seat], move: mv, n });
      if (r.status === 200) {
        g.acked.set(n, mv);
        stats.acked++;
        learn(g, r.json);
        if (r.json.to_move !== null && mine.includes(r.json.to_move)) hint = r.json.to_move;
      } else if (r.status === 0) {
        stats.inDoubt++;                                // no reply: the server died meanwhile
        await sleep(300);
      } else {
        const key = `${r.status} ${r.json && r.json.code}`;
        stats.refused[key] = (stats.refused[key] || 0) + 1;
        if (process.env.SOAK_DEBUG) console.log(`  refused ${g.game} ${g.kind} n=${n} seat ${seat} '${mv}': ${JSON.stringify(r.json)}`);
      }
    }
  }

  async function hvaiDriver(k) {
    let round = k;
    while (running) {
      const game = GAMES[round % 3];
      const aiFirst = round++ % 2 === 1;
      const ai = { type: 'ai', level: 1 + rnd(2) };
      const me = { type: 'human', you: true };
      const c = await call('POST', '/api/games', createBody(game, aiFirst ? [ai, me] : [me, ai]));
      if (c.status !== 201) { if (c.status) stats.createRefused++; await sleep(500); continue; }
      const g = register(c.json, 'hvai');
      active.add(g.id);
      await playPeople(g, [aiFirst ? 1 : 0]);
      active.delete(g.id);
    }
  }

  async function aiaiDriver(k) {
    let round = k;
    while (running) {
      const game = GAMES[round++ % 3];
      const c = await call('POST', '/api/games', createBody(game, [{ type: 'ai', level: 1 + rnd(3) }, { type: 'ai', level: 1 + rnd(3) }]));
      if (c.status !== 201) { if (c.status) stats.createRefused++; await sleep(500); continue; }
      const g = register(c.json, 'aiai');
      active.add(g.id);
      while (running) {
        await sleep(1000);
        const v = await call('GET', `/api/games/${g.id}`);
        if (v.json && v.status === 200) {
          learn(g, v.json);
          if (v.json.status === 'finished') { stats.finished++; break; }
        }
      }
      active.delete(g.id);
    }
  }

  // A watcher: a random game from a random move, 3-15 s, then another.
  async function watcherLoop() {
    while (running) {
      const ids = [...active];
      if (!ids.length) { await sleep(500); continue; }
      const g = games.get(ids[rnd(ids.length)]);
      const since = rnd(g.n + 1);
      stats.watchSessions++;
      await new Promise((resolve) => {
        const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?game=${g.id}&since=${since}`, { perMessageDeflate: false });
        const catchUp = [];
        let state = null;
        let last = 0;
        let closedByUs = false;
        const stay = setTimeout(() => { closedByUs = true; ws.close(); }, 3000 + rnd(12000));
        const halt = setInterval(() => { if (!running) { closedByUs = true; ws.terminate(); } }, 200);
        ws.on('message', (d) => {
          stats.watchMsgs++;
          let m;
          try { m = JSON.parse(String(d)); } catch { return; }
          const told = [];
          if (m.type === 'move' && m.move) told.push(m.move);
          if (m.type === 'moves' && Array.isArray(m.moves)) told.push(...m.moves);
          for (const x of told) if (!g.seen.has(x.n)) g.seen.set(x.n, x.move);
          if (!state) {
            if (m.catch_up) catchUp.push(...told.map((x) => x.n));
            if (m.type === 'state') {
              state = m;
              last = m.n;
              const ok = catchUp.length === Math.max(0, m.n - since) && catchUp.every((n, i) => n === since + 1 + i);
              if (!ok) stats.catchUpBad++;
            }
          } else if (told.length) {
            for (const x of told) {
              if (x.n !== last + 1) stats.liveGaps++;
              last = x.n;
            }
          }
        });
        ws.on('error', () => {});
        ws.on('close', (code, why) => {
          clearTimeout(stay);
          clearInterval(halt);
          if (!closedByUs) {
            const down = downs.length && now() - downs[downs.length - 1][1] < 1000;
            const key = `${code}${why && why.length ? ` ${why}` : ''}${down || killing ? ' (restart)' : ''}`;
            stats.watchClosed[key] = (stats.watchClosed[key] || 0) + 1;
          }
          resolve();
        });
      });
    }
  }

  // Whatever ends this process (Ctrl-C, a closed pipe, an exception), the server goes too.
  process.on('exit', () => { if (srv && srv.proc.exitCode === null && srv.proc.signalCode === null) srv.proc.kill('SIGKILL'); });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => process.exit(130));
  process.stdout.on('error', () => process.exit(1));

  // ---- run -----------------------------------------------------------------------------------
  console.log(`soak: ${minutes} min against ${bin} (${usePg ? 'PostgreSQL' : 'SQLite'}), kill -9 every ${(KILL_MS / 1000).toFixed(0)} s; ` +
    `${HUMAN} human games, ${HVAI} human-vs-AI, ${AIAI} AI-vs-AI, ${WATCHERS} watchers; server ${SERVER_ARGS.join(' ')}`);
  const load0 = loadavg();
  srv = await startServer();
  const t0 = srv.seg.ready;
  const probe = await startProbe(port, { probeGap: 50, pingGap: 100 });
  const drivers = [];
  for (let i = 0; i < HUMAN; i++) drivers.push(humanDriver(i));
  for (let i = 0; i < HVAI; i++) drivers.push(hvaiDriver(i));
  for (let i = 0; i < AIAI; i++) drivers.push(aiaiDriver(i));
  for (let i = 0; i < WATCHERS; i++) drivers.push(watcherLoop());

  // Memory samples every second; games in memory from /api/health.
  const sampler = setInterval(async () => {
    if (killing || !srv) return;
    const seg = srv.seg;
    let kb = null;
    try { kb = Number(readFileSync(`/proc/${seg.pid}/status`, 'utf8').match(/VmRSS:\s*(\d+)/)[1]); } catch { return; }
    const h = await call('GET', '/api/health');
    if (srv.seg === seg && h.json) seg.rss.push([now(), kb, h.json.games_in_memory]);
  }, 1000);

  let nextKill = t0 + KILL_MS;
  const restartsMs = [];
  let lastReport = now();
  while (now() < deadline) {
    await sleep(200);
    if (now() >= nextKill && now() < deadline - 20000) {
      killing = true;
      try {
        restartsMs.push(await killAndRestart());
      } catch (e) {
        console.log(`the server did not start again: ${e.message}`);
        running = false;
        process.exitCode = 1;
        break;
      } finally {
        killing = false;
      }
      console.log(`  ${((now() - t0) / 1000).toFixed(0)} s: kill -9 and restart (${restartsMs[restartsMs.length - 1].toFixed(0)} ms, ${srv.seg.loaded} games loaded)`);
      nextKill += KILL_MS;
    }
    if (now() - lastReport >= 60000) {
      lastReport = now();
      const seg = srv.seg;
      const r = seg.rss[seg.rss.length - 1];
      console.log(`  ${((now() - t0) / 1000).toFixed(0)} s: ${stats.acked} moves acknowledged, ${games.size} games, ${stats.watchSessions} watch sessions; RSS ${r ? (r[1] / 1024).toFixed(1) : '?'} MB, ${r ? r[2] : '?'} games in memory`);
    }
  }
  running = false;
  await Promise.race([Promise.all(drivers), sleep(15000)]);
  clearInterval(sampler);
  const probeData = await probe.stop();

  // The final check after one more kill -9: every move the server acknowledged or showed.
  let finalRestart = null;
  try {
    killing = true;
    finalRestart = await killAndRestart();
  } catch (e) {
    console.log(`the server did not start again for the final check: ${e.message}`);
    process.exitCode = 1;
  }
  let lostAcked = 0, lostSeen = 0, lostGames = 0, seenTotal = 0;
  const lostWhere = [];
  if (finalRestart !== null) {
    for (const g of games.values()) {
      const v = await call('GET', `/api/games/${g.id}`);
      if (v.status !== 200 || !v.json) {
        lostGames++;
        lostAcked += g.acked.size;
        lostSeen += g.seen.size;
        lostWhere.push(`${g.id}: ${v.status}`);
        continue;
      }
      const at = new Map(v.json.moves.map((m) => [m.n, m.move]));
      for (const [n, mv] of g.acked) if (at.get(n) !== mv) { lostAcked++; lostWhere.push(`${g.id} move ${n} '${mv}' acknowledged, now '${at.get(n)}'`); }
      for (const [n, mv] of g.seen) { seenTotal++; if (at.get(n) !== mv) lostSeen++; }
    }
  }
  srv.seg.end = now();
  srv.proc.kill('SIGTERM');
  const ex = await srv.exited;
  closeSync(logFd);

  // ---- figures -------------------------------------------------------------------------------
  const overlapsDown = (a, b) => downs.some(([d0, d1]) => a < d1 && b > d0);
  const segOf = (t) => segments.findIndex((s) => t >= s.ready && (s.end === null || t < s.end));
  const lat = [];
  const segWorst = segments.map(() => 0);
  for (let i = 0; i < probeData.probes.length; i += 2) {
    const t = probeData.probes[i], ms = probeData.probes[i + 1];
    const endT = t + (ms === Infinity ? 2000 : ms);
    if (overlapsDown(t, endT) || t < t0) continue;
    lat.push(ms);
    const s = segOf(t);
    if (s >= 0) segWorst[s] = Math.max(segWorst[s], ms);
  }
  lat.sort((a, b) => a - b);
  const pct = (p) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor(lat.length * p))] : NaN);
  const over = lat.filter((v) => v > STALL_MS).length;
  const worstProbe = lat.length ? lat[lat.length - 1] : Infinity;
  let worstRtt = 0, worstGap = 0, pongN = 0;
  let prev = null;
  for (let i = 0; i < probeData.pongs.length; i += 2) {
    const t = probeData.pongs[i], rtt = probeData.pongs[i + 1];
    if (rtt < 0) { prev = null; continue; }
    if (t < t0 || overlapsDown(t - rtt, t)) { prev = null; continue; }
    pongN++;
    worstRtt = Math.max(worstRtt, rtt);
    if (prev !== null && !overlapsDown(prev, t)) worstGap = Math.max(worstGap, t - prev);
    prev = t;
  }
  const lateMs = [];
  for (let i = 0; i < probeData.late.length; i += 2) if (probeData.late[i] >= t0) lateMs.push(probeData.late[i + 1]);
  lateMs.sort((a, b) => a - b);
  const fmt = (v) => (v === Infinity ? 'no answer in 2 s' : `${v.toFixed(1)} ms`);
  const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;
  const verdict = (ok) => (ok ? 'ok' : 'MISSED');
  const missed = [];

  console.log('');
  console.log(`== soak: ${((segments[segments.length - 1].end - t0) / 60000).toFixed(1)} min, ${usePg ? 'PostgreSQL' : 'SQLite'}, ` +
    `${segments.length - 1} kill -9 + restart (the last before the final check)`);
  console.log(`traffic: ${games.size} games (${stats.created.human} human, ${stats.created.hvai} human-vs-AI, ${stats.created.aiai} AI-vs-AI; ` +
    `${stats.finished} finished, ${stats.resigned} resigned at ${MOVE_CAP} moves), ${stats.acked} moves acknowledged to people, ` +
    `${seenTotal} moves seen in all, ${stats.requests} HTTP requests (${stats.failed} without a reply, around the kills), ` +
    `${stats.inDoubt} moves in doubt (no reply), refusals ${JSON.stringify(stats.refused)}, ${stats.createRefused} creations refused`);
  console.log(`watchers: ${stats.watchSessions} sessions, ${stats.watchMsgs} messages, catch-up wrong ${stats.catchUpBad}, ` +
    `live gaps ${stats.liveGaps}, closed by the server ${JSON.stringify(stats.watchClosed)}`);
  const stallOk = worstProbe <= STALL_MS && worstRtt <= STALL_MS && worstGap <= 100 + STALL_MS;
  if (!stallOk) missed.push('stall');
  console.log(`loop stall, GET /api/health on a new connection every 50 ms (${lat.length} probes, restarts left out):`);
  console.log(`  p50 ${fmt(pct(0.5))}, p99 ${fmt(pct(0.99))}, p99.9 ${fmt(pct(0.999))}, worst ${fmt(worstProbe)}; over ${STALL_MS} ms: ${over}` +
    `   target: none over ${STALL_MS} ms  ${verdict(worstProbe <= STALL_MS)}`);
  console.log(`  worst per process: ${segWorst.map((v) => fmt(v)).join(', ')}`);
  console.log(`  for comparison, the probing thread's own 50 ms timers ended late by: p99 ${fmt(lateMs[Math.floor(lateMs.length * 0.99)] ?? 0)}, ` +
    `worst ${fmt(lateMs[lateMs.length - 1] ?? 0)} (the machine's share: ${cpus().length} cores, load average ${load0.map((v) => v.toFixed(1)).join(' ')} at the start, ` +
    `${loadavg().map((v) => v.toFixed(1)).join(' ')} at the end)`);
  console.log(`  WebSocket ping every 100 ms (${pongN} pongs): worst round trip ${fmt(worstRtt)}, worst gap between pongs ${fmt(worstGap)}` +
    `   target: round trip <= ${STALL_MS} ms, gap <= ${100 + STALL_MS} ms  ${verdict(worstRtt <= STALL_MS && worstGap <= 100 + STALL_MS)}`);
  console.log('memory, VmRSS (games in memory):');
  let memOk = true;
  segments.forEach((s, i) => {
    const warm = s.ready + WARM_MS;
    const after = s.rss.filter((r) => r[0] >= warm);
    if (!s.rss.length) return;
    const max = s.rss.reduce((a, r) => Math.max(a, r[1]), 0);
    const first = after[0], last = after[after.length - 1];
    let slope = NaN;
    if (after.length >= 10) {
      const n = after.length;
      const mx = after.reduce((a, r) => a + r[0], 0) / n, my = after.reduce((a, r) => a + r[1], 0) / n;
      const sxy = after.reduce((a, r) => a + (r[0] - mx) * (r[1] - my), 0), sxx = after.reduce((a, r) => a + (r[0] - mx) ** 2, 0);
      slope = sxx ? (sxy / sxx) * 60000 / 1024 : NaN;   // MB per minute
    }
    const grow = first && last ? last[1] / first[1] : NaN;
    if (grow > 1.25) memOk = false;
    const dGames = first && last ? last[2] - first[2] : 0;
    const perGame = dGames > 0 ? ` (+${((last[1] - first[1]) / dGames).toFixed(0)} kB per game more in memory)` : '';
    const span = `${((s.ready - t0) / 60000).toFixed(1)}-${(((s.end ?? now()) - t0) / 60000).toFixed(1)} min`;
    console.log(`  process ${i + 1} (${span}, ${s.loaded} games loaded at start): ` +
      (first ? `after warm-up ${mb(first[1])} (${first[2]}), end ${mb(last[1])} (${last[2]}), ` : `no sample after warm-up, start ${mb(s.rss[0][1])}, `) +
      `max ${mb(max)}, slope ${Number.isNaN(slope) ? '-' : `${slope >= 0 ? '+' : ''}${slope.toFixed(2)} MB/min`}${perGame}`);
  });
  const f = segments[0].rss.find((r) => r[0] >= segments[0].ready + 30000);
  const lastSeg = segments.filter((s) => s.rss.length).pop();
  const l = lastSeg.rss[lastSeg.rss.length - 1];
  console.log(`  first process after warm-up ${f ? mb(f[1]) : '-'} -> last sample ${l ? mb(l[1]) : '-'}; max ${mb(Math.max(...segments.flatMap((s) => s.rss.map((r) => r[1]))))}` +
    `   target: flat (no process grows over 25 % after its warm-up)  ${verdict(memOk)}`);
  console.log('  (an idle game stays in memory two minutes after its last request: the warm-up lets the games in memory');
  console.log('  reach their steady number first; a process that lives less than the warm-up is not judged)');
  if (!memOk) missed.push('memory');
  console.log(`restarts: ${[...restartsMs, ...(finalRestart !== null ? [finalRestart] : [])].map((v) => `${v.toFixed(0)} ms`).join(', ')} from kill -9 to the new process listening`);
  const durOk = finalRestart !== null && lostAcked === 0 && lostGames === 0;
  if (!durOk) missed.push('durability');
  console.log(`durability: acknowledged moves lost ${lostAcked} of ${stats.acked}, seen moves lost ${lostSeen} of ${seenTotal}, games lost ${lostGames} of ${games.size}` +
    `   target: 0 lost  ${verdict(durOk && lostSeen === 0)}`);
  if (lostSeen) missed.push('durability (seen)');
  for (const w of lostWhere.slice(0, 10)) console.log(`  ${w}`);
  console.log(`server: exit ${ex.code ?? ex.sig} on SIGTERM; ${logLines} lines on stderr (${join(dir, 'server.log')})`);
  if (ex.code !== 0) missed.push('clean stop');
  console.log(missed.length ? `targets missed: ${missed.join(', ')}` : 'every target met');
  if (process.env.SOAK_KEEP !== '1' && !missed.length) rmSync(dir, { recursive: true, force: true });
  else console.log(`kept ${dir}`);
  process.exit(missed.length || process.exitCode ? 1 : 0);
}
