// The deployment guide's setup, run: two server processes on one PostgreSQL behind nginx,
// with the guide's own nginx file (docs/nginx/gravulien.conf, only its ports and log path
// changed here) and nginx sized as the guide says.
//
//  1. WATCHERS watchers connect through nginx and all get a move played through it;
//  2. one backend stopped (SIGSTOP): every API request through nginx is answered within 2 s
//     (GETs by the other process; a POST sent to the stopped one may get 504, once);
//  3. PostgreSQL stopped: GET /api/ready of each backend is 503 while /api/health through
//     nginx is 200, and ready again once PostgreSQL is back;
//  4. nginx's logs hold no seat token, though tokens were sent in a join link's URL, in a
//     query string and in a header;
//  5. one backend drained (SIGTERM): the watchers it held get a close frame with code 1012
//     through nginx (not 1006), the others stay connected, and it exits 0.
//
// Usage: tests/pgtmp.sh node nginx.mjs <gravulien>  (needs nginx: /usr/sbin/nginx, which
// scripts/deps.sh installs; skipped, exit 77, without it or without PostgreSQL).
import { spawn, execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { check, removeDir, runTest, sleep, startServer, tempDir } from './lib.mjs';

const bin = process.argv[2];
if (!bin) {
  console.log('usage: node nginx.mjs <gravulien>');
  process.exit(2);
}
const NGINX = process.env.GV_NGINX || '/usr/sbin/nginx';
if (!existsSync(NGINX)) {
  console.log(`no nginx at ${NGINX}: skipped`);
  process.exit(77);
}
if (!process.env.GV_TEST_PG || !process.env.GV_TEST_PG_CTL) {
  console.log('no PostgreSQL (run under tests/pgtmp.sh): skipped');
  process.exit(77);
}
const here = dirname(fileURLToPath(import.meta.url));
const GUIDE = join(here, '..', '..', 'docs', 'nginx', 'gravulien.conf');
const WATCHERS = Number(process.env.NGINX_WATCHERS || 2000);
const dir = tempDir('gv-nginx-');
const procs = [];
let nginx = null;

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

async function timed(url, init) {
  const t0 = Date.now();
  try {
    const r = await fetch(url, { ...init, signal: AbortSignal.timeout(10000) });
    const text = await r.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: r.status, json, text, ms: Date.now() - t0 };
  } catch (e) {
    return { status: 0, ms: Date.now() - t0, text: String(e) };
  }
}

