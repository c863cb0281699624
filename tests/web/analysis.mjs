// The analysis board, the hints and the evaluation graph in Chromium (web/analysis.js),
// with the engine built to WebAssembly (make wasm). web.mjs runs these steps; they are
// skipped when web/engine/gravulien.wasm is missing.
//
// - the analysis board of a Chu position searched to a depth gives the native program's
//   best move at that depth (`gravulien think --depth`), its line in TSA;
// - three lines (MultiPV 3) have three different first moves;
// - a move tried on the board makes a variation and sends nothing to the server; a Grav
//   stone placed on the board is drawn from the engine's view and listed in words, its
//   window's call of "Grav!" offered as a button; a fresh Grav board takes a stone;
// - a finished game's evaluation graph is computed to its end, a click on it jumps there;
// - the Analysis board link is offered to watchers, not to a seat of a live game;
// - the hint arrow appears in a game against the computer; no Hint button in a game
//   between people.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export async function analysisSteps({ step, check, newPage, shot, base, bin, webDir }) {
  if (!existsSync(join(webDir, 'engine', 'gravulien.wasm'))) {
    console.log('skip analysis steps: web/engine/gravulien.wasm not built (make wasm)');
    return;
  }
  const post = async (path, body) => (await fetch(base + path, { method: 'POST',
    headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  // A game between two seats of this test, with moves played through the API.
  const gameWith = async (game, moves) => {
    const g = await post('/api/games', { game, seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
    for (let i = 0; i < moves.length; i++) {
      const r = await post(`/api/games/${g.id}/move`, { token: g.tokens[i % 2].token, move: moves[i], n: i + 1 });
      if (r.error) throw new Error(`move ${moves[i]}: ${r.error.message || r.error}`);
    }
    return g;
  };
  const native = (game, moves, depth) => {
    const out = execFileSync(bin, ['think', game, '--moves', moves.join(' '), '--depth', String(depth)], { encoding: 'utf8' });
    const m = /bestmove (\S+)/.exec(out);
    return m ? m[1] : null;
  };
  const DEPTH = 5;
  const chuMoves = ['7i7h', '6d6e', '8j7i'];

  await step('analysis: the best move at a depth is the native program\'s, in TSA', async () => {
    const g = await gameWith('chu', chuMoves);
    const { page, context } = await newPage('analysis');
    const posts = [];
    page.on('request', (rq) => { if (rq.method() !== 'GET') posts.push(`${rq.method()} ${new URL(rq.url()).pathname}`); });
    await page.goto(`${base}/play/${g.id}/analysis`);
    await page.waitForFunction((d) => Number((document.getElementById('eval-depth') || {}).dataset?.depth || 0) >= d, DEPTH, { timeout: 60000 });
    // the best move of each depth's report is kept on the panel (data-best<D>)
    const want = native('chu', chuMoves, DEPTH);
    const best = await page.evaluate((d) => document.getElementById('eval-depth').dataset[`best${d}`], DEPTH);
    check(best === want, `analysis board: best move at depth ${DEPTH} ${best} = native ${want}`);
    const tsa = await page.locator('.pv-line .pv-moves').first().textContent();
    check(/^[+]?[A-Za-z!']+[-x*]/.test(tsa), `the line is written in TSA: "${tsa.slice(0, 60)}"`);
    const num = await page.locator('#eval-num').textContent();
    check(/^[+-]?\d+\.\d\d$|^#-?\d+$/.test(num), `the evaluation is a number: ${num}`);
    await shot(page, 'analysis-board.png');

    // MultiPV 3: three lines, three different first moves
    await page.selectOption('select.multipv', '3');
    await page.waitForFunction(() => document.querySelectorAll('.pv-line').length === 3 &&
      Number(document.getElementById('eval-depth').dataset.depth) >= 3, null, { timeout: 60000 });
    const firsts = await page.$$eval('.pv-line', (els) => els.map((e) => e.dataset.pv.split(' ')[0]));
    check(new Set(firsts).size === 3, `MultiPV 3: three different first moves (${firsts.join(', ')})`);
    await shot(page, 'analysis-multipv.png');

    // a variation: a move tried on the board, kept in the page
    await page.locator('svg.board [data-sq="3d"]').click();      // Gote to move
    await page.locator('svg.board [data-sq="3e"]').click();
    await page.locator('.movelist .mv.var').waitFor();
    const n = await page.locator('.movelist .mv').count();
    check(n === chuMoves.length + 1, `the variation's move is listed (${n} moves)`);
    await page.waitForFunction(() => document.querySelectorAll('.pv-line').length >= 1);
    await page.locator('button.back-main').click();
    await page.waitForFunction(() => !document.querySelector('.movelist .mv.var'));
    check(posts.length === 0, `nothing was sent to the server (${posts.join(', ') || 'no request'})`);
    await page.goto(`${base}/play/analysis/chu`);
    await page.waitForFunction(() => Number((document.getElementById('eval-depth') || {}).dataset?.depth || 0) >= 3, null, { timeout: 30000 });
    check(await page.locator('.movelist .mv').count() === 0, 'a fresh Chu board is analysed');
    const v = await (await fetch(`${base}/api/games/${g.id}`)).json();
    check(v.n === chuMoves.length, 'the game on the server has its moves only');
    await context.close();
  });

  await step('analysis: the link is for watchers, not for a seat of a live game', async () => {
    const g = await gameWith('exac', []);
    const { page, context } = await newPage('analysis-link');
    await page.goto(base + g.tokens[0].link);
    await page.locator('.share h3').waitFor();
    check(await page.locator('a.analysis-link').count() === 0, 'no analysis link for a seat of a live game');
    await page.goto(`${base}/play/${g.id}/analysis`);
    await page.locator('.error-page').waitFor();
    check(true, 'the analysis address refuses a seat of the live game');
    await context.close();
    const w = await newPage('analysis-watch');
    await w.page.goto(`${base}/play/${g.id}`);
    await w.page.locator('a.analysis-link').waitFor();
    check(true, 'a watcher has the analysis link');
    await w.context.close();
  });

  await step('analysis: the evaluation graph of a finished game', async () => {
    const moves = ['g5', 'g3', 'n5', 'n3', 'm5', 'm3'];
    const g = await gameWith('exac', moves);
    await post(`/api/games/${g.id}/resign`, { token: g.tokens[0].token });
    const { page, context } = await newPage('graph');
    await page.goto(`${base}/play/${g.id}`);
    await page.locator('a.analysis-link').click();
    await page.locator('.eval-graph[data-done="true"]').waitFor({ timeout: 60000 });
    const pts = await page.$eval('.graph-line', (e) => e.getAttribute('points').split(' ').length);
    check(pts === moves.length + 1, `the graph has a point per position (${pts})`);
    const box = await page.locator('svg.graph').boundingBox();
    await page.locator('svg.graph').click({ position: { x: box.width * 2 / moves.length, y: box.height / 2 } });
    await page.waitForFunction(() => document.querySelector('.movelist .mv.current')?.dataset.n === '2');
    check(true, 'a click on the graph goes to that move');
    await shot(page, 'analysis-graph.png', true);
    // Exaç on the board: the best move's arrow, played as a variation
    await page.locator('svg.board .pv-arrow').waitFor();
    const ends = await page.$eval('svg.board .pv-arrow', (e) => ({ from: e.dataset.from, to: e.dataset.to }));
    await page.locator(`svg.board [data-sq="${ends.from}"]`).click();
    await page.locator(`svg.board [data-sq="${ends.to}"]`).click();
    await page.locator('.movelist .mv.var').waitFor();
    check(true, `an Exaç variation: the engine's move ${ends.from}-${ends.to} played on the board`);
    await context.close();
  });

  await step('analysis: not while a Grav placement of a live game awaits its answers', async () => {
    const g = await post('/api/games', { game: 'grav', options: { size: 5, seed: 7, a: 3, b: 2, c: 2, d: 1, e: 2 },
      seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
    const r = await post(`/api/games/${g.id}/move`, { token: g.tokens[0].token, move: '1 place c3', n: 1 });
    if (r.error) throw new Error(`move: ${r.error.message || r.error}`);
    const { page, context } = await newPage('analysis-grav-window');
    await page.goto(`${base}/play/${g.id}/analysis`);
    await page.locator('.error-page').waitFor();
    const text = await page.locator('.error-page').textContent();
    check(/awaits its answers/.test(text) && await page.locator('.pv-line').count() === 0,
          'a watcher gets no analysis while the stone\'s window is open (the engine would know whether it breaks a rule)');
    await context.close();
  });

  await step('analysis: a Grav variation from the engine\'s view', async () => {
    // a 5x5 game for two: P1's stone on c3 accepted, P2 to place
    const g = await post('/api/games', { game: 'grav', options: { size: 5, seed: 7, a: 3, b: 2, c: 2, d: 1, e: 2 },
      seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
    const moves = ['1 place c3', '2 accept'];
    for (let i = 0; i < moves.length; i++) {
      const r = await post(`/api/games/${g.id}/move`, { token: g.tokens[Number(moves[i][0]) - 1].token, move: moves[i], n: i + 1 });
      if (r.error) throw new Error(`move ${moves[i]}: ${r.error.message || r.error}`);
    }
    const { page, context } = await newPage('analysis-grav');
    const posts = [];
    page.on('request', (rq) => { if (rq.method() !== 'GET') posts.push(`${rq.method()} ${new URL(rq.url()).pathname}`); });
    await page.goto(`${base}/play/${g.id}/analysis`);
    await page.locator('svg.board.grav g.sq.placeable').first().waitFor();
    const pt = await page.$$eval('svg.board.grav g.sq.placeable', (els) => els.map((e) => e.dataset.sq).find((q) => q !== 'c3'));
    await page.locator(`svg.board.grav [data-sq="${pt}"]`).click();
    await page.locator('.movelist .mv.var').waitFor();
    const words = await page.locator('.movelist .mv.var').first().textContent();
    check(words.includes(`P2 places ${pt}`), `the variation lists the stone in words: "${words.trim()}"`);
    await page.locator(`svg.board.grav [data-sq="${pt}"] .stone.pending`).waitFor();
    check(true, `the board shows P2's stone on ${pt}, pending`);
    // the stone's window: P1 may call Grav! on it, a button under the board
    const call = page.locator('button.grav-action[data-move="1 grav"]');
    await call.waitFor();
    check(await page.locator('button.grav-action[data-move="1 accept"]').count() === 1, 'P1 may call Grav! or accept');
    await page.waitForFunction(() => document.querySelectorAll('.pv-line').length >= 1, null, { timeout: 30000 });
    await shot(page, 'analysis-grav-variation.png');
    await call.click();
    await page.waitForFunction(() => document.querySelectorAll('.movelist .mv.var').length === 2);
    const verdict = await page.locator('.movelist .mv.var').nth(1).textContent();
    check(/P1 calls Grav! on/.test(verdict), `the call is listed with its verdict: "${verdict.trim().slice(0, 90)}"`);
    await page.keyboard.press('ArrowLeft');
    await page.locator(`svg.board.grav [data-sq="${pt}"] .stone.pending`).waitFor();
    check(true, '← goes back to the stone awaiting its answers');
    await page.locator('button.back-main').click();
    await page.waitForFunction(() => !document.querySelector('.movelist .mv.var'));
    await page.waitForFunction((q) => !document.querySelector(`svg.board.grav [data-sq="${q}"] .stone`), pt);
    check(await page.locator('svg.board.grav [data-sq="c3"] .stone').count() === 1, 'back to the game: its position again');
    check(posts.length === 0, `nothing was sent to the server (${posts.join(', ') || 'no request'})`);
    const v = await (await fetch(`${base}/api/games/${g.id}`)).json();
    check(v.n === moves.length, 'the game on the server has its moves only');
    // a fresh Grav board: the default options (13x13, two players, seed 0), a stone placed
    await page.goto(`${base}/play/analysis/grav`);
    await page.locator('svg.board.grav g.sq.placeable').first().waitFor();
    check(await page.locator('svg.board.grav g.sq').count() === 169, 'a fresh Grav board: 13 by 13');
    await page.locator('svg.board.grav [data-sq="g7"]').click();
    await page.locator('svg.board.grav [data-sq="g7"] .stone').waitFor();
    const first = await page.locator('.movelist .mv.var').first().textContent();
    check(/P1 places g7/.test(first), `a fresh Grav board takes a stone: "${first.trim()}"`);
    await context.close();
  });

  await step('hint: an arrow in a game against the computer, no button between people', async () => {
    const g = await post('/api/games', { game: 'chu', seats: [{ type: 'human', you: true }, { type: 'ai', level: 1 }] });
    const { page, context } = await newPage('hint');
    await page.goto(base + g.tokens[0].link);
    await page.locator('.your-move').waitFor();
    await page.locator('button.hint-button').click();
    await page.locator('svg.board .hint-arrow').waitFor({ timeout: 20000 });
    const to = await page.$eval('svg.board .hint-arrow', (e) => e.dataset.to);
    check(!!to, `the hint arrow points to ${to}`);
    await shot(page, 'hint-arrow.png');
    await context.close();
    const p = await gameWith('chu', []);
    const two = await newPage('hint-people');
    await two.page.goto(base + p.tokens[0].link);
    await two.page.locator('.your-move').waitFor();
    check(await two.page.locator('button.hint-button').count() === 0, 'no Hint button in a game between people');
    await two.context.close();
  });

  await step('local: a game against the in-browser AI with the network cut, then downloaded', async () => {
    const { page, context } = await newPage('local');
    const posts = [];
    page.on('request', (rq) => { if (rq.method() !== 'GET') posts.push(new URL(rq.url()).pathname); });
    await page.goto(base + '/');
    await page.locator('.local-panel').waitFor();
    // the offline copy of the page: the service worker (web/sw.js, allowed the whole site by
    // the server's Service-Worker-Allowed header) is installed with the page's files
    const sw = await page.evaluate(() => Promise.race([
      navigator.serviceWorker.ready.then((r) => r.active ? r.scope : null),
      new Promise((res) => setTimeout(() => res(null), 15000))]));
    check(sw === base + '/', `the page's service worker controls the site (${sw})`);
    // with the network cut the lobby's panel makes a local game (online it asks the server)
    await context.setOffline(true);
    await page.selectOption('select.local-game', 'exac');
    await page.selectOption('select.local-level', '1');
    await page.locator('button.local-start').click();
    await page.waitForURL(/\/play\/local\//);
    await page.locator('.your-move').waitFor();
    // play the first legal move offered (a click on a piece then its destination) until the
    // game ends or 40 moves were made; then resign if it goes on
    let ended = false;
    for (let i = 0; i < 40 && !ended; i++) {
      await page.waitForFunction(() => document.querySelector('.your-move') || document.querySelector('.banner .result'), null, { timeout: 20000 });
      if (await page.locator('.banner .result').count()) { ended = true; break; }
      const n = await page.locator('.moves .mv').count();
      const mv = await page.evaluate(() => {
        const b = window.gvLocalPage;
        const legal = b && b.legal;
        return legal && legal.length ? legal[0] : null;
      });
      if (!mv) break;
      await page.locator(`svg.board [data-sq="${mv.from}"]`).click();
      await page.locator(`svg.board [data-sq="${mv.to}"]`).click();
      await page.waitForFunction((k) => document.querySelectorAll('.moves .mv').length >= k + 2 || document.querySelector('.banner .result'), n, { timeout: 20000 });
    }
    if (!ended) {
      await page.locator('button.resign').click();
      await page.locator('.banner .result').waitFor();
    }
    const moves = await page.locator('.moves .mv').count();
    check(moves >= 2, `an offline game against the level 1 AI: ${moves} moves, ${ended ? 'played to its end' : 'then resigned'}`);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.locator('button.download-local').click()]);
    const path = join(webDir, '..', 'tests', 'web', 'artifacts', 'local-game.txt');
    await dl.saveAs(path);
    const text = readFileSync(path, 'utf8');
    check(/^1\. \S+ \S+$/m.test(text) && /result: .*wins/.test(text), `the record downloaded: ${text.split('\n').length} lines`);
    check(posts.length === 0, `the local game sent nothing to the server (${posts.join(', ') || 'no request'})`);
    await shot(page, 'local-offline.png');
    // still offline, the page opens again from the service worker's copy, game and all
    await page.reload();
    await page.locator('.moves .mv').first().waitFor({ timeout: 20000 });
    check(await page.locator('.moves .mv').count() === moves, 'reloaded offline, the local game is shown again from the offline copy');
    await context.setOffline(false);
    await page.goto(base + '/');
    await page.locator('.local-list a.local-link').first().waitFor();
    check(/Exaç · level 1/.test(await page.locator('.local-list a.local-link').first().textContent()), 'the lobby lists the local game');
    await context.close();
  });
}
