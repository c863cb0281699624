// Browser seats: an AI the creator's browser plays (seat type "browser"). The server hands
// its token to the creator, never moves for it, takes its moves like a person's, never
// rates the game, and keeps the seat a browser seat across a restart.
//
// Usage: node browser_seat.mjs <gravulien>   (with GV_SERVER_ON_PG=1 and GV_TEST_PG from
// tests/pgtmp.sh: the same on PostgreSQL)
//
// 1. Creation: Chu, the creator's seat and a browser seat at level 3, on a server that may
//    hold one AI game (--max-ai-games 1) and already holds one: the browser game is still
//    made (it takes no AI thread). Both tokens come back; the seat says "browser", its
//    level and "AI level 3 (browser)"; the game is live at once.
// 2. Refusals: rated with a browser seat, a browser seat without a valid level, a join or a
//    draw offer aimed at the browser seat.
// 3. Moves: the creator moves; no move comes from the server in 3 s; the browser seat's move
//    with a wrong token or with the creator's token is refused, with its own accepted.
// 4. The listing and the KIF record name the seat (6: Exaç's PGN).
// 5. Restart: the server stops and starts on the same database; the seat is still a
//    browser seat, still no move comes from the server, and its token still plays.
// 6. Exaç and Grav: a browser seat plays its moves there too (Grav's with its player number).
import { join } from 'node:path';
import { api, check, removeDir, runTest, sleep, startServer, tempDir } from './lib.mjs';

const bin = process.argv[2];
if (!bin) {
  console.log('usage: node browser_seat.mjs <gravulien>');
  process.exit(2);
}
const dir = tempDir('gv-bseat-');
const db = join(dir, 'games.db');
const ARGS = ['--rate', '0', '--max-ai-games', '1', '--ai-movetime', '200'];
let server = null;

const view = async (id, tok) => (await api(server.url, 'GET', `/api/games/${id}${tok ? `?token=${tok}` : ''}`)).json;

async function move(id, tok, mv, n) {
  return api(server.url, 'POST', `/api/games/${id}/move`, { token: tok, move: mv, n });
}

// Plays the first legal move of the seat holding tok; checks it is accepted.
async function playFirst(id, tok, n, what) {
  const v = await view(id, tok);
  const mv = v.you && v.you.legal_moves[0];
  const r = await move(id, tok, mv, n);
  check(r.status === 200 && r.json.n === n, `${what}: move ${n} (${mv}) accepted: ${r.status} ${r.text.slice(0, 200)}`);
  return r.json;
}

