// Multi-process benchmark: "moves per second and watcher latency with 2 processes on
// PostgreSQL vs 1 on SQLite".
//
// Usage: node bench/multi_bench.mjs <gravulien> [games=40] [seconds=10] [runs=3]
//        node bench/multi_bench.mjs <old gravulien> <new gravulien> [games] [seconds] [runs]
// (bench/multi-bench.sh wraps it: GV_PG_DURABLE=1 tests/pgtmp.sh node bench/multi_bench.mjs ...).
// Needs GV_TEST_PG (tests/pgtmp.sh) for configuration P; without it only S runs.
// With two binaries (the second argument is not a number), every run of a configuration
// is made with each, in an order flipped every run (old, new, then new, old, ...), and the
// summary gives both and the ratios new/old: of the two medians, and the median over the
// runs of each run's ratio (the old and new runs of a round are next to each other in
// time, so this one is less moved by the machine's slow changes of load).
//
// Configuration S: one 'gravulien serve --rate 0' on a fresh temporary SQLite file.
// Configuration P: two 'gravulien serve --rate 0' on one PostgreSQL, each run on a fresh
//   database (CREATE DATABASE through psql when it is found; otherwise the GV_TEST_PG one).
// Load: G two-human Chu games, one client loop per game playing as fast as it can for T
//   seconds: GET /api/games/ID?token=T (the seat to move), POST /api/games/ID/move
//   {token, move (random legal), n}. A finished game is replaced by a new one. In P the
//   moves of a game alternate between the two processes (move k through process k % 2,
//   its GET too), so each process has to catch up with the other's last move; game g is
//   created on process g % 2. One WebSocket watcher per game, connected before the clock
//   starts: in S on the one process, in P on the process that did NOT create the game
//   (so half of its moves arrive from the other process through LISTEN/NOTIFY: "cross",
//   the others were made on the watcher's own process: "local").
// Measured: moves committed (200) per second of the run, the POST round trip, and the
//   watcher latency = arrival of the move's live event ({"type":"move"}; a catch-up
//   comes as {"type":"moves"}) - the instant the POST was sent (one clock, one process). Errors: every
//   non-200 (by status and code), failed requests, events missing after a 3 s grace.
// The loop's stall (bench/probe.mjs): a worker thread per server process, each with its own
//   event loop, does GET /api/health on a new connection every 50 ms and times a WebSocket
//   {"type":"ping"} every 100 ms, from before the clock starts to the end of the load;
//   the samples of the load's window count: p50, p99 and worst of the health probes (of
//   both processes together in P; a probe with no answer in 2 s counts as 2000 ms), the
//   ping's p99 and worst round trip, and how late the probing threads' own 50 ms sleeps
//   ended (the machine's share of any delay: the clients run on the same cores).
// Runs S, P, S, P, ... (runs of each) and prints the medians of every figure. All clients
// and watchers share this one node process, so on a small machine the client's own CPU is
// part of every latency.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { api, removeDir, sleep, startServer, tempDir, watcher } from '../tests/server/lib.mjs';
import { now, probeFigures, startProbe } from './probe.mjs';

delete process.env.GV_SERVER_ON_PG;   // S must stay on SQLite whatever the caller set

const args = process.argv.slice(2);
const isNumber = (x) => /^\d+(\.\d+)?$/.test(x);
const bins = [];
while (args.length && !isNumber(args[0]) && bins.length < 2) bins.push(args.shift());
const [gArg, tArg, rArg] = args;
if (!bins.length) {
  console.log('usage: node bench/multi_bench.mjs [<old gravulien>] <gravulien> [games=40] [seconds=10] [runs=3]');
  process.exit(2);
}
// builds[i]: label of bins[i] ('' with one binary)
const builds = bins.length === 2 ? ['old', 'new'] : [''];
const G = Math.max(1, Number(gArg || 40));
const T = Math.max(1, Number(tArg || 10));
const RUNS = Math.max(1, Number(rArg || 3));
const PG = process.env.GV_TEST_PG || '';

