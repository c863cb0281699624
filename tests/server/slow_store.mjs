// A store that waits stalls no one but those who wait for it.
//
// The server's games and their store live on a thread of their own; the event loop only
// reads requests and writes replies. Here another process holds the database locked
// (SQLite: `BEGIN EXCLUSIVE` in its shell; PostgreSQL: `LOCK TABLE moves` in psql) while a
// move is posted, so the move's commit waits for the lock. Meanwhile:
//  - the move is not acknowledged (nothing is told before it is stored);
//  - GET /api/health, the page (GET /) and a WebSocket ping frame to a watcher are answered,
//    probed every 50 ms for the whole time the lock is held: every probe within 1 s and
//    all but one in 20 within STALL_MS (a loaded machine delays one now and then; a loop
//    waiting for the store delays them all);
//  - once the lock goes, the move is acknowledged (200) and the watcher gets it.
// With the store written on the loop thread, every probe waited for the lock.
//
// Usage: node slow_store.mjs <gravulien>   (GV_SERVER_ON_PG=1 with GV_TEST_PG: on
// PostgreSQL). SLOW_STORE_STALL_MS=N replaces the 100 ms a probe may take.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { api, check, removeDir, runTest, sleep, startServer, tempDir, watcher } from './lib.mjs';

const bin = process.argv[2];
if (!bin) {
  console.log('usage: node slow_store.mjs <gravulien>');
  process.exit(2);
}
const STALL_MS = Number(process.env.SLOW_STORE_STALL_MS || 100);
const LOCK_MS = 1500;
const onPg = process.env.GV_SERVER_ON_PG === '1' && !!process.env.GV_TEST_PG;
const dir = tempDir('gv-slow-');
const db = join(dir, 'games.db');
let S = null;

// Holds the database locked until release() is called; resolves once the lock is taken.
function lockStore() {
  const proc = onPg
    ? spawn('psql', ['-X', '-q', '-A', '-t', process.env.GV_TEST_PG], { stdio: ['pipe', 'pipe', 'inherit'] })
    : spawn('sqlite3', [db], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const taken = new Promise((resolve, reject) => {
    proc.stdout.on('data', (d) => {
      out += d;
      if (out.includes('locked')) resolve();
    });
    proc.on('error', reject);
    proc.on('exit', (code) => reject(new Error(`the locking shell exited (${code})`)));
  });
  proc.stdin.write(onPg ? 'BEGIN; LOCK TABLE moves IN EXCLUSIVE MODE; SELECT \'locked\';\n'
                        : 'BEGIN EXCLUSIVE; SELECT \'locked\';\n');
  const exited = new Promise((r) => proc.on('exit', r));
  return {
    taken,
    release: async () => {
      proc.stdin.write('COMMIT;\n');
      proc.stdin.end();
      await exited;
    },
  };
}

async function timed(fn) {
  const t = Date.now();
  const ok = await fn().catch(() => false);
  return { ok, ms: Date.now() - t };
}

async function main() {
  S = await startServer(bin, db, ['--rate', '0']);
  const c = await api(S.url, 'POST', '/api/games', {
    game: 'chu', seats: [{ type: 'human', you: true }, { type: 'human', you: true }],
  });
  check(c.status === 201, `a game is created (${c.status})`);
  const id = c.json.id, tok = c.json.tokens.map((t) => t.token);
  const w = watcher(S.url, id, 0);
  await w.opened;
  await w.wait((m) => m.type === 'state', 5000);
  const legal = (await api(S.url, 'GET', `/api/games/${id}?token=${tok[0]}`)).json.you.legal_moves;
  const move = legal[0];

  const lock = lockStore();
  await lock.taken;
  let acked = null;
  const posted = api(S.url, 'POST', `/api/games/${id}/move`, { token: tok[0], move, n: 1 })
    .then((r) => { acked = { status: r.status, at: Date.now() }; return r; });
  const lockedAt = Date.now();
  const probes = [];
  while (Date.now() - lockedAt < LOCK_MS) {
    probes.push(await timed(async () => (await api(S.url, 'GET', '/api/health')).status === 200));
    probes.push(await timed(async () => (await api(S.url, 'GET', '/')).status === 200));
    probes.push(await timed(() => new Promise((resolve) => {
      w.ws.once('pong', () => resolve(true));
      w.ws.ping();
    })));
    await sleep(50);
  }
  check(acked === null, `the move is not acknowledged while the store is locked (${JSON.stringify(acked)})`);
  const worst = Math.max(...probes.map((p) => p.ms));
  const slow = probes.filter((p) => p.ms > STALL_MS).length;
  check(probes.every((p) => p.ok), `every probe is answered while the store is locked (${probes.filter((p) => !p.ok).length} failed)`);
  check(worst <= 1000 && slow * 20 <= probes.length,
        `health, the page and a ping answer within ${STALL_MS} ms while the store waits (${probes.length} probes, ${slow} slower, worst ${worst} ms)`);
  const releasedAt = Date.now();
  await lock.release();
  const r = await posted;
  check(r.status === 200, `once the lock is gone the move is acknowledged (${r.status} ${r.text.slice(0, 120)})`);
  check(acked && acked.at >= releasedAt, 'the acknowledgement came after the lock was released');
  const ev = await w.wait((m) => m.type === 'move' && m.move && m.move.n === 1, 5000).catch(() => null);
  check(ev !== null, 'the watcher gets the move');
  const v = (await api(S.url, 'GET', `/api/games/${id}`)).json;
  check(v.moves.length === 1 && v.moves[0].move === move, `the game holds the move (${v.moves.length})`);
  w.close();
}

await runTest(main, async () => {
  if (S) await S.stop();
  removeDir(dir);
});
