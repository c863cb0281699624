// SIGTERM drains the server: every WebSocket gets a close frame with code 1012 ("service
// restart", so clients reconnect) instead of a dropped connection (1006), a request that
// comes meanwhile is refused with 503 shutting_down, the process exits 0 within the drain's
// bound, and the games are all there after a restart.
//
// Usage: node drain.mjs <gravulien>   (GV_SERVER_ON_PG=1 with GV_TEST_PG: on PostgreSQL)
import { join } from 'node:path';
import WebSocket from 'ws';
import { api, check, removeDir, runTest, startServer, tempDir, watcher } from './lib.mjs';

const bin = process.argv[2];
if (!bin) {
  console.log('usage: node drain.mjs <gravulien>');
  process.exit(2);
}
const dir = tempDir('gv-drain-');
const db = join(dir, 'games.db');
let S = null;

async function main() {
  S = await startServer(bin, db, ['--rate', '0']);
  const c = await api(S.url, 'POST', '/api/games', {
    game: 'exac', seats: [{ type: 'human', you: true }, { type: 'human', you: true }],
  });
  check(c.status === 201, `a game is created (${c.status})`);
  const id = c.json.id, tok = c.json.tokens.map((t) => t.token);
  const legal = (await api(S.url, 'GET', `/api/games/${id}?token=${tok[0]}`)).json.you.legal_moves;
  const m = await api(S.url, 'POST', `/api/games/${id}/move`, { token: tok[0], move: legal[0], n: 1 });
  check(m.status === 200, `a move is played (${m.status})`);

  const ws = [];
  for (let i = 0; i < 5; i++) {
    const w = watcher(S.url, i < 4 ? id : null, 0);
    await w.opened;
    if (i < 4) await w.wait((x) => x.type === 'state', 5000);
    ws.push(w);
  }
  const closes = ws.map((w) => new Promise((r) => w.ws.on('close', (code, why) => r({ code, why: String(why) }))));
  // A client that never answers the close frame (a raw socket after the handshake) keeps
  // the drain waiting no longer than its bound.
  const mute = new WebSocket(`${S.url.replace('http', 'ws')}/ws`);
  await new Promise((r) => mute.on('open', r));
  mute._socket.pause();

  const t0 = Date.now();
  S.proc.kill('SIGTERM');
  const got = await Promise.all(closes);
  check(got.every((g) => g.code === 1012), `every WebSocket is closed with 1012 (${got.map((g) => g.code).join(',')})`);
  check(got.every((g) => /restart/.test(g.why)), `the close frame says the server restarts ("${got[0].why}")`);
  const during = await api(S.url, 'GET', `/api/games/${id}`).catch(() => ({ status: 0 }));
  check(during.status === 503 || during.status === 0,
        `a request during the drain is refused, or finds the server gone (${during.status})`);
  if (during.status === 503) check(during.json && during.json.code === 'shutting_down', 'the refusal says shutting_down');
  const e = await S.exited;
  const took = Date.now() - t0;
  check(e.code === 0, `the server exits 0 (${e.code} ${e.sig})`);
  check(took < 7000, `within the drain's bound (${took} ms)`);
  mute.terminate();

  S = await startServer(bin, db, ['--rate', '0']);
  const v = (await api(S.url, 'GET', `/api/games/${id}`)).json;
  check(v && v.moves.length === 1, 'after a restart the game holds its move');
  await S.stop();
  S = null;
}

await runTest(main, async () => {
  if (S) await S.kill();
  removeDir(dir);
});
