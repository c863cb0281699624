// Clocks across a kill -9: the side to move is charged the time it thought while a server
// ran, and nothing for the time no server ran.
//
// Usage: node clock_restart.mjs <gravulien>   (with GV_SERVER_ON_PG=1 and GV_TEST_PG from
// tests/pgtmp.sh: on PostgreSQL, plus the case of two processes)
//
// 1. One server, two 60 s games with both seats joined: in A the first side moves at once
//    and the second thinks; in B the first side thinks from the start. After THINK_MS the
//    server is killed with SIGKILL, stays down DOWN_MS, and starts again on the same
//    database. The thinking sides' clocks then show 60 s less what they thought, within
//    the heartbeat's period (the server records about once a second that it is alive):
//    about 57 s, not 60 s (the thinking refunded) and not 54 s (the downtime charged).
//    The other side's clock is untouched, and the next move is charged from there.
// 2. PostgreSQL only: two processes P and Q share the database and both hold game C.
//    P is killed and restarted while Q runs on: the game was never down, so the side to
//    move is charged the whole time, THINK_MS + DOWN_MS.
import { join } from 'node:path';
import { api, check, removeDir, sleep, startServer, summary, tempDir } from './lib.mjs';

const bin = process.argv[2];
if (!bin) {
  console.log('usage: node clock_restart.mjs <gravulien>');
  process.exit(2);
}
const THINK_MS = 3000;
const DOWN_MS = 3000;
const BEAT_MS = 1000;           // the server's heartbeat period (hub.c, HUB_BEAT_MS)
const SLACK_MS = 400;           // requests, restart, the event loop's 50 ms tick
const INITIAL_MS = 60000;
const onPg = process.env.GV_SERVER_ON_PG === '1' && !!process.env.GV_TEST_PG;
const ARGS = ['--rate', '0'];

const dir = tempDir('gv-clock-');
const db = join(dir, 'games.db');
const servers = new Set();

async function start() {
  const s = await startServer(bin, db, ARGS);
  servers.add(s);
  return s;
}

async function kill(s) {
  await s.kill();
  servers.delete(s);
}

async function newGame(base, tag) {
  const r = await api(base, 'POST', '/api/games', {
    game: 'chu', seats: [{ type: 'human', you: true }, { type: 'human', you: true }],
    clock: { initial: INITIAL_MS / 1000, increment: 0 },
  });
  check(r.status === 201 && r.json.status === 'live', `${tag}: created live (${r.status} ${r.text.slice(0, 200)})`);
  return { id: r.json.id, tok: r.json.tokens.map((t) => t.token) };
}

async function view(base, id) {
  const r = await api(base, 'GET', `/api/games/${id}`);
  check(r.status === 200, `GET ${id}: ${r.status}`);
  return r.json;
}

// Plays the first legal move of seat; resolves to the reply's view.
async function move(base, g, seat, n) {
  const v = await api(base, 'GET', `/api/games/${g.id}?token=${g.tok[seat]}`);
  const mv = v.json.you.legal_moves[0];
  const r = await api(base, 'POST', `/api/games/${g.id}/move`, { token: g.tok[seat], move: mv, n });
  check(r.status === 200 && r.json.n === n, `move ${n} of ${g.id} by seat ${seat}: ${r.status} ${r.text.slice(0, 200)}`);
  return r.json;
}

function within(what, got, lo, hi) {
  return check(got >= lo && got <= hi, `${what}: ${got} ms, expected ${lo}..${hi}`);
}

async function oneServer() {
  let s = await start();
  const a = await newGame(s.url, 'A');
  const b = await newGame(s.url, 'B');
  const moved = await move(s.url, a, 0, 1);
  const a0 = moved.moves[0].clocks[0];
  const turnStart = Date.now();            // A: seat 1 thinks from here; B: seat 0 a little before
  await sleep(THINK_MS);
  const killedAt = Date.now();
  await kill(s);
  await sleep(DOWN_MS);
  const restartAt = Date.now();
  s = await start();
  const va = await view(s.url, a.id);
  const vb = await view(s.url, b.id);
  const readAt = Date.now();
  const thought = killedAt - turnStart;    // what the thinking side used while a server ran
  const since = readAt - restartAt;        // and since the restart began
  // Charged: from the turn's start to the last heartbeat (at most one period before the
  // kill), then from the restart on.
  const hi = INITIAL_MS - thought + BEAT_MS + SLACK_MS;
  const lo = INITIAL_MS - thought - since - SLACK_MS;
  console.log(`thought ${thought} ms, down ${restartAt - killedAt} ms, read ${since} ms after the restart: ` +
    `A seat 1 ${va.seats[1].clock_ms} ms, B seat 0 ${vb.seats[0].clock_ms} ms`);
  within('A: the side to move after a restart', va.seats[1].clock_ms, lo, hi);
  within('B: the side to move since the game went live, after a restart', vb.seats[0].clock_ms, lo, hi);
  check(va.seats[1].clock_ms < INITIAL_MS - THINK_MS + BEAT_MS + SLACK_MS,
    `A: the thinking before the kill is not refunded (${va.seats[1].clock_ms} ms)`);
  check(va.seats[1].clock_ms > INITIAL_MS - THINK_MS - DOWN_MS + SLACK_MS,
    `A: the downtime is not charged (${va.seats[1].clock_ms} ms)`);
  check(va.seats[0].clock_ms === a0, `A: the other side's clock is as after its move (${va.seats[0].clock_ms}, ${a0})`);
  // The game goes on from that clock.
  const next = await move(s.url, a, 1, 2);
  within('A: the clock after the next move', next.moves[1].clocks[1], lo - 2 * SLACK_MS, va.seats[1].clock_ms);
  return s;
}

// PostgreSQL: Q alive throughout, so P's restart charges the whole time.
async function twoServers(p) {
  const q = await start();
  const c = await newGame(p.url, 'C');
  await move(p.url, c, 0, 1);
  const turnStart = Date.now();
  await view(q.url, c.id);                 // Q holds C (and writes heartbeats for it)
  await sleep(THINK_MS);
  await kill(p);
  await sleep(DOWN_MS);
  p = await start();
  const viaP = await view(p.url, c.id);
  const viaQ = await view(q.url, c.id);
  const elapsed = Date.now() - turnStart;
  console.log(`two processes: ${elapsed} ms since the turn began; via P ${viaP.seats[1].clock_ms} ms, via Q ${viaQ.seats[1].clock_ms} ms`);
  within('C via the restarted process: the whole time is charged (another process ran)',
    viaP.seats[1].clock_ms, INITIAL_MS - elapsed - SLACK_MS, INITIAL_MS - elapsed + BEAT_MS + SLACK_MS);
  within('C via the process that ran on', viaQ.seats[1].clock_ms,
    INITIAL_MS - elapsed - SLACK_MS, INITIAL_MS - elapsed + SLACK_MS);
}

let code = 1;
try {
  const s = await oneServer();
  if (onPg) await twoServers(s);
  else console.log('two processes: PostgreSQL only (GV_SERVER_ON_PG=1 through tests/pgtmp.sh)');
} catch (e) {
  check(false, `unexpected: ${e.stack}`);
} finally {
  for (const s of servers) await s.kill();
  removeDir(dir);
  code = summary();
}
process.exit(code);
