// Watchers of long games and many watchers, over loopback against 'gravulien serve':
//   - a watch with since=0 of a long game (600 actions by default; `node watch.mjs BIN
//     3000` for a longer one) is caught up in "moves" batches (at most 250 moves each),
//     then the state, and the connection stays open and gets the next move live (a
//     catch-up is the server's own reply: it does not count against the watcher's queue);
//     watching again on the same connection catches up again;
//   - watchers come and go (unwatch, close, watch another game): every move reaches each
//     watcher of the game exactly once, and none that left;
//   - a move event carries the game's public view fields (Grav's board and phase), the
//     same as GET /api/games/ID, and GET /api/games/ID/you is a seat's part alone;
//   - a watcher that stops reading for a while, then reads, gets every event whole.
// Options after the number of actions go to the server: `--io-uring off` runs the same
// against a server that sends each event by send() (ctest server_watch_send).
// The game is Grav on 23x23 with rules that refuse little, so that it lasts: each stone
// is a placement and one answer per other player.
import WebSocket from 'ws';
import net from 'node:net';
import { join } from 'node:path';
import {
  api, check, removeDir, sleep, startServer, summary, tempDir, watcher, wsFrames,
} from './lib.mjs';

const bin = process.argv[2];
if (!bin) {
  console.log('usage: node watch.mjs <gravulien> [actions=600] [serve options...]');
  process.exit(2);
}
const ACTIONS = Number(process.argv[3] || 600);
const serveArgs = process.argv.slice(4);
const t0 = Date.now();

async function you(base, id, token) {
  const r = await api(base, 'GET', `/api/games/${id}/you?token=${token}`);
  if (r.status !== 200) throw new Error(`GET you: ${r.status} ${r.text}`);
  return r.json;
}

// One action of whoever is to act: an answer accepts, else a placement (never a pass or
// a resignation while something else is legal).
async function act(base, id, tokens, n) {
  for (const t of tokens) {
    const y = await you(base, id, t);
    const lm = y.you.legal_moves;
    if (!lm.some((m) => !/ resign$/.test(m))) continue;   // any seat may resign at any time
    const pick = lm.find((m) => / accept$/.test(m)) ||
      lm.filter((m) => / place /.test(m))[(n * 7919) % Math.max(1, lm.filter((m) => / place /.test(m)).length)] ||
      lm.find((m) => !/ (pass|resign)/.test(m)) || lm[0];
    const r = await api(base, 'POST', `/api/games/${id}/move`, { token: t, move: pick, n });
    if (r.status !== 200) throw new Error(`move ${n} '${pick}': ${r.status} ${r.text}`);
    return r.json;
  }
  throw new Error(`nobody can act at move ${n}`);
}

function gravGame(base, players) {
  const seats = Array.from({ length: players }, () => ({ type: 'human', you: true }));
  return api(base, 'POST', '/api/games', {
    game: 'grav', seats, clock: null,
    options: { size: '23', players: String(players), a: '1000', b: '2', c: '4', d: '1', e: '44' },
  });
}

// gravulien_broadcast_io_uring of /metrics: '1' (io_uring), '0' (send()).
async function uringGauge(base) {
  const text = await fetch(`${base}/metrics`).then((r) => r.text());
  return (text.match(/^gravulien_broadcast_io_uring (\d)/m) || [])[1];
}

// Messages of a raw connection, with its close code.
function rawWatch(url) {
  const ws = new WebSocket(url);
  const msgs = [];
  const st = { ws, msgs, code: null };
  ws.on('message', (d) => msgs.push(JSON.parse(d.toString())));
  ws.on('close', (code) => { st.code = code; });
  st.opened = new Promise((resolve, reject) => { ws.on('open', resolve); ws.on('error', reject); });
  return st;
}

async function waitFor(pred, ms = 10000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (pred()) return true;
    await sleep(10);
  }
  return pred();
}

