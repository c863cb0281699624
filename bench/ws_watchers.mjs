// WebSocket watcher benchmark: "10,000 WebSocket watchers on loopback, p50/p99 latency
// from a move to its arrival at every watcher, memory per connection".
//
// Usage: node bench/ws_watchers.mjs <gravulien> [watchers=10000] [moves=50] [threads=1]
// (bench/ws-bench.sh wraps it). Imports ws and the test helpers from tests/server/ by
// relative path (run `npm ci` in tests/server, as scripts/deps.sh does); no NODE_PATH.
//
// Starts 'gravulien serve --rate 0' on a temporary database and creates a two-human Chu
// game. Worker threads (threads, default 1) open the watchers in batches of 500 (each
// sends {"type":"watch"} and waits for its "state" message); the server's VmRSS before
// and after gives the memory per connection. The main thread then plays the moves one
// after another over HTTP, on its own event loop: each POST's send is timestamped, every
// watcher timestamps the arrival of that move's event (one monotonic clock for all
// threads), and the next move goes once every watcher has the last. Latency = arrival -
// send; it includes the commit (fsync) and the client's own time to read 10,000
// sockets, so it is an upper bound on the server's share. Exits 1 when a watcher failed
// to connect or missed a move.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const now = () => Number(process.hrtime.bigint()) / 1e6;   // ms, shared by all threads

if (!isMainThread) {
  // ---- a watcher thread ---------------------------------------------------------------
  const { default: WebSocket } = await import('../tests/server/node_modules/ws/wrapper.mjs');
  const { wsUrl, id, count, moves, batch } = workerData;
  const arrivals = new Float64Array(moves * count);   // [move * count + watcher]
  const got = new Int32Array(moves);
  const socks = [];
  let errors = 0, closedEarly = 0, unexpected = 0;
  const onMove = (w, s) => {
    const t = now();
    const n = Number((s.match(/"n":(\d+)/) || [])[1]);   // the event's n: the move's number
    const i = n - 1;
    if (!(i >= 0 && i < moves) || arrivals[i * count + w]) { unexpected++; return; }
    arrivals[i * count + w] = t;
    if (++got[i] === count) parentPort.postMessage({ type: 'all', i });
  };
  for (let b = 0; b < count; b += batch) {
    const k = Math.min(batch, count - b);
    await Promise.all(Array.from({ length: k }, (_, j) => new Promise((resolve) => {
      const w = b + j;
      const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
      socks.push(ws);
      let ready = false;
      ws.on('open', () => ws.send(`{"type":"watch","game":"${id}","since":0}`));
      ws.on('message', (data) => {
        const s = data.toString();
        if (ready) {
          if (s.startsWith('{"type":"move"')) onMove(w, s);
          return;
        }
        let m = null;
        try { m = JSON.parse(s); } catch { /* not JSON */ }
        if (m && m.type === 'state') { ready = true; resolve(); }
      });
      ws.on('error', () => { errors++; if (!ready) { ready = true; resolve(); } });
      ws.on('close', () => { if (!ready) { ready = true; resolve(); } else closedEarly++; });
    })));
  }
  const open = socks.filter((s) => s.readyState === WebSocket.OPEN).length;
  parentPort.postMessage({ type: 'ready', open, errors });
  parentPort.on('message', (m) => {
    if (m.type === 'finish') {
      parentPort.postMessage({ type: 'done', arrivals, closedEarly, unexpected, cpu: process.cpuUsage() });
      for (const s of socks) s.terminate();
      setTimeout(() => process.exit(0), 100);
    }
  });
} else {
  await main();
}