const pct = (a, p) => (a.length ? a[Math.min(a.length - 1, Math.max(0, Math.ceil(p / 100 * a.length) - 1))] : NaN);
const median = (xs) => {
  const a = xs.filter((x) => Number.isFinite(x)).sort((x, y) => x - y);
  if (!a.length) return NaN;
  return a.length % 2 ? a[a.length >> 1] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
};
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const cpuMs = (pid) => {
  try {
    const st = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(st[11]) + Number(st[12])) * 10;   // utime + stime, 100 ticks/s
  } catch { return NaN; }
};
// CPU ms of every process named postgres on the machine, by pid (the backends of a run
// live as long as the servers' connections).
const pgCpu = () => {
  const m = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!s.includes('(postgres)')) continue;
      const st = s.split(') ')[1].split(' ');
      m.set(pid, (Number(st[11]) + Number(st[12])) * 10);
    } catch { /* gone */ }
  }
  return m;
};
const pgCpuDelta = (a, b) => { let d = 0; for (const [pid, c] of b) d += c - (a.get(pid) || 0); return d; };
const la = () => loadavg().map((x) => x.toFixed(2)).join(' ');

// psql of the newest PostgreSQL (as tests/pgtmp.sh picks its server), or the PATH's.
function findPsql() {
  const dirs = [];
  if (process.env.GV_PG_BINDIR) dirs.push(process.env.GV_PG_BINDIR);
  try {
    const vs = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    for (const v of vs) dirs.push(`/usr/lib/postgresql/${v}/bin`);
  } catch { /* none */ }
  for (const d of dirs) if (existsSync(join(d, 'psql'))) return join(d, 'psql');
  try { execFileSync('psql', ['--version'], { stdio: 'ignore' }); return 'psql'; } catch { return null; }
}
const psql = PG ? findPsql() : null;
let pgSeq = 0;
function freshPgDb() {
  if (!psql) return PG;
  const name = `gvbench_${process.pid}_${++pgSeq}`;
  try {
    execFileSync(psql, ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', PG, '-c', `CREATE DATABASE ${name}`],
      { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    process.stderr.write(`multi_bench: CREATE DATABASE failed (${e.stderr || e.message}); using ${PG}\n`);
    return PG;
  }
  const u = new URL(PG);
  u.pathname = `/${name}`;
  return u.toString();
}

// Concatenation of the probes' samples of several processes.
const mergeProbes = (ds) => Object.fromEntries(['probes', 'pongs', 'late'].map((k) => {
  const out = new Float64Array(ds.reduce((a, d) => a + d[k].length, 0));
  let at = 0;
  for (const d of ds) { out.set(d[k], at); at += d[k].length; }
  return [k, out];
}));

// One run of a configuration ('S' or 'P') with one binary; resolves to its figures.
async function run(cfg, bin, build) {
  const dir = tempDir('gv-multibench-');
  const servers = [];
  const watchers = [];
  let probes = [];
  let stderrLines = [];
  const load = la();
  try {
    const db = cfg === 'S' ? join(dir, 'bench.db') : freshPgDb();
    const nproc = cfg === 'S' ? 1 : 2;
    for (let i = 0; i < nproc; i++) {
      const s = await startServer(bin, db, ['--rate', '0']);
      s.proc.stderr.on('data', (d) => { stderrLines.push(...String(d).split('\n').filter(Boolean).map((l) => `[${cfg}${i}${build ? ' ' + build : ''}] ${l}`)); });
      servers.push(s);
    }
    probes = await Promise.all(servers.map((s) => startProbe(s.port, { probeGap: 50, pingGap: 100 })));
    const sendAt = new Map();          // `${id}:${n}` -> POST sent (ms)
    const via = new Map();             // `${id}:${n}` -> process index of the POST
    const seen = new Set();            // `${id}:${n}` live events arrived
    const latAll = [], latCross = [], latLocal = [], rtt = [];
    let unexpected = 0, catchUpLive = 0;
    const errors = new Map();          // 'GET 500 code' -> count
    const err = (k) => errors.set(k, (errors.get(k) || 0) + 1);
    let moves = 0, gamesCreated = 0, gamesEnded = 0, reGets = 0;

    // Creates a game on process home, its watcher on process wproc; resolves when watching.
    async function newGame(home, wproc) {
      const cr = await api(servers[home].url, 'POST', '/api/games', {
        game: 'chu', seats: [{ type: 'human', you: true }, { type: 'human', you: true }], clock: null,
      });
      if (cr.status !== 201) { err(`create ${cr.status} ${cr.json && cr.json.code}`); return null; }
      gamesCreated++;
      const id = cr.json.id;
      const tok = [];
      for (const t of cr.json.tokens) tok[t.seat] = t.token;
      const w = watcher(servers[wproc].url, id, 0);
      watchers.push(w);
      w.ws.on('message', (data) => {
        const t = now();
        let m;
        try { m = JSON.parse(data.toString()); } catch { return; }
        if (m.type === 'moves' && Array.isArray(m.moves)) { catchUpLive += m.moves.length; return; }
        if (m.type !== 'move' || !m.move) return;
        const k = `${m.id || id}:${m.move.n}`;
        const t0 = sendAt.get(k);
        if (t0 === undefined || seen.has(k)) { unexpected++; return; }
        seen.add(k);
        const l = t - t0;
        latAll.push(l);
        (via.get(k) === wproc ? latLocal : latCross).push(l);
      });
      w.ws.on('error', () => err('ws error'));
      await w.opened;
      await w.wait((m) => m.type === 'state', 15000);
      return { id, tok };
    }

    const games = [];
    for (let g = 0; g < G; g++) {
      const home = g % nproc;
      games.push(newGame(home, cfg === 'S' ? 0 : 1 - home));
    }
    const first = await Promise.all(games);
    if (first.some((x) => !x)) throw new Error('could not create the games');
    await sleep(300);

    const cpu0 = servers.map((s) => cpuMs(s.proc.pid));
    const ccpu0 = process.cpuUsage();
    const pg0 = pgCpu();
    const t0 = now();
    const deadline = t0 + T * 1000;

    async function loop(g, game) {
      const home = g % nproc;
      while (now() < deadline) {
        if (!game) {
          try { game = await newGame(home, cfg === 'S' ? 0 : 1 - home); } catch (e) { err(`create failed ${e.message}`); }
          if (!game) { await sleep(50); continue; }
        }
        const { id, tok } = game;
        let n = 0;
        let seat = 0;
        let over = false;
        while (!over && now() < deadline) {
          const p = n % nproc;        // move n + 1 (and its GET) through process p
          const base = servers[p].url;
          let v;
          try {
            let r = await api(base, 'GET', `/api/games/${id}?token=${tok[seat]}`);
            if (r.status === 200 && r.json.status === 'live' && !r.json.you.legal_moves.length &&
                r.json.to_move !== null && r.json.to_move !== seat) {
              reGets++;
              seat = r.json.to_move;
              r = await api(base, 'GET', `/api/games/${id}?token=${tok[seat]}`);
            }
            if (r.status !== 200) { err(`GET ${r.status} ${r.json && r.json.code}`); await sleep(10); continue; }
            v = r.json;
          } catch (e) { err(`GET failed ${e.message}`); await sleep(10); continue; }
          if (v.status !== 'live') { over = true; break; }
          if (n === -1) {
            n = v.n;                  // after a 409: take the view's number
          } else if (v.n < n) {       // a process that has not caught up: ask again
            err(`GET stale view (n ${v.n} < ${n})`);
            await sleep(2);
            continue;
          } else if (v.n > n) {
            err(`GET view ahead (n ${v.n} > ${n})`);
            n = v.n;
          }
          const lm = v.you.legal_moves;
          if (!lm.length) { err('GET no legal moves'); over = true; break; }
          const move = lm[Math.floor(Math.random() * lm.length)];
          const k = `${id}:${n + 1}`;
          via.set(k, p);
          const ts = now();
          sendAt.set(k, ts);
          let r;
          try {
            r = await api(base, 'POST', `/api/games/${id}/move`, { token: tok[seat], move, n: n + 1 });
          } catch (e) { err(`POST failed ${e.message}`); sendAt.delete(k); await sleep(10); continue; }
          rtt.push(now() - ts);
          if (r.status === 200) {
            moves++;
            n = r.json.n;
            seat = r.json.to_move ?? 1 - seat;
            if (r.json.status !== 'live') over = true;
          } else {
            sendAt.delete(k);
            err(`POST ${r.status} ${r.json && r.json.code}`);
            if (r.status === 409) n = -1;   // reload: the next GET says where we are
          }
        }
        if (over) gamesEnded++;
        game = null;
      }
    }
    await Promise.all(first.map((game, g) => loop(g, game)));
    const t1 = now();
    const elapsed = (t1 - t0) / 1000;
    const cpu1 = servers.map((s) => cpuMs(s.proc.pid));
    const ccpu = process.cpuUsage(ccpu0);
    const pgc = pgCpuDelta(pg0, pgCpu()) / 1000 / elapsed;
    const probeData = await Promise.all(probes.map((p) => p.stop()));
    probes = [];
    const stall = probeFigures(mergeProbes(probeData), t0, t1);
    const stallPer = probeData.map((d) => probeFigures(d, t0, t1).worst);
    await sleep(3000);                 // grace for the last events
    const missing = [...sendAt.keys()].filter((k) => !seen.has(k)).length;
    // a key removed on a failed POST never counted; every remaining key had a 200
    for (const s of [latAll, latCross, latLocal, rtt]) s.sort((a, b) => a - b);
    const errCount = [...errors.values()].reduce((a, b) => a + b, 0);
    return {
      cfg, build, load, elapsed, moves, mps: moves / elapsed,
      rtt50: pct(rtt, 50), rtt99: pct(rtt, 99),
      lat50: pct(latAll, 50), lat99: pct(latAll, 99), latN: latAll.length,
      cross50: pct(latCross, 50), cross99: pct(latCross, 99),
      local50: pct(latLocal, 50), local99: pct(latLocal, 99),
      errCount, errors: [...errors.entries()], out409: [...errors.entries()].filter(([k]) => k.startsWith('POST 409')).reduce((a, [, c]) => a + c, 0),
      missing, unexpected, catchUpLive, gamesCreated, gamesEnded, reGets,
      serverCpu: cpu1.map((c, i) => (c - cpu0[i]) / 1000 / elapsed),      // cores
      clientCpu: (ccpu.user + ccpu.system) / 1e6 / elapsed,
      pgCpu: pgc,
      stall50: stall.p50, stall99: stall.p99, stallWorst: stall.worst, stallN: stall.n, stallTimeouts: stall.timeouts, stallPer,
      ping99: stall.pingP99, pingWorst: stall.pingWorst, pingN: stall.pingN, lateWorst: stall.lateWorst,
      stderrLines,
    };
  } finally {
    for (const p of probes) { try { await p.stop(); } catch { /* ended */ } }
    for (const w of watchers) { try { w.ws.terminate(); } catch { /* gone */ } }
    for (const s of servers) await s.stop();
    removeDir(dir);
  }
}

const cfgName = (c) => (c === 'S' ? 'S 1 x SQLite' : 'P 2 x Postgres');
const rowName = (c, b) => `${cfgName(c)}${b ? ` ${b}` : ''}`;

function line(r) {
  const errs = r.errors.length ? r.errors.map(([k, c]) => `${k}: ${c}`).join(', ') : 'none';
  const lat = r.cfg === 'P'
    ? `watcher p50 ${f1(r.lat50)} p99 ${f1(r.lat99)} ms (cross ${f1(r.cross50)}/${f1(r.cross99)}, local ${f1(r.local50)}/${f1(r.local99)})`
    : `watcher p50 ${f1(r.lat50)} p99 ${f1(r.lat99)} ms`;
  const per = r.stallPer.length > 1 ? `, per process ${r.stallPer.map(f1).join('/')}` : '';
  return `  ${r.cfg}${r.build ? ` ${r.build}` : ''}: ${r.moves} moves in ${r.elapsed.toFixed(2)} s = ${f1(r.mps)} moves/s; POST p50 ${f1(r.rtt50)} p99 ${f1(r.rtt99)} ms; ${lat}\n` +
    `     loop stall: health p50 ${f1(r.stall50)} p99 ${f1(r.stall99)} worst ${f1(r.stallWorst)} ms (${r.stallN} probes${per}, ` +
    `no answer in 2 s ${r.stallTimeouts}); ping p99 ${f1(r.ping99)} worst ${f1(r.pingWorst)} ms (${r.pingN}); probing thread late by up to ${f1(r.lateWorst)} ms\n` +
    `     events ${r.latN} (missing ${r.missing}, unexpected ${r.unexpected}); games created ${r.gamesCreated}, ended ${r.gamesEnded}; ` +
    `server CPU ${r.serverCpu.map((c) => c.toFixed(2)).join(' + ')} cores, postgres ${r.pgCpu.toFixed(2)}, client ${r.clientCpu.toFixed(2)}; seat re-GETs ${r.reGets}; load at start ${r.load}\n` +
    `     errors: ${errs}; server stderr lines: ${r.stderrLines.length}`;
}

async function main() {
  console.log(`multi_bench: ${G} Chu games, ${T} s per run, ${RUNS} runs of each configuration${bins.length > 1 ? ' and binary' : ''}; ` +
    `${PG ? 'PostgreSQL ' + PG + (psql ? ' (a fresh database per P run)' : ' (shared)') : 'no GV_TEST_PG: S only'}`);
  bins.forEach((b, i) => console.log(`  ${builds[i] || 'binary'}: ${b}`));
  console.log(`  load average at start: ${la()}; ${readFileSync('/proc/cpuinfo', 'utf8').split('\n').filter((l) => l.startsWith('processor')).length} CPUs; node ${process.version}`);
  if (psql) {
    try {
      const out = execFileSync(psql, ['-X', '-A', '-t', '-d', PG, '-c',
        "SELECT string_agg(name || '=' || setting, ', ' ORDER BY name) FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method')"],
      { encoding: 'utf8' }).trim();
      console.log(`  PostgreSQL settings: ${out}`);
    } catch { /* not shown */ }
  }
  const cfgs = PG ? ['S', 'P'] : ['S'];
  const results = {};                  // `${cfg}${build}` -> runs
  for (const c of cfgs) for (const b of builds) results[c + b] = [];
  let failed = false;
  for (let i = 0; i < RUNS; i++) {
    for (const c of cfgs) {
      const order = i % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
      for (const k of order) {
        const b = builds[k];
        try {
          const r = await run(c, bins[k], b);
          r.round = i;
          results[c + b].push(r);
          console.log(`run ${i + 1}\n${line(r)}`);
          for (const l of r.stderrLines.slice(0, 10)) console.log(`     ${l}`);
          if (r.stderrLines.length > 10) console.log(`     ... ${r.stderrLines.length - 10} more`);
        } catch (e) {
          failed = true;
          console.log(`run ${i + 1} ${c}${b ? ` ${b}` : ''}: FAILED: ${e.stack}`);
        }
      }
    }
  }
  const m = (c, b, k) => median(results[c + b].map((r) => r[k]));
  const sum = (c, b, k) => results[c + b].reduce((a, r) => a + r[k], 0);
  const rows = [];
  for (const c of cfgs) for (const b of builds) if (results[c + b].length) rows.push([c, b]);
  const W = 20;
  console.log(`\nmedians over ${RUNS} runs (${G} games, ${T} s):`);
  console.log(`  ${'config'.padEnd(W)}moves/s  POST p50  POST p99  watch p50  watch p99  cross p50/p99   local p50/p99   errors(409)  missing`);
  for (const [c, b] of rows) {
    const crossLocal = c === 'P'
      ? `${f1(m(c, b, 'cross50'))}/${f1(m(c, b, 'cross99'))}`.padStart(13) + `${f1(m(c, b, 'local50'))}/${f1(m(c, b, 'local99'))}`.padStart(16)
      : '-'.padStart(13) + '-'.padStart(16);
    console.log(`  ${rowName(c, b).padEnd(W)}${f1(m(c, b, 'mps')).padStart(7)}${f1(m(c, b, 'rtt50')).padStart(10)}${f1(m(c, b, 'rtt99')).padStart(10)}` +
      `${f1(m(c, b, 'lat50')).padStart(11)}${f1(m(c, b, 'lat99')).padStart(11)}${crossLocal}` +
      `${`${sum(c, b, 'errCount')}(${sum(c, b, 'out409')})`.padStart(13)}${String(sum(c, b, 'missing')).padStart(9)}`);
  }
  console.log('  (latencies in ms; errors and missing events are totals over the runs)');
  console.log(`loop stall, medians over the runs of each run's figure (health: GET /api/health on a new connection every 50 ms,`);
  console.log('  every process; ping: WebSocket ping round trip every 100 ms; late: the probing threads\' own 50 ms sleeps):');
  console.log(`  ${'config'.padEnd(W)}health p50       p99     worst  ping p99     worst  late worst  no answer`);
  for (const [c, b] of rows) {
    console.log(`  ${rowName(c, b).padEnd(W)}${f1(m(c, b, 'stall50')).padStart(10)}${f1(m(c, b, 'stall99')).padStart(10)}${f1(m(c, b, 'stallWorst')).padStart(10)}` +
      `${f1(m(c, b, 'ping99')).padStart(10)}${f1(m(c, b, 'pingWorst')).padStart(10)}${f1(m(c, b, 'lateWorst')).padStart(12)}${String(sum(c, b, 'stallTimeouts')).padStart(11)}`);
  }
  console.log('  (ms; "no answer" is the number of health probes without a reply in 2 s, over the runs)');
  for (const b of builds) {
    if (results['S' + b]?.length && results['P' + b]?.length) {
      console.log(`ratio P/S of moves/s${b ? ` (${b})` : ''}: ${(m('P', b, 'mps') / m('S', b, 'mps')).toFixed(2)} (of the medians)`);
    }
  }
  if (builds.length === 2) {
    const keys = [['mps', 'moves/s'], ['rtt99', 'POST p99'], ['lat99', 'watch p99'], ['stall99', 'stall p99'], ['stallWorst', 'worst stall'], ['pingWorst', 'ping worst']];
    // the same figure's ratio new/old within each run (the two runs of a configuration are
    // next to each other in time), then the median over the runs
    const perRun = (c, k) => median(results[c + 'new'].map((rn) => {
      const ro = results[c + 'old'].find((x) => x.round === rn.round);
      return ro ? rn[k] / ro[k] : NaN;
    }));
    console.log('new/old (moves/s: above 1 is faster; the latencies: below 1 is shorter):');
    console.log(`  ${''.padEnd(W + 10)}${keys.map(([, n]) => n.padStart(12)).join('')}`);
    for (const c of cfgs) {
      if (!results[c + 'old'].length || !results[c + 'new'].length) continue;
      console.log(`  ${cfgName(c).padEnd(W)}${'medians'.padEnd(10)}${keys.map(([k]) => (m(c, 'new', k) / m(c, 'old', k)).toFixed(2).padStart(12)).join('')}`);
      console.log(`  ${''.padEnd(W)}${'per run'.padEnd(10)}${keys.map(([k]) => perRun(c, k).toFixed(2).padStart(12)).join('')}`);
    }
    console.log('  (medians: the ratio of the two medians; per run: the median over the runs of each run\'s ratio)');
  }
  process.exit(failed ? 1 : 0);
}

await main();
