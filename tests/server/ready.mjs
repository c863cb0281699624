// Readiness for a load balancer: GET /api/ready is 200 while the process reaches its
// database, 503 not_ready while it cannot (PostgreSQL stopped) and 200 again once it can,
// while GET /api/health (the process answers) stays 200 throughout.
//
// Usage: node ready.mjs <gravulien>   (on SQLite); under tests/pgtmp.sh with
// GV_SERVER_ON_PG=1, PostgreSQL is stopped and started again (GV_TEST_PG_CTL).
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { api, check, removeDir, runTest, sleep, startServer, tempDir } from './lib.mjs';

const bin = process.argv[2];
if (!bin) {
  console.log('usage: node ready.mjs <gravulien>');
  process.exit(2);
}
const onPg = process.env.GV_SERVER_ON_PG === '1' && !!process.env.GV_TEST_PG && !!process.env.GV_TEST_PG_CTL;
const dir = tempDir('gv-ready-');
let S = null;

async function until(pred, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await pred();
    if (r || Date.now() > end) return r;
    await sleep(100);
  }
}

async function main() {
  S = await startServer(bin, join(dir, 'games.db'), ['--rate', '0']);
  const r = await api(S.url, 'GET', '/api/ready');
  check(r.status === 200 && r.json.ready === true && Number.isInteger(r.json.schema),
        `ready while the database answers (${r.status} ${r.text})`);
  const p = await api(S.url, 'POST', '/api/ready', {});
  check(p.status === 405, `POST /api/ready is 405 (${p.status})`);
  if (!onPg) return;
  execSync(`${process.env.GV_TEST_PG_CTL} stop`);
  const down = await until(async () => {
    const x = await api(S.url, 'GET', '/api/ready');
    return x.status === 503 ? x : null;
  }, 10000);
  check(down && down.json.code === 'not_ready' && /database/.test(down.json.error),
        `not ready while PostgreSQL is down (${down ? down.text : 'still ready'})`);
  const h = await api(S.url, 'GET', '/api/health');
  check(h.status === 200, `health still answers while the database is down (${h.status})`);
  execSync(`${process.env.GV_TEST_PG_CTL} start`);
  const up = await until(async () => (await api(S.url, 'GET', '/api/ready')).status === 200, 15000);
  check(up, 'ready again once PostgreSQL is back');
  const c = await api(S.url, 'POST', '/api/games', { game: 'grav', seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
  check(c.status === 201, `a game is created once the database is back (${c.status})`);
}

await runTest(main, async () => {
  if (S) await S.stop();
  removeDir(dir);
});