// The catch-up messages before the state: batches of moves 1..n in order.
function checkCatchUp(msgs, id, n, since, what) {
  const si = msgs.findIndex((m) => m.type === 'state');
  const before = si < 0 ? msgs : msgs.slice(0, si);
  const batches = before.filter((m) => m.type === 'moves');
  const ns = batches.flatMap((b) => b.moves.map((m) => m.n));
  const want = Array.from({ length: Math.max(0, n - since) }, (_, i) => since + 1 + i);
  check(si >= 0 && msgs[si].n === n && msgs[si].moves.length === n, `${what}: the state (n ${n}) comes after the catch-up`);
  check(batches.length === before.length && batches.every((b) => b.id === id && b.catch_up === true && b.moves.length >= 1 && b.moves.length <= 250),
        `${what}: the catch-up is ${batches.length} "moves" messages of 1..250 moves (${batches.map((b) => b.moves.length).join(',')})`);
  check(ns.join() === want.join(), `${what}: they hold exactly moves ${since + 1}..${n} in order`);
  if (si >= 0) {
    const byN = new Map(msgs[si].moves.map((m) => [m.n, m]));
    check(batches.every((b) => b.moves.every((m) => JSON.stringify(m) === JSON.stringify(byN.get(m.n)))),
          `${what}: each caught-up move is the state's move`);
  }
}

