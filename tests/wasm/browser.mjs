// The browser engine in a real browser: Chromium (playwright-core, as tests/web uses it)
// opens the page of `gravulien serve`, starts web/engine/worker.js as the page would, and
// drives it: a game loaded, a bench search giving the native node count, an infinite
// search stopped, the AI's move played. Exit 77 when Chromium or playwright-core is missing.
//   node tests/wasm/browser.mjs BUILD/gravulien
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeBench, root, startServe } from './engine.mjs';

const bin = process.argv[2];
const chromePath = process.env.CHROMIUM || '/usr/bin/chromium';
const pw = join(root, 'tests', 'web', 'node_modules', 'playwright-core', 'package.json');
if (!existsSync(chromePath) || !existsSync(pw)) {
  console.log('skip: Chromium or playwright-core (npm ci in tests/web) missing');
  process.exit(77);
}
const { chromium } = createRequire(pw)('playwright-core');

let passed = 0, failed = 0;
function check(ok, what, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} browser: ${what}${detail ? ` ${detail}` : ''}`);
}

const dir = mkdtempSync(join(tmpdir(), 'gv-wasm-'));
const { server, base } = await startServe(bin, dir);
const url = `${base}/`;
const home = join(dir, 'home');
mkdirSync(home);
const browser = await chromium.launch({ executablePath: chromePath, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') } });
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  // The page's client of the worker (web/engine/client.js): window.gv(cmd, args) answers a
  // request ({ok: false, error} when refused), window.gvInfos counts the reports.
  await page.evaluate(async () => {
    const { EngineClient } = await import('/static/engine/client.js');
    const engine = new EngineClient();
    window.gvEngine = engine;
    window.gvInfos = 0;
    window.gv = (cmd, args = {}) => engine.request(cmd, args, () => window.gvInfos++)
      .catch((e) => ({ ok: false, error: e.message }));
  });
  const gv = (cmd, args) => page.evaluate(([c, a]) => window.gv(c, a), [cmd, args]);

  const games = await gv('games');
  check(games.ok && games.games.length >= 3, 'games', games.ok ? games.games.map((g) => g.name).join(' ') : games.error);
  const positions = (await gv('benchPositions')).positions;
  const want = nativeBench(bin)[0];
  const b = positions[0];
  await gv('load', { game: b.game, rules: b.rules, position: b.position });
  const r = await gv('search', { depth: b.depth });
  check(r.ok && r.result.nodes === want.nodes && r.result.best === want.best, `bench ${b.game} 1`,
    r.ok ? `nodes ${r.result.nodes} best ${r.result.best} (native ${want.nodes} ${want.best}), ${r.result.time} ms` : r.error);
  const infos = await page.evaluate(() => window.gvInfos);
  check(infos >= b.depth, 'reports', `${infos}`);

  const st = (await gv('load', { game: 'exac' })).state;
  const t0 = Date.now();
  const stopped = page.evaluate(() => window.gv('search', { infinite: true }));
  await new Promise((res) => setTimeout(res, 500));
  const s = await gv('stop');
  const sr = await stopped;
  const ms = Date.now() - t0;
  check(s.stopping && sr.ok && st.moves.includes(sr.result.best), 'stop',
    `${sr.ok ? sr.result.best : sr.error} depth ${sr.ok && sr.result.depth} after ${ms} ms`);

  // stopNow: the worker replaced at once, the game as it was (two moves played) in the new one.
  const e0 = (await gv('load', { game: 'exac' })).state;
  await gv('play', { move: e0.moves[0] });
  const e1 = (await gv('play', { move: (await gv('state')).state.moves[0] })).state;
  const running = page.evaluate(() => window.gv('search', { infinite: true }));
  await new Promise((res) => setTimeout(res, 300));
  const t1 = Date.now();
  const now = await page.evaluate(() => window.gvEngine.stopNow());
  const ms1 = Date.now() - t1;
  const gone = await running;
  check(!gone.ok && /stopped/.test(gone.error) && now && now.plies === 2 && now.position === e1.position,
    'stopNow', `${ms1} ms, ${now && now.plies} plies, search answered: ${gone.error}`);
  const again = await gv('search', { depth: 3 });
  check(again.ok && now.moves.includes(again.result.best), 'search after stopNow', again.ok ? again.result.best : again.error);

  await gv('load', { game: 'grav', rules: 'size=7,players=3,seed=3' });
  const ai = await gv('aiMove', { level: 3, seed: 7, play: true });
  check(ai.ok && ai.state.plies === 1, 'aiMove played', ai.ok ? ai.result.best : ai.error);
  check(errors.length === 0, 'no page errors', errors.join('; '));
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