async function main() {
  const db = process.env.GV_TEST_PG;
  const A = await startServer(bin, db, ['--rate', '0', '--trust-proxy', '--name', 'a']);
  const B = await startServer(bin, db, ['--rate', '0', '--trust-proxy', '--name', 'b']);
  procs.push(A, B);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;

  // The guide's file with this test's ports and log path: each change must apply, so that
  // the guide cannot drift from what is tested.
  let conf = readFileSync(GUIDE, 'utf8');
  const swaps = [
    ['server 127.0.0.1:8081 ', `server 127.0.0.1:${A.port} `],
    ['server 127.0.0.1:8082 ', `server 127.0.0.1:${B.port} `],
    ['listen 80;', `listen 127.0.0.1:${port};`],
    ['/var/log/nginx/gravulien.access.log', join(dir, 'access.log')],
  ];
  for (const [from, to] of swaps) {
    check(conf.includes(from), `the guide's nginx file has "${from}"`);
    conf = conf.replace(from, to);
  }
  writeFileSync(join(dir, 'gravulien.conf'), conf);
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, t));
  // nginx itself as the guide sizes it: one worker, 8,192 connections (2 per watcher).
  writeFileSync(join(dir, 'nginx.conf'), `
${process.getuid && process.getuid() === 0 ? 'user root root;' : ''}
worker_processes 1;
worker_rlimit_nofile 20000;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} crit;
events { worker_connections 8192; }
http {
    client_body_temp_path ${join(dir, 'body')};
    proxy_temp_path ${join(dir, 'proxy')};
    fastcgi_temp_path ${join(dir, 'fastcgi')};
    uwsgi_temp_path ${join(dir, 'uwsgi')};
    scgi_temp_path ${join(dir, 'scgi')};
    access_log off;
    include ${join(dir, 'gravulien.conf')};
}
`);
  nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] });
  let up = null;
  for (let i = 0; i < 100 && !(up && up.status === 200); i++) {
    await sleep(100);
    up = await timed(`${base}/api/health`);
  }
  check(up && up.status === 200, `nginx answers for the servers (${up && up.status})`);

  // A game, and its tokens sent every way a client may send them.
  const c = await timed(`${base}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'exac', seats: [{ type: 'human', you: true }, { type: 'human', you: true }] }),
  });
  check(c.status === 201, `a game is created through nginx (${c.status})`);
  const id = c.json.id, tokens = c.json.tokens.map((t) => t.token);
  await timed(base + c.json.tokens[0].link);
  const v = await timed(`${base}/api/games/${id}?token=${tokens[0]}`);
  check(v.status === 200 && v.json.you, 'a seat\'s view with ?token= through nginx');
  const y = await timed(`${base}/api/games/${id}/you`, { headers: { authorization: `Bearer ${tokens[1]}` } });
  check(y.status === 200 && y.json.you.seat === 1, 'a seat\'s view with a Bearer header through nginx');

  // 1. Watchers through nginx.
  const t0 = Date.now();
  const ws = [];
  const closes = [];
  let states = 0, moves = 0;
  await Promise.all(Array.from({ length: WATCHERS }, (_, i) => new Promise((resolve) => {
    const w = new WebSocket(`${base.replace('http', 'ws')}/ws?game=${id}&since=0`);
    w.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.type === 'state') { states++; resolve(); }
      if (m.type === 'move') moves++;
    });
    w.on('error', () => resolve());
    w.on('close', (code) => { closes.push({ i, code }); resolve(); });
    ws.push(w);
  })));
  check(states === WATCHERS, `${WATCHERS} watchers connected through nginx (${states} got the state in ${Date.now() - t0} ms, ${closes.length} closed)`);
  const legal = v.json.you.legal_moves;
  const mv = await timed(`${base}/api/games/${id}/move`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: tokens[0], move: legal[0] }),
  });
  check(mv.status === 200, `a move through nginx (${mv.status})`);
  for (let i = 0; i < 100 && moves < WATCHERS; i++) await sleep(100);
  check(moves === WATCHERS, `every watcher got the move (${moves} of ${WATCHERS})`);

  // 2. One backend stopped: every request is answered within 2 s through the other.
  A.proc.kill('SIGSTOP');
  const answers = [];
  for (let i = 0; i < 12; i++) {
    answers.push(await timed(i % 3 === 2 ? `${base}/api/meta` : `${base}/api/games/${id}`));
  }
  const post = await timed(`${base}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'grav', seats: [{ type: 'human', you: true }, { type: 'human', you: true }] }),
  });
  A.proc.kill('SIGCONT');
  const worst = Math.max(...answers.map((a) => a.ms), post.ms);
  check(answers.every((a) => a.status === 200), `with a backend stopped every GET is answered 200 (${answers.map((a) => a.status).join(',')})`);
  check(worst <= 2000, `... within 2 s (worst ${worst} ms)`);
  check(post.status === 201 || post.status === 504, `a POST is answered too (${post.status} in ${post.ms} ms)`);

  // 3. Readiness while PostgreSQL is down, asked of each backend as a balancer's or a
  // monitor's probe does (through nginx, a 503 counts as a failure of the process that
  // answered it, and both would soon be left out).
  execSync(`${process.env.GV_TEST_PG_CTL} stop`);
  for (const S of [A, B]) {
    let r = null;
    for (let i = 0; i < 50 && !(r && r.status === 503); i++) {
      r = await timed(`${S.url}/api/ready`);
      if (r.status !== 503) await sleep(200);
    }
    check(r.status === 503 && r.json && r.json.code === 'not_ready', `/api/ready of a backend is 503 while PostgreSQL is down (${r.status})`);
  }
  const h = await timed(`${base}/api/health`);
  check(h.status === 200, `/api/health through nginx stays 200 (${h.status})`);
  execSync(`${process.env.GV_TEST_PG_CTL} start`);
  for (const S of [A, B]) {
    let r = null;
    for (let i = 0; i < 75 && !(r && r.status === 200); i++) {
      r = await timed(`${S.url}/api/ready`);
      if (r.status !== 200) await sleep(200);
    }
    check(r.status === 200, `ready again once PostgreSQL is back (${r.status})`);
  }

  // 5. Drain one backend: its watchers get 1012 through nginx.
  const before = closes.length;
  B.proc.kill('SIGTERM');
  const e = await B.exited;
  await sleep(500);
  const drained = closes.slice(before);
  check(e.code === 0, `the drained backend exits 0 (${e.code} ${e.sig})`);
  check(drained.length > 0 && drained.length < WATCHERS, `the watchers it held were closed, the others not (${drained.length} of ${WATCHERS})`);
  const codes = {};
  for (const d of drained) codes[d.code] = (codes[d.code] || 0) + 1;
  check(drained.every((d) => d.code === 1012), `... each with a close frame 1012, none dropped (${JSON.stringify(codes)})`);
  for (const w of ws) w.terminate();

  // 4. No token in nginx's logs.
  nginx.kill('SIGQUIT');
  await new Promise((res) => nginx.on('exit', res));
  nginx = null;
  const logs = ['access.log', 'error.log'].map((f) => existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : '');
  check(logs[0].includes(`/api/games/${id}`), 'nginx logged the requests');
  check(tokens.every((t) => !logs[0].includes(t) && !logs[1].includes(t)), 'no seat token in nginx\'s logs');
}

await runTest(main, async () => {
  if (nginx) nginx.kill('SIGKILL');
  for (const p of procs) { try { p.proc.kill('SIGCONT'); p.proc.kill('SIGKILL'); } catch { /* gone */ } }
  removeDir(dir);
});