async function main() {
  const { api, removeDir, sleep, startServer, tempDir } = await import('../tests/server/lib.mjs');
  const [bin, nArg, movesArg, threadsArg] = process.argv.slice(2);
  if (!bin) {
    console.log('usage: node bench/ws_watchers.mjs <gravulien> [watchers=10000] [moves=50] [threads=1]');
    process.exit(2);
  }
  const N = Number(nArg || 10000);
  const MOVES = Number(movesArg || 50);
  const T = Math.max(1, Math.min(Number(threadsArg || 1), N));
  const BATCH = 500;

  const procStatus = (pid) => {
    const t = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number((t.match(new RegExp(`^${k}:\\s+(\\d+)`, 'm')) || [])[1] || 0);
    const st = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { rss: kb('VmRSS'), hwm: kb('VmHWM'), threads: kb('Threads'),
      cpuMs: (Number(st[11]) + Number(st[12])) * 10 };   // utime + stime, 100 ticks/s
  };
  const fdLimit = (pid) => {
    try { return readFileSync(`/proc/${pid}/limits`, 'utf8').match(/Max open files\s+(\d+)/)[1]; } catch { return '?'; }
  };
  const pct = (a, p) => (a.length ? a[Math.min(a.length - 1, Math.max(0, Math.ceil(p / 100 * a.length) - 1))] : NaN);
  const ms = (x) => `${x.toFixed(1)} ms`;
  const mib = (kb) => `${(kb / 1024).toFixed(1)} MiB`;

  const dir = tempDir('gv-wsbench-');
  let srv = null;
  const workers = [];
  let failed = true;
  try {
    srv = await startServer(bin, join(dir, 'bench.db'), ['--rate', '0']);
    const pid = srv.proc.pid;
    const cr = await api(srv.url, 'POST', '/api/games', {
      game: 'chu', seats: [{ type: 'human', you: true }, { type: 'human', you: true }], clock: null,
    });
    if (cr.status !== 201) throw new Error(`create: ${cr.status} ${cr.text}`);
    const id = cr.json.id;
    const tokens = cr.json.tokens.map((t) => t.token);
    await sleep(200);
    const before = procStatus(pid);

    // Connect.
    const tc = now();
    const waiting = new Map();               // move -> threads that have it for all
    let onAll = null;
    const results = [];
    const readies = [];
    for (let k = 0; k < T; k++) {
      const count = Math.floor(N / T) + (k < N % T ? 1 : 0);
      const w = new Worker(fileURLToPath(import.meta.url), {
        workerData: { wsUrl: srv.url.replace('http', 'ws') + '/ws', id, count, moves: MOVES, batch: Math.ceil(BATCH / T) },
      });
      workers.push(w);
      readies.push(new Promise((resolve, reject) => {
        w.on('error', reject);
        w.on('message', (m) => {
          if (m.type === 'ready') resolve(m);
          else if (m.type === 'all') {
            waiting.set(m.i, (waiting.get(m.i) || 0) + 1);
            if (onAll) onAll();
          } else if (m.type === 'done') results[k] = { ...m, count };
        });
      }));
    }
    const ready = await Promise.all(readies);
    const connectS = (now() - tc) / 1000;
    const open = ready.reduce((s, r) => s + r.open, 0);
    const connErrors = ready.reduce((s, r) => s + r.errors, 0);
    process.stderr.write(`ws_watchers: ${open} watchers connected in ${connectS.toFixed(1)} s; playing ${MOVES} moves\n`);
    await sleep(1000);
    const after = procStatus(pid);
    const perConn = (after.rss - before.rss) * 1024 / Math.max(1, open);

    // Moves, one after another.
    const sendAt = [], rtt = [];
    let made = 0, timedOut = 0;
    const c0 = process.cpuUsage();
    for (let i = 0; i < MOVES; i++) {
      let view = null;
      for (const t of tokens) {
        const r = await api(srv.url, 'GET', `/api/games/${id}?token=${t}`);
        if (r.json.status !== 'live') break;
        if (r.json.you.legal_moves.length) { view = r.json; view.token = t; break; }
      }
      if (!view) break;                      // the game is over
      const lm = view.you.legal_moves;
      const move = lm[Math.floor(Math.random() * lm.length)];
      const all = new Promise((resolve) => {
        onAll = () => { if ((waiting.get(i) || 0) === T) resolve('ok'); };
        onAll();
        setTimeout(() => resolve('timeout'), 30000);
      });
      const t0 = now();
      sendAt[i] = t0;
      const r = await api(srv.url, 'POST', `/api/games/${id}/move`, { token: view.token, move, n: i + 1 });
      rtt.push(now() - t0);
      if (r.status !== 200) throw new Error(`move ${i + 1} '${move}': ${r.status} ${r.text}`);
      made++;
      if ((await all) === 'timeout') timedOut++;
      onAll = null;
    }
    const end = procStatus(pid);
    const mainCpu = process.cpuUsage(c0);
    const done = new Promise((resolve) => {
      const tick = setInterval(() => { if (results.filter(Boolean).length === T) { clearInterval(tick); resolve(); } }, 20);
    });
    for (const w of workers) w.postMessage({ type: 'finish' });
    await done;

    // Report.
    const lat = [], spread = [];
    let missing = 0, closedEarly = 0, unexpected = 0, clientCpuMs = (mainCpu.user + mainCpu.system) / 1000;
    for (let i = 0; i < made; i++) {
      let first = Infinity, last = 0;
      for (const res of results) {
        for (let w = 0; w < res.count; w++) {
          const a = res.arrivals[i * res.count + w];
          if (!a) { missing++; continue; }
          lat.push(a - sendAt[i]);
          if (a < first) first = a;
          if (a > last) last = a;
        }
      }
      if (last) spread.push(last - first);
    }
    for (const res of results) {
      closedEarly += res.closedEarly;
      unexpected += res.unexpected;
    }
    lat.sort((a, b) => a - b);
    rtt.sort((a, b) => a - b);
    spread.sort((a, b) => a - b);
    const deliveries = made * N;
    const serverCpu = (end.cpuMs - after.cpuMs) / Math.max(1, made);
    console.log(`ws_watchers: ${N} watchers of one Chu game on loopback, ${made} moves; ${T} client thread(s); server pid ${pid}, fd limit ${fdLimit(pid)}, ${after.threads} server threads`);
    console.log(`  connect:  ${open}/${N} watching after ${connectS.toFixed(2)} s (${connErrors} errors)`);
    console.log(`  memory:   server VmRSS ${mib(before.rss)} before, ${mib(after.rss)} with the watchers, ${mib(end.rss)} after the moves (peak ${mib(end.hwm)})`);
    console.log(`            = ${(perConn / 1024).toFixed(2)} KiB per connection`);
    console.log(`  delivery: ${deliveries - missing}/${deliveries} move events arrived (${missing} missing, ${unexpected} unexpected, ${closedEarly} closed early, ${timedOut} moves timed out)`);
    console.log(`  latency, POST sent -> event at a watcher (${lat.length} arrivals):`);
    console.log(`            p50 ${ms(pct(lat, 50))}  p90 ${ms(pct(lat, 90))}  p99 ${ms(pct(lat, 99))}  max ${ms(lat[lat.length - 1] ?? NaN)}`);
    console.log(`  first -> last watcher of one move: p50 ${ms(pct(spread, 50))}  max ${ms(spread[spread.length - 1] ?? NaN)}`);
    console.log(`  HTTP move round trip: p50 ${ms(pct(rtt, 50))}  p99 ${ms(pct(rtt, 99))}  max ${ms(rtt[rtt.length - 1] ?? NaN)}`);
    console.log(`  server CPU per move (commit + ${N} sends): ${serverCpu.toFixed(1)} ms; client process CPU per move ${(clientCpuMs / Math.max(1, made)).toFixed(1)} ms`);
    failed = open !== N || missing > 0 || made === 0;
    if (failed) console.log('ws_watchers: FAILED (not every watcher connected or got every move)');
  } catch (e) {
    console.log(`ws_watchers: FAILED: ${e.stack}`);
  } finally {
    for (const w of workers) w.terminate();
    if (srv) await srv.stop();
    removeDir(dir);
  }
  process.exit(failed ? 1 : 0);
}