async function main() {
  server = await startServer(bin, db, ARGS);

  // 1. creation, with the AI games' limit taken by a server AI game
  const aiGame = await api(server.url, 'POST', '/api/games', {
    game: 'chu', seats: [{ type: 'human', you: true }, { type: 'ai', level: 1 }] });
  check(aiGame.status === 201, `a game with a server AI seat: ${aiGame.status}`);
  const busy = await api(server.url, 'POST', '/api/games', {
    game: 'chu', seats: [{ type: 'human', you: true }, { type: 'ai', level: 1 }] });
  check(busy.status === 503 && busy.json.code === 'busy', `a second one is refused (--max-ai-games 1): ${busy.status}`);
  const c = await api(server.url, 'POST', '/api/games', {
    game: 'chu', seats: [{ type: 'human', you: true }, { type: 'browser', level: 3 }] });
  check(c.status === 201, `a browser-seat game is made beside it: ${c.status} ${c.text.slice(0, 200)}`);
  const id = c.json.id;
  const toks = c.json.tokens || [];
  check(toks.length === 2 && toks[0].seat === 0 && toks[1].seat === 1, `both seats' tokens come back: ${JSON.stringify(toks).slice(0, 300)}`);
  check(toks[1].you === true && toks[1].type === 'browser' && toks[0].type === 'human', 'the browser seat is the creator\'s, typed "browser"');
  const me = toks[0].token, bot = toks[1].token;
  check(c.json.status === 'live', `live at once: ${c.json.status}`);
  const s1 = c.json.seats[1];
  check(s1.type === 'browser' && s1.level === 3 && s1.name === 'AI level 3 (browser)' && s1.joined === true,
    `the view's seat: ${JSON.stringify(s1)}`);
  check(c.json.rated === false || c.json.rated === undefined, 'not rated');
  const named = await api(server.url, 'POST', '/api/games', {
    game: 'chu', seats: [{ type: 'browser', level: 10, name: 'Robo' }, { type: 'human', you: true }] });
  check(named.status === 201 && named.json.seats[0].name === 'Robo' && named.json.seats[0].type === 'browser',
    `a browser seat with a name, moving first: ${named.status} ${JSON.stringify(named.json && named.json.seats)}`);

  // 2. refusals
  const rated = await api(server.url, 'POST', '/api/games', {
    game: 'chu', rated: true, seats: [{ type: 'human', you: true }, { type: 'browser', level: 3 }] });
  check(rated.status === 400 && rated.json.code === 'bad_rated', `rated with a browser seat: ${rated.status} ${rated.text}`);
  for (const lv of [0, 11, 2.5, '3']) {
    const r = await api(server.url, 'POST', '/api/games', {
      game: 'chu', seats: [{ type: 'human', you: true }, { type: 'browser', level: lv }] });
    check(r.status === 400 && r.json.code === 'bad_seats', `browser seat at level ${JSON.stringify(lv)}: ${r.status}`);
  }
  const joinBot = await api(server.url, 'POST', `/api/games/${id}/join`, { token: bot, name: 'Mallory' });
  check(joinBot.status >= 400 && joinBot.status < 500, `joining the browser seat is refused: ${joinBot.status}`);
  const draw = await api(server.url, 'POST', `/api/games/${id}/draw`, { token: me, action: 'offer' });
  check(draw.status >= 400 && draw.status < 500, `a draw offer to the browser seat is refused: ${draw.status}`);

  // 3. moves
  await playFirst(id, me, 1, 'creator');
  await sleep(3000);
  let v = await view(id);
  check(v.n === 1 && v.to_move === 1, `no move from the server in 3 s: n=${v.n}`);
  const botView = await view(id, bot);
  const botMove = botView.you && botView.you.legal_moves[0];
  check(botView.you && botView.you.seat === 1 && !!botMove, 'the browser seat\'s token sees its legal moves');
  let r = await move(id, me, botMove, 2);
  check(r.status >= 400 && r.status < 500 && r.json.code === 'not_your_turn', `its move with the creator's token is refused: ${r.status} ${r.text}`);
  r = await move(id, 'f'.repeat(32), botMove, 2);
  check(r.status >= 400 && r.status < 500, `its move with a wrong token is refused: ${r.status}`);
  r = await move(id, bot, botMove, 2);
  check(r.status === 200 && r.json.n === 2, `its move with its token is accepted: ${r.status} ${r.text.slice(0, 200)}`);

  // 4. listing and records
  const list = await api(server.url, 'GET', '/api/games?status=live');
  const entry = list.json.games.find((g) => g.id === id);
  check(entry && entry.seats[1].type === 'browser' && entry.seats[1].level === 3 && entry.seats[1].name === 'AI level 3 (browser)',
    `the listing: ${JSON.stringify(entry && entry.seats)}`);
  check(entry && entry.rated === false, 'listed unrated');
  const kif = await api(server.url, 'GET', `/api/games/${id}/record?format=kif`);
  check(kif.status === 200 && kif.text.includes('AI level 3 (browser)'), `the KIF names the seat: ${kif.text.slice(0, 300)}`);

  // 5. restart
  await server.stop();
  server = await startServer(bin, db, ARGS);
  v = await view(id);
  check(v && v.seats[1].type === 'browser' && v.seats[1].level === 3 && v.seats[1].joined === true,
    `after a restart the seat is a browser seat: ${JSON.stringify(v && v.seats[1])}`);
  await playFirst(id, me, 3, 'creator after the restart');
  await sleep(2500);
  v = await view(id);
  check(v.n === 3, `no move from the server after the restart: n=${v.n}`);
  await playFirst(id, bot, 4, 'browser seat after the restart');
  const list2 = await api(server.url, 'GET', '/api/games?status=live');
  const entry2 = list2.json.games.find((g) => g.id === id);
  check(entry2 && entry2.seats[1].type === 'browser', 'listed as a browser seat after the restart');

  // 6. Exaç and Grav
  const ex = await api(server.url, 'POST', '/api/games', {
    game: 'exac', seats: [{ type: 'human', you: true }, { type: 'browser', level: 1 }] });
  check(ex.status === 201, `Exaç with a browser seat: ${ex.status}`);
  if (ex.status === 201) {
    await playFirst(ex.json.id, ex.json.tokens[0].token, 1, 'Exaç creator');
    await playFirst(ex.json.id, ex.json.tokens[1].token, 2, 'Exaç browser seat');
    const pgn = await api(server.url, 'GET', `/api/games/${ex.json.id}/record?format=pgn`);
    check(pgn.status === 200 && pgn.text.includes('AI level 1 (browser)'), `the PGN names the seat: ${pgn.text.slice(0, 300)}`);
  }
  const gr = await api(server.url, 'POST', '/api/games', {
    game: 'grav', seats: [{ type: 'human', you: true }, { type: 'browser', level: 2 }] });
  check(gr.status === 201 && gr.json.seats[1].type === 'browser', `Grav with a browser seat: ${gr.status}`);
  if (gr.status === 201) {
    const gt = gr.json.tokens.map((t) => t.token);
    // whoever is to act plays its first legal move, a few times; each seat acts with its token
    for (let n = 1; n <= 4; n++) {
      const gv = await view(gr.json.id);
      if (gv.status !== 'live') break;
      const who = gv.to_move;
      const done = await playFirst(gr.json.id, gt[who], n, `Grav seat ${who}`);
      if (!done) break;
    }
    const gv = await view(gr.json.id);
    check(gv.n === 4 && gv.moves.some((m) => m.seat === 1), `Grav: the browser seat's moves are in: n=${gv.n}`);
  }
}

await runTest(main, async () => {
  if (server) await server.stop();
  removeDir(dir);
});
