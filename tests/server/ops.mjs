// What a process says about itself, for an operator: the x-gravulien-backend header on every
// reply, GET /metrics in Prometheus' text format (counters that move with the traffic, a
// histogram of the loop's passes and one of the store's calls), and the access log
// (--access-log FILE): one line per reply without the query string (a seat's token never
// reaches it), reopened on SIGHUP after a rotation.
//
// Usage: node ops.mjs <gravulien>
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { api, check, removeDir, runTest, sleep, startServer, tempDir } from './lib.mjs';

const bin = process.argv[2];
if (!bin) {
  console.log('usage: node ops.mjs <gravulien>');
  process.exit(2);
}
const dir = tempDir('gv-ops-');
const log = join(dir, 'access.log');
let S = null;

function metric(text, name) {
  const m = text.match(new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm'));
  return m ? Number(m[1]) : NaN;
}

async function main() {
  S = await startServer(bin, join(dir, 'games.db'), ['--rate', '0', '--access-log', log, '--name', 'backend-7']);
  const h = await api(S.url, 'GET', '/api/health');
  check(h.headers.get('x-gravulien-backend') === 'backend-7', `the backend header names the process (${h.headers.get('x-gravulien-backend')})`);
  const nf = await api(S.url, 'GET', '/static/none.js');
  check(nf.headers.get('x-gravulien-backend') === 'backend-7', 'an error reply carries it too');

  let m = await api(S.url, 'GET', '/metrics');
  check(m.status === 200 && /^text\/plain; version=0\.0\.4/.test(m.headers.get('content-type')), `/metrics is Prometheus text (${m.status} ${m.headers.get('content-type')})`);
  const moves0 = metric(m.text, 'gravulien_moves_total');
  const ok0 = metric(m.text, 'gravulien_http_replies_total{code="2xx"}');
  check(moves0 === 0 && ok0 >= 1, `counters start (${moves0} moves, ${ok0} 2xx)`);
  for (const name of ['gravulien_websockets', 'gravulien_games_in_memory', 'gravulien_ai_turns_waiting',
    'gravulien_store_errors_total', 'gravulien_loop_pass_seconds_count', 'gravulien_store_call_seconds_count',
    'gravulien_ai_wait_seconds_count']) {
    check(Number.isFinite(metric(m.text, name)), `/metrics has ${name}`);
  }
  const lines = m.text.split('\n').filter((l) => l && !l.startsWith('#'));
  check(lines.every((l) => /^[a-z_]+(\{[a-z]+="[^"]*"\})? [0-9.e+-]+$/.test(l)), 'every sample line is NAME[{label="v"}] VALUE');

  const c = await api(S.url, 'POST', '/api/games', { game: 'exac', seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
  const id = c.json.id, [t0] = c.json.tokens.map((t) => t.token);
  const legal = (await api(S.url, 'GET', `/api/games/${id}?token=${t0}`)).json.you.legal_moves;
  await api(S.url, 'POST', `/api/games/${id}/move`, { token: t0, move: legal[0] });
  m = await api(S.url, 'GET', '/metrics');
  check(metric(m.text, 'gravulien_moves_total') === 1, `a stored move counts (${metric(m.text, 'gravulien_moves_total')})`);
  check(metric(m.text, 'gravulien_store_call_seconds_count') >= 2, 'store calls are timed');
  check(metric(m.text, 'gravulien_http_replies_total{code="4xx"}') >= 1, 'the 404 counts as 4xx');

  await sleep(200);   // the log is flushed every 50 ms
  const text = readFileSync(log, 'utf8');
  check(!text.includes(t0), 'the access log never holds a token (the query is left out)');
  check(new RegExp(`"GET /api/games/${id} HTTP/1.1" 200 \\d+ [0-9.]+ "backend-7"`).test(text),
        'a line: the request without its query, status, bytes, seconds, backend');
  check(/"GET \/static\/none.js HTTP\/1.1" 404 /.test(text), 'errors are logged');

  renameSync(log, log + '.1');
  S.proc.kill('SIGHUP');
  await sleep(200);
  await api(S.url, 'GET', '/api/health');
  await sleep(200);
  check(existsSync(log) && /"GET \/api\/health HTTP\/1.1" 200/.test(readFileSync(log, 'utf8')),
        'after a rotation and SIGHUP the log is written anew');
  const e = await S.stop();
  check(e.code === 0, 'the server stops cleanly');
  S = null;
}

await runTest(main, async () => {
  if (S) await S.kill();
  removeDir(dir);
});
