// A long game read back: a Chu game of 600 moves (two Lions stepping out and back,
// repetition off) is played through the API and resigned; then, a few times, the server is
// restarted and the game read with GET /api/games/ID (the first read loads it from the
// store, replaying every move) and watched with since=0 (the catch-up of 600 moves and
// the state after it). Prints the medians and the catch-up's bytes.
// Usage: node bench/catchup.mjs <gravulien> [runs=7]. Needs the ws module of tests/server.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { default: WebSocket } = await import('../tests/server/node_modules/ws/wrapper.mjs');
const bin = process.argv[2];
const runs = Number(process.argv[3] || 7);
if (!bin) {
  console.log('usage: node bench/catchup.mjs <gravulien> [runs=7]');
  process.exit(2);
}

function start(db) {
  return new Promise((res, rej) => {
    const p = spawn(bin, ['serve', '--port', '0', '--db', db, '--rate', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[^:/\s]+:(\d+)\//);
      if (m) res({ url: `http://127.0.0.1:${m[1]}`, p });
    });
    p.on('exit', (c) => rej(new Error(`the server exited (${c}): ${out}`)));
  });
}
const stop = (s) => new Promise((r) => { s.p.removeAllListeners('exit'); s.p.on('exit', r); s.p.kill('SIGTERM'); });
const post = async (u, path, body) => (await fetch(u + path, { method: 'POST',
  headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];

const db = join(tmpdir(), `gv-catchup-${process.pid}.db`);
let s = await start(db);
const c = await post(s.url, '/api/games', { game: 'chu', options: { repetition: 'off' },
  seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
const T = c.tokens.map((t) => t.token);
const shuffle = [['7j7h', '7h7j'], ['6c6e', '6e6c']];
for (let i = 0; i < 600; i++) {
  const r = await post(s.url, `/api/games/${c.id}/move`, { token: T[i % 2], move: shuffle[i % 2][(i >> 1) % 2], n: i + 1 });
  if (r.n !== i + 1) throw new Error(`move ${i + 1}: ${JSON.stringify(r)}`);
}
await post(s.url, `/api/games/${c.id}/resign`, { token: T[0] });   // finished: loaded when asked for
const load = [], catchup = [];
let bytes = 0;
for (let k = 0; k < runs; k++) {
  await stop(s);
  s = await start(db);
  let t0 = performance.now();
  const v = await (await fetch(`${s.url}/api/games/${c.id}`)).json();
  load.push(performance.now() - t0);
  if (v.n !== 600) throw new Error(`the game has ${v.n} moves`);
  t0 = performance.now();
  bytes = 0;
  await new Promise((res) => {
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/ws?game=${c.id}&since=0`, { maxPayload: 64 << 20 });
    ws.on('message', (d) => {
      bytes += d.length;
      if (JSON.parse(d).type === 'state') { ws.close(); res(); }
    });
  });
  catchup.push(performance.now() - t0);
}
await stop(s);
for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
console.log(`600-move Chu game: first read (loaded from the store) median ${median(load).toFixed(1)} ms, ` +
  `catch-up since=0 median ${median(catchup).toFixed(1)} ms, ${bytes} bytes (${runs} runs)`);