async function main() {
  const dir = tempDir('gv-watch-');
  let srv = null;
  const open = [];
  try {
    srv = await startServer(bin, join(dir, 'w.db'), ['--rate', '0', ...serveArgs]);
    const base = srv.url, wsBase = base.replace('http', 'ws');
    const uringAtStart = await uringGauge(base);

    // 1. A long game.
    const players = ACTIONS > 1000 ? 6 : 2;
    const cr = await gravGame(base, players);
    check(cr.status === 201, `create a ${players}-player Grav game (${cr.status})`);
    const id = cr.json.id;
    const tokens = cr.json.tokens.map((t) => t.token);
    let v = null;
    for (let n = 1; n <= ACTIONS; n++) v = await act(base, id, tokens, n);
    check(v.n === ACTIONS && v.status === 'live', `${ACTIONS} actions played, the game still live (${v.n}, ${v.status}, ${((Date.now() - t0) / 1000).toFixed(1)} s)`);

    // 2. Watch it from the start: batches, then the state; the connection stays.
    const a = rawWatch(`${wsBase}/ws?game=${id}&since=0`);
    open.push(a);
    await a.opened;
    await waitFor(() => a.msgs.some((m) => m.type === 'state') || a.code !== null);
    checkCatchUp(a.msgs, id, ACTIONS, 0, `since=0 of ${ACTIONS}`);
    await sleep(300);
    check(a.code === null, `a watcher caught up on ${ACTIONS} moves is not closed (close code ${a.code})`);
    const b = rawWatch(`${wsBase}/ws`);
    open.push(b);
    await b.opened;
    b.ws.send(JSON.stringify({ type: 'watch', game: id, since: ACTIONS - 300 }));
    b.ws.send(JSON.stringify({ type: 'watch', game: id, since: 0 }));
    await waitFor(() => b.msgs.filter((m) => m.type === 'state').length === 2 || b.code !== null);
    const s1 = b.msgs.findIndex((m) => m.type === 'state');
    checkCatchUp(b.msgs.slice(0, s1 + 1), id, ACTIONS, ACTIONS - 300, 'watch since=n-300');
    checkCatchUp(b.msgs.slice(s1 + 1), id, ACTIONS, 0, 'watch again since=0 on the same connection');

    // 3. The next move arrives live, once, with the view's fields.
    const nA = a.msgs.length, nB = b.msgs.length;
    v = await act(base, id, tokens, ACTIONS + 1);
    await waitFor(() => a.msgs.length > nA && b.msgs.length > nB);
    await sleep(200);
    const evA = a.msgs.slice(nA), evB = b.msgs.slice(nB);
    check(evA.length === 1 && evA[0].type === 'move' && evA[0].move.n === ACTIONS + 1 && !evA[0].catch_up,
          `after the catch-up the next move arrives live (${evA.map((m) => m.type).join(',')})`);
    check(evB.length === 1 && evB[0].type === 'move', `a watcher that watched twice gets the move once (${evB.length})`);
    const pub = (await api(base, 'GET', `/api/games/${id}`)).json;
    const ev = evA[0] || {};
    for (const k of ['status', 'n', 'to_move', 'position', 'result', 'draw_offers', 'grav']) {
      check(JSON.stringify(ev[k]) === JSON.stringify(pub[k]), `the move event's ${k} is the view's`);
    }
    check(JSON.stringify(ev.move) === JSON.stringify(pub.moves[pub.moves.length - 1]), 'the move event\'s move is the view\'s last');
    const y = await you(base, id, tokens[v.to_move]);
    const full = (await api(base, 'GET', `/api/games/${id}?token=${tokens[v.to_move]}`)).json;
    check(y.n === full.n && JSON.stringify(y.you) === JSON.stringify(full.you) && !('moves' in y),
          'GET .../you is the view\'s "you" alone');
    check((await api(base, 'GET', `/api/games/${id}/you`)).status === 403 &&
          (await api(base, 'GET', `/api/games/${id}/you?token=${'0'.repeat(32)}`)).status === 403,
          'GET .../you without a seat\'s token: 403');

    // 4. Watchers come and go; each move reaches exactly those watching, once.
    const other = (await gravGame(base, 2)).json;
    const K = 120;
    const ws = [];
    for (let i = 0; i < K; i++) ws.push(watcher(base, id, ACTIONS + 1));
    await Promise.all(ws.map((w) => w.opened));
    await Promise.all(ws.map((w) => w.wait((m) => m.type === 'state')));
    const gone = new Set();
    for (let i = 0; i < K; i++) {
      if (i % 4 === 1) { ws[i].send({ type: 'unwatch' }); gone.add(i); }
      if (i % 4 === 2) { ws[i].close(); gone.add(i); }
      if (i % 8 === 3) { ws[i].send({ type: 'watch', game: other.id, since: 0 }); gone.add(i); }
    }
    await sleep(300);
    const mark = ws.map((w) => w.msgs.length);
    for (let k = 2; k <= 4; k++) await act(base, id, tokens, ACTIONS + k);
    const stay = ws.filter((_, i) => !gone.has(i));
    await waitFor(() => stay.every((w) => w.msgs.filter((m) => m.type === 'move').length >= 3));
    await sleep(200);
    const got = ws.map((w, i) => w.msgs.slice(mark[i]).filter((m) => m.type === 'move' && m.id === id).map((m) => m.move.n).join());
    const want = [ACTIONS + 2, ACTIONS + 3, ACTIONS + 4].join();
    check(got.every((g, i) => (gone.has(i) ? g === '' : g === want)),
          `${stay.length} watchers that stayed got moves ${want} once each, the ${gone.size} that left none`);
    for (const w of ws) w.ws.terminate();

    // 5. A watcher that stops reading while 60 moves are made, then reads: the events the
    // server sent straight to its socket, and those it kept for it, come whole and in order.
    {
      const url = new URL(base);
      const sock = net.connect(Number(url.port), url.hostname);
      await new Promise((res, rej) => { sock.once('connect', res); sock.once('error', rej); });
      let buf = Buffer.alloc(0);
      sock.on('data', (d) => { buf = Buffer.concat([buf, d]); });
      sock.write(`GET /ws?game=${id}&since=${ACTIONS + 4} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n` +
        'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
      await waitFor(() => buf.includes('"type":"state"'));
      sock.pause();
      for (let k = 5; k <= 64; k++) await act(base, id, tokens, ACTIONS + k);
      sock.resume();
      await waitFor(() => buf.includes(`"n":${ACTIONS + 64},`), 10000);
      await sleep(200);
      const body = buf.subarray(buf.indexOf('\r\n\r\n') + 4);
      const frames = wsFrames(body);
      // Every byte in whole frames, each a final, unmasked text frame.
      const ok = frames.reduce((k, f) => k + f.size, 0) === body.length && frames.every((f) => f.fin && f.op === 1 && !f.masked);
      const ns = frames.map((f) => JSON.parse(f.data.toString())).filter((m) => m.type === 'move').map((m) => m.move.n);
      const want = Array.from({ length: 60 }, (_, k) => ACTIONS + 5 + k).join();
      check(ok && ns.join() === want, `a watcher that stopped reading for 60 moves then gets them all, whole and in order (${ok ? ns.length : 'a malformed frame'})`);
      sock.destroy();
    }

    const health = await api(base, 'GET', '/api/health');
    check(health.status === 200, 'the server still answers');
    // How the events went out: io_uring where the system allows it (and the ring was not
    // given up on the way), send() when told.
    const uring = await uringGauge(base);
    if (serveArgs.join(' ').includes('--io-uring off')) check(uring === '0', `--io-uring off: the events went by send() (gravulien_broadcast_io_uring ${uring})`);
    else check((uring === '0' || uring === '1') && uring === uringAtStart, `the events went by ${uring === '1' ? 'io_uring' : 'send() (io_uring not available here)'} from start to end (${uringAtStart} then ${uring})`);
  } finally {
    for (const o of open) { try { o.ws.terminate(); } catch { /* closed */ } }
    if (srv) await srv.stop();
    removeDir(dir);
  }
  console.log(`run time ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(summary());
}

main().catch((e) => { console.log(`FAIL ${e.stack}`); process.exit(1); });
