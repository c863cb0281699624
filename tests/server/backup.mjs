// Backups as docs/deploy.md tells an operator to take them, restored and served:
//  - SQLite: `sqlite3 DB ".backup COPY"` while the server runs and a game is being played;
//    a second server on COPY holds the game with every move acknowledged before the backup;
//  - PostgreSQL (under tests/pgtmp.sh): `pg_dump -Fc`, `pg_restore` into a new database;
//    a server on it holds the game.
//
// Usage: node backup.mjs <gravulien>   (the PostgreSQL part with GV_TEST_PG set)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { api, check, removeDir, runTest, startServer, tempDir } from './lib.mjs';

const bin = process.argv[2];
if (!bin) {
  console.log('usage: node backup.mjs <gravulien>');
  process.exit(2);
}
const dir = tempDir('gv-backup-');
const servers = [];

async function start(db) {
  const S = await startServer(bin, db, ['--rate', '0']);
  servers.push(S);
  return S;
}

// A game with n moves played through S: its id.
async function play(S, n) {
  const c = await api(S.url, 'POST', '/api/games', { game: 'exac', seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
  const id = c.json.id, tok = c.json.tokens.map((t) => t.token);
  for (let i = 0; i < n; i++) {
    const seat = i % 2;
    const you = (await api(S.url, 'GET', `/api/games/${id}/you?token=${tok[seat]}`)).json.you;
    const r = await api(S.url, 'POST', `/api/games/${id}/move`, { token: tok[seat], move: you.legal_moves[0], n: i + 1 });
    if (r.status !== 200) throw new Error(`move ${i + 1}: ${r.status} ${r.text}`);
  }
  return id;
}

async function sqlite() {
  const db = join(dir, 'games.db'), copy = join(dir, 'copy.db');
  const S = await start(db);
  const id = await play(S, 6);
  execFileSync('sqlite3', [db, `.backup '${copy}'`]);
  await play(S, 2);   // the server goes on after the backup
  const T = await start(copy);
  const v = (await api(T.url, 'GET', `/api/games/${id}`)).json;
  check(v && v.moves.length === 6, `sqlite: a server on the online backup holds the game (${v && v.moves.length} moves)`);
  const l = (await api(T.url, 'GET', '/api/games?status=live')).json;
  check(l && l.games.some((g) => g.id === id), 'sqlite: the game is listed');
}

async function pg() {
  const url = process.env.GV_TEST_PG;
  const S = await start(url);
  const id = await play(S, 5);
  const dump = join(dir, 'gravulien.dump');
  execFileSync('pg_dump', ['-Fc', '-d', url, '-f', dump]);
  execFileSync('psql', ['-X', '-q', '-d', url, '-c', 'CREATE DATABASE restored']);
  const restored = url.replace(/\/[^/?]*(\?|$)/, '/restored$1');
  execFileSync('pg_restore', ['-d', restored, dump]);
  const T = await start(restored);
  const v = (await api(T.url, 'GET', `/api/games/${id}`)).json;
  check(v && v.moves.length === 5, `postgres: a server on the restored dump holds the game (${v && v.moves.length} moves)`);
  const c = await api(T.url, 'POST', '/api/games', { game: 'chu', seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
  check(c.status === 201, `postgres: the restored database takes new games (${c.status})`);
}

await runTest(async () => {
  await sqlite();
  if (process.env.GV_TEST_PG) await pg();
}, async () => {
  for (const S of servers) await S.stop();
  removeDir(dir);
});
