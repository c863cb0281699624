// End-to-end test of 'gravulien serve' over loopback: real HTTP (fetch) and WebSocket (ws)
// clients against a server with its own temporary database.
// Usage: node api.mjs <path-to-gravulien>   (tests/server/run.sh build/gravulien api.mjs)
// Covers: games against the AI (chu, exac, grav), two humans (open/join/turns/refusals),
// watchers (live moves, reconnect with since=K), Grav's call window and what it must not
// reveal, resign/draw, listings, record downloads checked by 'gravulien record check',
// clocks, bad input (HTTP and WebSocket), rate limiting, a restart on the same db, and
// games left alone marked abandoned (a restart with --abandon-after 2).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import net from 'node:net';
import WebSocket from 'ws';
import { startServer, api, watcher, check, summary, sleep, tempDir, removeDir } from './lib.mjs';

const bin = process.argv[2];
if (!bin) {
  console.log('usage: node api.mjs <gravulien>');
  process.exit(2);
}

const t0 = Date.now();
const dirs = [];
const servers = [];
const watchers = [];
const allTokens = [];
let S = null; // the main server

async function cleanup() {
  for (const w of watchers) {
    try { w.ws.terminate(); } catch { /* closed */ }
  }
  for (const s of servers) {
    if (s.proc.exitCode === null && s.proc.signalCode === null) await s.kill();
  }
  for (const d of dirs) removeDir(d);
}

const guard = setTimeout(async () => {
  check(false, 'the whole test finished within 85 s');
  await cleanup();
  process.exit(summary() || 1);
}, 85000);

// ---- helpers -------------------------------------------------------------------------

const isErr = (r, status, code) =>
  r.status === status && r.json && typeof r.json.error === 'string' && r.json.error.length > 0 &&
  (code === undefined ? typeof r.json.code === 'string' : r.json.code === code);

function watch(id, since = 0, base = S.url) {
  const w = watcher(base, id, since);
  watchers.push(w);
  return w;
}

async function create(body) {
  const r = await api(S.url, 'POST', '/api/games', body);
  if (r.json && Array.isArray(r.json.tokens)) for (const t of r.json.tokens) allTokens.push(t.token);
  return r;
}
const view = (id, token) =>
  api(S.url, 'GET', `/api/games/${id}` + (token ? `?token=${token}` : ''));
const act = (id, action, body) => api(S.url, 'POST', `/api/games/${id}/${action}`, body);

// Paths where two JSON values differ (type, key set, length or leaf value).
function diffPaths(a, b, path = '', out = []) {
  const ta = a === null ? 'null' : Array.isArray(a) ? 'array' : typeof a;
  const tb = b === null ? 'null' : Array.isArray(b) ? 'array' : typeof b;
  if (ta !== tb) {
    out.push(`type:${path}`);
  } else if (ta === 'array') {
    if (a.length !== b.length) out.push(`len:${path}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) diffPaths(a[i], b[i], `${path}.${i}`, out);
  } else if (ta === 'object') {
    const ka = Object.keys(a).sort().join(','), kb = Object.keys(b).sort().join(',');
    if (ka !== kb) out.push(`keys:${path}`);
    for (const k of Object.keys(a)) if (k in b) diffPaths(a[k], b[k], `${path}.${k}`, out);
  } else if (a !== b) {
    out.push(path);
  }
  return out;
}

async function waitFor(fn, ms = 10000, step = 50) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) return null;
    await sleep(step);
  }
}

// Picks a move from legal moves: deterministic, avoiding passes, calls and resignations.
function pick(legal, k) {
  const acc = legal.find((m) => / accept$/.test(m));
  if (acc) return acc;
  const ok = legal.filter((m) => !/ (pass|grav|resign)$/.test(m));
  const from = ok.length ? ok : legal;
  return from[(k * 7 + 3) % from.length];
}

function recordCheck(game, text, tag) {
  const dir = tempDir('gv-rec-');
  dirs.push(dir);
  const f = join(dir, 'record');
  writeFileSync(f, text);
  const r = spawnSync(bin, ['record', game, 'check', f], { encoding: 'utf8', timeout: 20000 });
  return check(r.status === 0, `${tag}: 'record ${game} check' succeeds (${(r.stderr || r.stdout || '').trim().slice(0, 200)})`);
}

// ---- 1. a game against the AI --------------------------------------------------------

async function versusAi(game, options) {
  const tag = `ai ${game}`;
  const c = await create({ game, options, seats: [{ type: 'human', you: true, name: 'Tester' }, { type: 'ai', level: 1 }] });
  if (!check(c.status === 201 && c.json && c.json.id, `${tag}: create is 201 with an id (${c.status} ${c.text.slice(0, 200)})`)) return null;
  const g = c.json;
  check(g.status === 'live' && g.n === 0 && g.to_move === 0, `${tag}: created live, n 0, seat 0 to move`);
  check(g.tokens.length === 1 && g.tokens[0].seat === 0 && /^[0-9a-f]{32}$/.test(g.tokens[0].token) &&
        g.tokens[0].you === true && g.tokens[0].link.includes(g.id), `${tag}: one token for the human seat`);
  check(g.seats[1].type === 'ai' && g.seats[1].level === 1 && g.seats[1].joined === true, `${tag}: the AI seat is shown`);
  const tok = g.tokens[0].token;
  const id = g.id;
  const w = watch(id);
  await w.opened;
  const st = await w.wait((m) => m.type === 'state');
  check(st.id === id && st.n === 0 && Array.isArray(st.moves) && !('you' in st), `${tag}: the watcher's first message is the state`);
  const startPos = g.position;
  const mine = [];
  let lastPos = startPos;
  for (let guard = 0; mine.length < 3 && guard < 40; guard++) {
    const v = (await view(id, tok)).json;
    if (v.status !== 'live') break;
    if (v.to_move !== 0) {
      await w.wait((m) => m.type === 'move' && m.n > v.n, 15000).catch(() => null);
      continue;
    }
    const legal = v.you.legal_moves;
    check(Array.isArray(legal) && legal.length > 0 && legal.every((m) => typeof m === 'string' && m.length > 0),
          `${tag}: legal_moves is a non-empty list of strings`);
    const mv = pick(legal, mine.length);
    const r = await act(id, 'move', { token: tok, move: mv, n: v.n + 1 });
    check(r.status === 200 && r.json.n >= v.n + 1 && r.json.moves[v.n].move === mv && r.json.moves[v.n].seat === 0,
          `${tag}: move '${mv}' accepted (${r.status} ${r.text.slice(0, 160)})`);
    check(r.json && r.json.position !== lastPos, `${tag}: the position changed after '${mv}'`);
    check(r.json && r.json.you && r.json.you.seat === 0, `${tag}: the move's reply is the seat's view`);
    lastPos = r.json && r.json.position;
    mine.push({ n: v.n + 1, mv });
  }
  const vEnd = (await view(id)).json;
  check(mine.length === 3 || (vEnd.status === 'finished' && mine.length >= 1), `${tag}: three moves (or fewer when the AI won) made by HTTP (${mine.map((m) => m.mv).join(' ')}; ${vEnd.status} ${JSON.stringify(vEnd.result)} ${vEnd.moves.map((m) => m.move).join(' ')})`);
  // The AI answers: wait until it is the human's turn again (or the game ended). In Grav
  // that can be at once: when the human's last action answered the AI's placement, the
  // human places next and the AI has nothing to answer yet.
  const fin = await waitFor(async () => {
    const v = (await view(id, tok)).json;
    return v.status !== 'live' || v.to_move === 0 ? v : null;
  }, 60000);
  if (!check(fin, `${tag}: the AI answered the last move`)) return { id, tok, game };
  await w.wait((m) => m.type === 'move' && m.n === fin.n, 5000).catch(() => null);
  const evs = w.msgs.filter((m) => m.type === 'move');
  check(evs.length === fin.n && evs.every((m, i) => m.n === i + 1 && m.move.n === i + 1 && m.id === id),
        `${tag}: every move arrived on the watcher as a 'move' event with n 1..${fin.n} (${evs.map((m) => m.n).join(',')})`);
  const aiEv = evs.filter((m) => m.move.seat === 1);
  check(aiEv.length >= Math.min(mine.length, game === 'grav' ? 2 : 3) && aiEv.every((m) => typeof m.move.move === 'string' && m.move.move.length > 0),
        `${tag}: the AI's replies arrived as move events (${aiEv.length})`);
  check(fin.moves.length === fin.n && fin.moves.every((m, i) => m.n === i + 1 && m.move === evs[i].move.move && m.seat === evs[i].move.seat),
        `${tag}: the view's moves list matches the events`);
  for (const m of mine) check(fin.moves[m.n - 1].move === m.mv, `${tag}: move ${m.n} is '${m.mv}' in the view`);
  if (game !== 'grav')
    check(fin.moves.every((m, i) => m.seat === i % 2), `${tag}: seats alternate`);
  if (fin.status === 'finished') {
    // The AI may win a short game (an Exac yachi falls in a few plies): then it ends properly.
    const end = await w.wait((m) => m.type === 'end', 3000).catch(() => null);
    check(fin.to_move === null && fin.result && end && JSON.stringify(end.result) === JSON.stringify(fin.result),
          `${tag}: the game ended early (${JSON.stringify(fin.result)}): the end event says so`);
  }
  check((fin.status === 'finished' ? fin.to_move === null : fin.to_move === 0) && fin.position !== startPos && evs[evs.length - 1].position === fin.position,
        `${tag}: to_move, position agree with the last event (${fin.status} ${fin.to_move} ${JSON.stringify(fin.result)} ${fin.moves.map((m) => m.move).join(' ')})`);
  return { id, tok, game, n: fin.n };
}

// ---- main ----------------------------------------------------------------------------

async function main() {
  const dbDir = tempDir();
  dirs.push(dbDir);
  const db = join(dbDir, 'games.db');
  S = await startServer(bin, db, ['--rate', '0', '--ai-movetime', '50', '--ai-threads', '2']);
  servers.push(S);

  const h = await api(S.url, 'GET', '/api/health');
  check(h.status === 200 && h.json.ok === true, 'health answers');
  const meta = (await api(S.url, 'GET', '/api/meta')).json;
  const formats = Object.fromEntries(meta.games.map((g) => [g.name, g.record_formats]));
  check(formats.chu && formats.exac && formats.grav, 'meta lists chu, exac and grav');

  // 1. Against the AI: the three games at once.
  const gravOpts = { size: 5, seed: 12345, a: 3, b: 3, c: 6, d: 1, e: 4 };
  const [aiChu, aiExac, aiGrav] = await Promise.all([
    versusAi('chu'), versusAi('exac'), versusAi('grav', gravOpts),
  ]);
  if (aiGrav) {
    const v = (await view(aiGrav.id)).json;
    check(v.grav && v.grav.size === 5 && v.grav.params.a === 3 && v.grav.params.e === 4 && v.grav.seed === '12345',
          'ai grav: the view shows the fixed size, parameters and seed');
  }
  if (aiChu) {
    const r = await act(aiChu.id, 'draw', { token: aiChu.tok, action: 'offer' });
    check(isErr(r, 422, 'refused'), `draw offered to an AI is refused (${r.status})`);
  }

  // 2. Two humans (Exac): open until the second seat joins.
  const c = await create({ game: 'exac', seats: [{ type: 'human', you: true, name: 'Alice' }, { type: 'human' }] });
  check(c.status === 201 && c.json.status === 'open' && c.json.to_move === null && c.json.n === 0, 'exac 2p: created open');
  const ex = c.json.id;
  const T = c.json.tokens.map((t) => t.token);
  check(c.json.tokens.length === 2 && c.json.tokens[0].you === true && c.json.tokens[1].you === false &&
        T[0] !== T[1], 'exac 2p: two tokens, the creator\'s seat taken');
  check(c.json.seats[0].joined === true && c.json.seats[1].joined === false && c.json.seats[0].name === 'Alice', 'exac 2p: seats show who joined');
  let r = await act(ex, 'move', { token: T[0], move: 'a2a3' });
  check(isErr(r, 422, 'refused'), `exac 2p: a move before the second player joins is refused (${r.status} ${r.text.slice(0, 100)})`);
  const openList = (await api(S.url, 'GET', '/api/games?status=open')).json;
  check(openList.games.some((g) => g.id === ex && g.status === 'open'), 'exac 2p: listed as open');
  check((await view(ex)).json.n === 0, 'exac 2p: the refused move changed nothing');
  const wA = watch(ex), wB = watch(ex);
  await Promise.all([wA.opened, wB.opened]);
  await Promise.all([wA.wait((m) => m.type === 'state'), wB.wait((m) => m.type === 'state')]);
  r = await act(ex, 'join', { token: T[1], name: 'Bob' });
  check(r.status === 200 && r.json.status === 'live' && r.json.to_move === 0 && r.json.seats[1].joined && r.json.seats[1].name === 'Bob' &&
        r.json.you.seat === 1, `exac 2p: the second player joins, the game is live (${r.status})`);
  const je = await wA.wait((m) => m.type === 'join').catch(() => null);
  check(je && je.status === 'live', 'exac 2p: watchers get a join event');
  r = await act(ex, 'join', { token: T[1] });
  check(r.status === 200 && r.json.status === 'live', 'exac 2p: joining again is harmless');
  const played = [];
  for (let k = 0; k < 6; k++) {
    const side = k % 2;
    const v = (await view(ex, T[side])).json;
    const vo = (await view(ex, T[1 - side])).json;
    check(v.to_move === side && v.n === k && v.you.legal_moves.length > 0, `exac 2p: ply ${k + 1}: seat ${side} to move with legal moves`);
    check(vo.you.legal_moves.length === 0, `exac 2p: ply ${k + 1}: the other seat has no legal moves`);
    const mv = pick(v.you.legal_moves, k);
    r = await act(ex, 'move', { token: T[1 - side], move: mv });
    check(isErr(r, 409, 'not_your_turn'), `exac 2p: '${mv}' with the other seat's token is refused (${r.status} ${r.text.slice(0, 80)})`);
    if (k === 0) {
      r = await act(ex, 'move', { token: T[0], move: mv, n: 5 });
      check(isErr(r, 409, 'out_of_date'), `exac 2p: a move with a stale n is refused (${r.status})`);
      r = await act(ex, 'move', { token: T[0], move: 'z9z9' });
      check(isErr(r, 422, 'refused'), `exac 2p: an illegal move text is refused (${r.status})`);
      r = await act(ex, 'move', { token: T[0], move: 'x'.repeat(300) });
      check(isErr(r, 400, 'bad_request'), `exac 2p: an over-long move text is refused (${r.status})`);
      r = await act(ex, 'move', { token: T[0], move: 42 });
      check(isErr(r, 400, 'bad_request'), `exac 2p: a move that is not a string is refused (${r.status})`);
      r = await act(ex, 'move', { move: mv });
      check(isErr(r, 403, 'no_token'), `exac 2p: a move without a token is refused (${r.status})`);
      r = await act(ex, 'move', { token: 'f'.repeat(32), move: mv });
      check(isErr(r, 403, 'bad_token'), `exac 2p: a move with a wrong token is refused (${r.status})`);
      r = await act(ex, 'move', { token: T[0].slice(0, 31), move: mv });
      check(isErr(r, 403, 'bad_token'), `exac 2p: a move with a token prefix is refused (${r.status})`);
      r = await act(ex, 'fly', { token: T[0] });
      check(isErr(r, 404, 'not_found'), `exac 2p: an unknown action is 404 (${r.status})`);
      r = await view(ex, 'f'.repeat(32));
      check(isErr(r, 403, 'bad_token'), `exac 2p: a view with a wrong token is refused (${r.status})`);
      check((await view(ex)).json.n === 0, 'exac 2p: the refusals changed nothing (n 0)');
    }
    r = await act(ex, 'move', { token: T[side], move: mv, n: k + 1 });
    check(r.status === 200 && r.json.n === k + 1 && r.json.to_move === 1 - side, `exac 2p: ply ${k + 1} '${mv}' (${r.status} ${r.text.slice(0, 100)})`);
    played.push(mv);
    if (k === 1) {
      // the other seat moving out of turn with one of its own-looking moves
      const v2 = (await view(ex, T[0])).json;
      r = await act(ex, 'move', { token: T[1], move: pick(v2.you.legal_moves, 0) });
      check(isErr(r, 409, 'not_your_turn') && (await view(ex)).json.n === 2, `exac 2p: out of turn refused, n unchanged (${r.status})`);
    }
  }
  for (const [nm, w] of [['A', wA], ['B', wB]]) {
    await w.wait((m) => m.type === 'move' && m.n === 6, 5000).catch(() => null);
    const evs = w.msgs.filter((m) => m.type === 'move');
    check(evs.length === 6 && evs.every((m, i) => m.n === i + 1 && m.move.move === played[i] && m.move.seat === i % 2 && !m.catch_up),
          `exac 2p: watcher ${nm} saw every move live (${evs.map((m) => m.move.move).join(' ')})`);
  }

  // 3. Reconnect with since=K.
  wA.close();
  await sleep(100);
  for (let k = 6; k < 8; k++) {
    const side = k % 2;
    const v = (await view(ex, T[side])).json;
    const mv = pick(v.you.legal_moves, k);
    r = await act(ex, 'move', { token: T[side], move: mv, n: k + 1 });
    check(r.status === 200, `exac 2p: ply ${k + 1} while watcher A is away`);
    played.push(mv);
  }
  const wC = watch(ex, 6);
  await wC.opened;
  const stC = await wC.wait((m) => m.type === 'state').catch(() => null);
  const idx = wC.msgs.indexOf(stC);
  const before = wC.msgs.slice(0, idx);
  check(stC && stC.n === 8 && stC.moves.length === 8, 'reconnect: the state message has the current n (8)');
  check(before.length === 1 && before[0].type === 'moves' && before[0].catch_up === true && before[0].id === ex &&
        before[0].moves.length === 2 && before[0].moves.every((m, i) => m.n === 7 + i && m.move === played[6 + i] && m.seat === i % 2),
        `reconnect: since=6 gives exactly moves 7 and 8 in one catch-up message, then the state (${before.map((m) => m.type + (m.moves ? m.moves.map((x) => x.n) : '')).join(',')})`);
  // since in the URL, since=0, since beyond n
  const wsU = new WebSocket(`${S.url.replace('http', 'ws')}/ws?game=${ex}&since=7`);
  const uMsgs = [];
  wsU.on('message', (d) => uMsgs.push(JSON.parse(d.toString())));
  await waitFor(() => uMsgs.some((m) => m.type === 'state'), 3000);
  check(uMsgs.length === 2 && uMsgs[0].type === 'moves' && uMsgs[0].moves.length === 1 && uMsgs[0].moves[0].n === 8 && uMsgs[1].type === 'state',
        `reconnect: /ws?game=ID&since=7 gives move 8 then the state (${uMsgs.map((m) => m.type).join(',')})`);
  wsU.close();
  const w0 = watch(ex, 0), w99 = watch(ex, 99);
  await Promise.all([w0.opened, w99.opened]);
  await Promise.all([w0.wait((m) => m.type === 'state'), w99.wait((m) => m.type === 'state')]).catch(() => null);
  check(w0.msgs.filter((m) => m.type === 'moves').flatMap((m) => m.moves).map((m) => m.n).join() === '1,2,3,4,5,6,7,8',
        'reconnect: since=0 replays all 8 moves');
  check(w99.msgs.length === 1 && w99.msgs[0].type === 'state', 'reconnect: since beyond n gives only the state');

  // 5. Draw offer/accept (exac), then the game is over.
  r = await act(ex, 'draw', { token: T[0], action: 'offer' });
  check(r.status === 200 && JSON.stringify(r.json.draw_offers) === '[0]', `draw: seat 0 offers (${r.status} ${r.text.slice(0, 80)})`);
  check(await wB.wait((m) => m.type === 'draw' && m.draw_offers.includes(0)).catch(() => null), 'draw: watchers get a draw event');
  r = await act(ex, 'draw', { token: T[0], action: 'accept' });
  check(isErr(r, 422, 'refused'), 'draw: accepting one\'s own offer is refused');
  r = await act(ex, 'draw', { token: T[1], action: 'decline' });
  check(r.status === 200 && r.json.draw_offers.length === 0 && r.json.status === 'live', 'draw: seat 1 declines');
  r = await act(ex, 'draw', { token: T[1], action: 'maybe' });
  check(isErr(r, 422, 'refused'), 'draw: an unknown draw action is refused');
  r = await act(ex, 'draw', { token: T[1] });
  check(isErr(r, 400, 'bad_request'), 'draw: a draw request without an action is refused');
  r = await act(ex, 'draw', { token: T[0], action: 'offer' });
  r = await act(ex, 'draw', { token: T[1], action: 'accept' });
  check(r.status === 200 && r.json.status === 'finished' && r.json.result && r.json.result.status === 'draw' &&
        r.json.result.winner === null && r.json.result.reason === 'agreement' && r.json.to_move === null,
        `draw: seat 1 accepts: a draw by agreement (${r.text.slice(0, 120)})`);
  const endEv = await wB.wait((m) => m.type === 'end').catch(() => null);
  check(endEv && endEv.result && endEv.result.reason === 'agreement' && endEv.status === 'finished', 'draw: watchers get the end event');
  r = await act(ex, 'move', { token: T[0], move: 'a2a3' });
  check(isErr(r, 422, 'refused') && (await view(ex)).json.n === 8, 'draw: a move after the end is refused');
  r = await act(ex, 'resign', { token: T[0] });
  check(isErr(r, 422, 'refused'), 'draw: resigning after the end is refused');

  // Resign (chu between two humans).
  let cc = await create({ game: 'chu', seats: [{ type: 'human', you: true }, { type: 'human' }] });
  const chu2 = cc.json.id, TC = cc.json.tokens.map((t) => t.token);
  await act(chu2, 'join', { token: TC[1] });
  const wR = watch(chu2);
  await wR.opened;
  let v = (await view(chu2, TC[0])).json;
  r = await act(chu2, 'move', { token: TC[0], move: pick(v.you.legal_moves, 1) });
  check(r.status === 200 && r.json.n === 1, 'resign: chu 2p first move');
  r = await act(chu2, 'resign', { token: TC[1] });
  check(r.status === 200 && r.json.status === 'finished' && r.json.result.status === 'win' && r.json.result.winner === 0 &&
        r.json.result.reason === 'resignation', `resign: seat 1 resigns, seat 0 wins (${r.text.slice(0, 120)})`);
  const endR = await wR.wait((m) => m.type === 'end').catch(() => null);
  check(endR && endR.result && endR.result.winner === 0, 'resign: the watcher gets the end event');

  // A chu game between two humans that stays live (for the restart).
  cc = await create({ game: 'chu', seats: [{ type: 'human', you: true }, { type: 'human' }] });
  const keep = cc.json.id, TK = cc.json.tokens.map((t) => t.token);
  await act(keep, 'join', { token: TK[1] });
  for (let k = 0; k < 3; k++) {
    v = (await view(keep, TK[k % 2])).json;
    r = await act(keep, 'move', { token: TK[k % 2], move: pick(v.you.legal_moves, k), n: k + 1 });
    check(r.status === 200, `keep: chu ply ${k + 1}`);
  }

  // 4. Grav between two humans: the call window.
  await gravWindow();

  // Listings.
  const lf = await api(S.url, 'GET', '/api/games?status=finished');
  const ll = await api(S.url, 'GET', '/api/games?status=live');
  const la = await api(S.url, 'GET', '/api/games');
  check(lf.status === 200 && lf.json.games.some((g) => g.id === ex && g.result && g.result.reason === 'agreement') &&
        lf.json.games.some((g) => g.id === chu2 && g.result && g.result.winner === 0), 'listing: finished has the draw and the resignation');
  check(lf.json.games.every((g) => g.status === 'finished'), 'listing: finished lists only finished games');
  check(ll.status === 200 && ll.json.games.some((g) => g.id === keep && g.n === 3) && !ll.json.games.some((g) => g.id === ex) &&
        ll.json.games.every((g) => g.status === 'live'), 'listing: live has the live game, not the finished ones');
  for (const a of [aiChu, aiExac, aiGrav]) {
    if (!a) continue;
    const st = (await view(a.id)).json.status;
    check((st === 'live') === ll.json.games.some((g) => g.id === a.id), `listing: the AI ${a.game} game (${st}) is listed as live iff it is`);
  }
  check(la.status === 200 && !la.json.games.some((g) => g.status === 'finished'), 'listing: no status lists the unfinished games');
  const l1 = await api(S.url, 'GET', '/api/games?status=finished&limit=1');
  check(l1.status === 200 && l1.json.games.length === 1, 'listing: limit=1');
  check(isErr(await api(S.url, 'GET', '/api/games?status=won'), 400, 'bad_request'), 'listing: bad status is 400');
  check(isErr(await api(S.url, 'GET', '/api/games?limit=0'), 400, 'bad_request'), 'listing: limit 0 is 400');

  // 6. Records.
  const recGames = [[aiChu, 'chu'], [aiExac, 'exac'], [aiGrav, 'grav'], [{ id: ex }, 'exac'], [{ id: chu2 }, 'chu']];
  for (const [g, game] of recGames) {
    if (!g) continue;
    for (const f of formats[game]) {
      const res = await fetch(`${S.url}/api/games/${g.id}/record?format=${f}`);
      const text = await res.text();
      const cd = res.headers.get('content-disposition') || '';
      check(res.status === 200 && /^attachment; filename="gravulien-[a-z]+-[a-z0-9]+\.[a-z]+"$/.test(cd) && cd.includes(g.id),
            `record ${game} ${f}: 200 with an attachment (${res.status} ${cd})`);
      recordCheck(game, text, `record ${game} ${f} of ${g.id}`);
    }
  }
  r = await api(S.url, 'GET', `/api/games/${ex}/record?format=kif`);
  check(isErr(r, 400, 'bad_format'), 'record: a format the game has not is 400');

  // 7. Clocks: nobody moves, the game ends on time.
  await clocks();
  await bearer();

  // 8. Bad input.
  await badInput(ex, T);
  await badWebSocket(ex);
  await flood(dbDir);

  // Tokens never appear in listings, public views or watcher messages.
  const texts = [];
  for (const st of ['open', 'live', 'finished']) texts.push((await api(S.url, 'GET', `/api/games?status=${st}&limit=200`)).text);
  const ids = new Set();
  for (const t of texts) for (const g of JSON.parse(t).games) ids.add(g.id);
  for (const id of ids) texts.push((await view(id)).text);
  texts.push((await view(ex, T[0])).text, (await view(keep, TK[1])).text);
  for (const w of watchers) for (const m of w.msgs) texts.push(JSON.stringify(m));
  const all = texts.join('\n');
  check(allTokens.length > 10 && allTokens.every((t) => !all.includes(t)), `tokens never appear in listings, views or watcher messages (${allTokens.length} tokens, ${ids.size} games)`);
  check(!/"token"/.test(all), 'no "token" field in listings, views or watcher messages');

  // 9. Restart on the same database.
  const snap = {};
  for (const id of [keep, ex, aiChu && aiChu.id, aiGrav && aiGrav.id].filter(Boolean)) snap[id] = (await view(id)).json;
  const t1 = Date.now();
  const ex1 = await S.stop();
  check(ex1.code === 0 && Date.now() - t1 < 5000, `restart: SIGTERM stops the server cleanly (code ${ex1.code}, ${Date.now() - t1} ms)`);
  S = await startServer(bin, db, ['--rate', '0', '--ai-movetime', '50', '--threads', '2']);
  servers.push(S);
  for (const [id, before] of Object.entries(snap)) {
    const after = (await view(id)).json;
    check(after && after.status === before.status && after.n === before.n && after.position === before.position &&
          JSON.stringify(after.moves) === JSON.stringify(before.moves) && JSON.stringify(after.result) === JSON.stringify(before.result) &&
          JSON.stringify(after.seats) === JSON.stringify(before.seats),
          `restart: game ${id} (${before.game}, ${before.status}) is back with the same moves and state`);
  }
  v = (await view(keep, TK[1])).json;
  r = await act(keep, 'move', { token: TK[1], move: pick(v.you.legal_moves, 5), n: 4 });
  check(r.status === 200 && r.json.n === 4, `restart: the chu game goes on (${r.status})`);
  if (aiChu) {
    const wX = watch(aiChu.id, snap[aiChu.id].n);
    await wX.opened;
    v = (await view(aiChu.id, aiChu.tok)).json;
    r = await act(aiChu.id, 'move', { token: aiChu.tok, move: pick(v.you.legal_moves, 9), n: v.n + 1 });
    check(r.status === 200, 'restart: a move in the AI game');
    const ai = await wX.wait((m) => m.type === 'move' && m.n === v.n + 2 && m.move.seat === 1, 15000).catch(() => null);
    check(ai, 'restart: the AI answers after the restart');
  }
  // --threads 2: a level-10 seat searches with two threads (the shared table) and answers.
  const c10 = await create({ game: 'exac', seats: [{ type: 'human', you: true }, { type: 'ai', level: 10 }] });
  if (check(c10.status === 201, `--threads 2: a game against level 10 (${c10.status})`)) {
    const tok10 = c10.json.tokens[0].token;
    const w10 = watch(c10.json.id, 0);
    await w10.opened;
    v = (await view(c10.json.id, tok10)).json;
    r = await act(c10.json.id, 'move', { token: tok10, move: pick(v.you.legal_moves, 3), n: 1 });
    const ans = await w10.wait((m) => m.type === 'move' && m.n === 2 && m.move.seat === 1, 15000).catch(() => null);
    check(r.status === 200 && ans, '--threads 2: the level-10 AI answers');
  }
  check((await api(S.url, 'GET', '/api/health')).status === 200, 'health answers at the end');

  // 10. Abandoned games: the same database, a server that abandons games left 2 s.
  await abandoned(db);
}

// ---- 10. abandoned games ----------------------------------------------------------------

const listed = async (query, id) => (await api(S.url, 'GET', `/api/games${query}`)).json.games.some((g) => g.id === id);

async function abandoned(db) {
  await S.stop();
  S = await startServer(bin, db, ['--rate', '0', '--ai-movetime', '50', '--abandon-after', '2']);
  servers.push(S);
  const open = await create({ game: 'exac', seats: [{ type: 'human', you: true, name: 'Ann' }, { type: 'human' }] });
  const live = await create({ game: 'chu', seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
  const clocked = await create({ game: 'exac', seats: [{ type: 'human', you: true }, { type: 'human', you: true }], clock: { initial: 600 } });
  const [L0, L1] = live.json.tokens.map((t) => t.token);
  let r = await act(live.json.id, 'move', { token: L0, move: '7i7h', n: 1 });
  check(r.status === 200, `abandon: a move in the live game (${r.status})`);
  const w = watch(live.json.id, 1);
  await w.opened;
  check(await listed('?status=open', open.json.id) && await listed('?status=live', live.json.id) && await listed('', live.json.id),
        'abandon: the new games are listed while they are fresh');
  const end = await w.wait((m) => m.type === 'end', 8000).catch(() => null);
  check(end && end.status === 'abandoned' && end.result === null && end.n === 1,
        `abandon: the watcher is told the game was abandoned (${end ? JSON.stringify({ status: end.status, n: end.n, result: end.result }) : 'no end event'})`);
  await waitFor(async () => !(await listed('?status=open', open.json.id)), 5000);
  for (const [q, id, want] of [['?status=open', open.json.id, false], ['', open.json.id, false], ['?status=abandoned', open.json.id, true],
    ['?status=live', live.json.id, false], ['', live.json.id, false], ['?status=abandoned', live.json.id, true],
    ['?status=finished', live.json.id, false], ['?status=live', clocked.json.id, true]]) {
    check(await listed(q, id) === want, `abandon: listing ${q || '(in progress)'} ${want ? 'has' : 'has not'} ${id === clocked.json.id ? 'the clocked game' : id === open.json.id ? 'the open game' : 'the live game'}`);
  }
  const v = (await view(live.json.id)).json;
  check(v.status === 'abandoned' && v.n === 1 && v.result === null && v.to_move === null, `abandon: the game stays readable by id, with its move (${v.status}, n ${v.n})`);
  const o = (await view(open.json.id)).json;
  check(o.status === 'abandoned' && o.seats[0].name === 'Ann' && o.seats[1].name === 'Guest', 'abandon: the open game keeps its seats');
  r = await api(S.url, 'GET', `/api/games/${live.json.id}/record?format=kif`);
  check(r.status === 200 && recordCheck('chu', r.text, 'abandon: the record'), 'abandon: the record downloads');
  r = await act(live.json.id, 'move', { token: L1, move: '7d7e', n: 2 });
  check(isErr(r, 422, 'refused') && /abandoned/.test(r.json.error), `abandon: a move is refused (${r.status} ${r.json && r.json.error})`);
  r = await act(open.json.id, 'join', { token: open.json.tokens[1].token, name: 'Bob' });
  check(isErr(r, 422, 'refused'), `abandon: joining is refused (${r.status})`);
  check((await view(clocked.json.id)).json.status === 'live', 'abandon: a game with a clock is left to its clock');
}

// ---- 4. Grav's window ----------------------------------------------------------------

async function gravWindow() {
  const opts = { size: 5, seed: 7, a: 3, b: 2, c: 2, d: 1, e: 2 };
  const mk = async () => {
    const c = await create({ game: 'grav', options: opts, seats: [{ type: 'human', you: true }, { type: 'human' }] });
    const id = c.json.id, T = c.json.tokens.map((t) => t.token);
    await act(id, 'join', { token: T[1] });
    return { id, T };
  };
  const A = await mk(), B = await mk();
  check(A.id && B.id, 'grav 2p: two identical games created');
  let r = await act(A.id, 'draw', { token: A.T[0], action: 'offer' });
  check(isErr(r, 422, 'refused'), `grav 2p: a draw offer is refused in Grav (${r.status})`);
  // Stone 1 by seat 0, explicitly accepted by seat 1.
  for (const g of [A, B]) {
    r = await act(g.id, 'move', { token: g.T[0], move: '1 place c3', n: 1 });
    check(r.status === 200 && r.json.grav.phase === 'window' && r.json.to_move === 1 && r.json.grav.pending &&
          r.json.grav.pending.point === 'c3' && r.json.grav.pending.seat === 0, `grav 2p: '1 place c3' opens the window (${r.text.slice(0, 100)})`);
    const vo = (await view(g.id, g.T[1])).json;
    check(vo.you.legal_moves.includes('2 accept') && vo.you.legal_moves.includes('2 grav'), 'grav 2p: the other seat may accept or call');
    check(typeof vo.analysis_closed === 'string' && /awaits its answers/.test(vo.analysis_closed),
          `grav 2p: while the window is open the view closes the analysis (${vo.analysis_closed})`);
    r = await act(g.id, 'move', { token: g.T[1], move: '2 accept', n: 2 });
    check(r.status === 200 && r.json.grav.phase === 'turn' && r.json.to_move === 1 && r.json.grav.board[12] === 1,
          `grav 2p: '2 accept': the stone stands, seat 1 to place (${r.text.slice(0, 100)})`);
    check(!('analysis_closed' in r.json), 'grav 2p: once the window has closed, the analysis is open again');
  }
  // Seat 1 finds, with its own hints, a violating and a non-violating point.
  r = await act(A.id, 'hint', { token: A.T[0], point: 'a1' });
  check(isErr(r, 422, 'refused'), `grav 2p: the hint is refused to the seat not placing (${r.status})`);
  let bad = null, good = null;
  for (const p of ['a1', 'e5', 'a5', 'e1', 'b2', 'c4', 'd3', 'c2', 'b3']) {
    r = await act(A.id, 'hint', { token: A.T[1], point: p });
    if (!check(r.status === 200 && typeof r.json.violates === 'boolean' && Array.isArray(r.json.rules), `grav 2p: hint for ${p}`)) break;
    if (r.json.violates && !bad) bad = p;
    if (!r.json.violates && !good) good = p;
    if (bad && good) break;
  }
  r = await act(A.id, 'hint', { token: A.T[1], point: 'c3' });
  check(isErr(r, 422, 'refused'), 'grav 2p: a hint on an occupied point is refused');
  r = await act(A.id, 'hint', { token: A.T[1], point: 'z9' });
  check(isErr(r, 422, 'refused'), 'grav 2p: a hint on no point is refused');
  if (!check(bad && good, `grav 2p: the hints found a violating (${bad}) and a legal (${good}) point`)) return;
  const wa = watch(A.id), wb = watch(B.id);
  await Promise.all([wa.opened, wb.opened]);
  await Promise.all([wa.wait((m) => m.type === 'state'), wb.wait((m) => m.type === 'state')]);
  r = await act(A.id, 'move', { token: A.T[1], move: `2 place ${bad}`, n: 3 });
  const rb = await act(B.id, 'move', { token: B.T[1], move: `2 place ${good}`, n: 3 });
  check(r.status === 200 && rb.status === 200 && r.json.grav.phase === 'window' && rb.json.grav.phase === 'window',
        'grav 2p: both placements open a window');
  const ea = await wa.wait((m) => m.type === 'move' && m.n === 3).catch(() => null);
  const eb = await wb.wait((m) => m.type === 'move' && m.n === 3).catch(() => null);
  // What anyone but the placer sees must not depend on the verdict.
  const ia = 'abcde'.indexOf(bad[0]) + 5 * (Number(bad.slice(1)) - 1);
  const ib = 'abcde'.indexOf(good[0]) + 5 * (Number(good.slice(1)) - 1);
  const allowed = (p) => /^\.(id|position|created|updated|moves\.\d+\.(at|move|texts\.words)|move\.(at|move|texts\.words)|grav\.(pending\.point|last|reference))$/.test(p) ||
    p === `.grav.board.${ia}` || p === `.grav.board.${ib}`;
  // The placement in words names its point, and nothing else differs.
  const words = (e, pt) => (e && e.move && e.move.texts ? e.move.texts.words : '').replace(pt, '·');
  check(words(ea, bad) === words(eb, good) && words(ea, bad) === 'P2 places ·',
        `grav window: the placement in words differs only by its point (${ea && ea.move.texts.words} / ${eb && eb.move.texts.words})`);
  // The caller's legal moves differ only in the occupied point: leave out placements there.
  const noPt = (v) => {
    if (v && v.you) v.you.legal_moves = v.you.legal_moves.filter((m) => m !== `1 place ${bad}` && m !== `1 place ${good}`);
    return v;
  };
  const cva = noPt((await view(A.id, A.T[0])).json), cvb = noPt((await view(B.id, B.T[0])).json);
  check(cva.you.legal_moves.includes('1 accept') && cva.you.legal_moves.includes('1 grav') && cva.you.can_hint === false,
        'grav window: the caller may accept or call, and has no hint');
  const pairs = [
    ['public view', (await view(A.id)).json, (await view(B.id)).json],
    ['the caller\'s view', cva, cvb],
    ['the move event', ea, eb],
  ];
  const wa2 = watch(A.id), wb2 = watch(B.id);
  await Promise.all([wa2.opened, wb2.opened]);
  pairs.push(['a new watcher\'s state',
    await wa2.wait((m) => m.type === 'state').catch(() => null), await wb2.wait((m) => m.type === 'state').catch(() => null)]);
  const recA = await api(S.url, 'GET', `/api/games/${A.id}/record?format=json`);
  const recB = await api(S.url, 'GET', `/api/games/${B.id}/record?format=json`);
  pairs.push(['the record', recA.json, recB.json]);
  for (const [what, a, b] of pairs) {
    const d = diffPaths(a, b).filter((p) => !allowed(p) && !/^\.events\.\d+\.q\.\d$/.test(p));
    check(a && b && d.length === 0, `grav window: ${what} is the same for a violating and a legal stone but for the point (differs at ${d.join(' ')})`);
  }
  const pa = pairs[0][1].position.split(' '), pb = pairs[0][2].position.split(' ');
  check(pa.length === pb.length && pa.every((t, i) => t === pb[i] || /^(board|order|pending)=/.test(t)),
        'grav window: the position texts differ only in board, order and pending');
  check(!/viol|correct|verdict/.test(JSON.stringify(pairs.map((p) => p.slice(1)))), 'grav window: no field names a verdict');
  // Nobody else may use the placer's hint now, and the placer may not act in the window.
  r = await act(A.id, 'hint', { token: A.T[0], point: bad });
  check(isErr(r, 422, 'refused'), `grav window: the other seat's hint is refused (${r.status})`);
  r = await act(A.id, 'hint', { token: A.T[1], point: 'b1' });
  check(isErr(r, 422, 'refused'), 'grav window: the placer\'s hint is refused in the window');
  r = await act(A.id, 'move', { token: A.T[1], move: '2 grav' });
  check(isErr(r, 409, 'not_your_turn') && (await view(A.id)).json.n === 3, `grav window: the placer cannot call on its own stone: not its turn (${r.status})`);
  r = await act(A.id, 'move', { token: A.T[1], move: '2 place e5' });
  check(r.status >= 400 && (await view(A.id)).json.n === 3, `grav window: the placer cannot place again (${r.status})`);
  // The calls: correct in A, wrong in B.
  r = await act(A.id, 'move', { token: A.T[0], move: '1 grav', n: 4 });
  check(r.status === 200 && r.json.grav.board[ia] === 0 && JSON.stringify(r.json.grav.stones) === '[1,0]' && r.json.to_move === 0 &&
        r.json.grav.pending === null, `grav window: a correct call takes the stone back, the caller moves next (${r.text.slice(0, 100)})`);
  const rec = (await api(S.url, 'GET', `/api/games/${A.id}/record?format=json`)).json;
  check(rec && rec.events.some((e) => e.type === 'grav' && e.correct === true), 'grav window: the record says the call was correct');
  r = await act(B.id, 'move', { token: B.T[0], move: '1 grav', n: 4 });
  check(r.status === 200 && r.json.grav.board[ib] === 2 && JSON.stringify(r.json.grav.stones) === '[1,1]' && r.json.to_move === 1,
        `grav window: a wrong call leaves the stone, the caller loses its turn (${r.text.slice(0, 100)})`);
  const recb = (await api(S.url, 'GET', `/api/games/${B.id}/record?format=json`)).json;
  check(recb && recb.events.some((e) => e.type === 'grav' && e.correct === false), 'grav window: the record says the call was wrong');
  const callEv = await wa.wait((m) => m.type === 'move' && m.n === 4).catch(() => null);
  check(callEv && callEv.move.move === '1 grav' && callEv.move.seat === 0, 'grav window: watchers see the call');
  // Resign in Grav (a move there): seat 1 of B resigns.
  r = await act(B.id, 'resign', { token: B.T[1] });
  check(r.status === 200 && r.json.status === 'finished' && r.json.result.winner === 0, `grav: resign ends the game (${r.text.slice(0, 120)})`);
  const endB = await wb.wait((m) => m.type === 'end').catch(() => null);
  check(endB && endB.result && endB.result.winner === 0, 'grav: the end event');
  for (const g of [A, B]) {
    const t = await api(S.url, 'GET', `/api/games/${g.id}/record?format=json`);
    recordCheck('grav', t.text, `record grav json of ${g.id}`);
  }
}

// ---- 7. clocks -------------------------------------------------------------------------

// A seat's token in an "Authorization: Bearer" header stands for the token of the query or
// the body (so that no token need be in a URL a proxy logs).
async function bearer() {
  const g = await create({ game: 'exac', seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
  const id = g.json.id, [t0, t1] = g.json.tokens.map((t) => t.token);
  const get = async (path, auth) => {
    const res = await fetch(S.url + path, { headers: auth ? { authorization: auth } : {} });
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: res.status, json, text };
  };
  const post = async (path, body, auth) => {
    const res = await fetch(S.url + path, { method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) } });
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: res.status, json, text };
  };
  let r = await get(`/api/games/${id}`, `Bearer ${t0}`);
  check(r.status === 200 && r.json.you && r.json.you.seat === 0, `bearer: the view with a header is seat 0's (${r.status})`);
  r = await get(`/api/games/${id}/you`, `bearer ${t1}`);
  check(r.status === 200 && r.json.you.seat === 1, `bearer: /you with a header (scheme in any case) is seat 1's (${r.status})`);
  r = await get(`/api/games/${id}`, `Basic ${t0}`);
  check(r.status === 200 && !r.json.you, `bearer: another scheme is ignored: a watcher's view (${r.status})`);
  r = await get(`/api/games/${id}`, `Bearer ${'f'.repeat(32)}`);
  check(isErr(r, 403, 'bad_token'), `bearer: a token of no seat is 403 (${r.status})`);
  r = await get(`/api/games/${id}`, `Bearer ${'a'.repeat(80)}`);
  check(isErr(r, 403, 'bad_token'), `bearer: an over-long token is 403 (${r.status})`);
  r = await get('/api/health', `Basic ${'b'.repeat(400)}`);
  check(r.status === 200, `bearer: a long header of another scheme is ignored (${r.status})`);
  r = await get(`/api/games/${id}?token=${t1}`, `Bearer ${t0}`);
  check(r.status === 200 && r.json.you.seat === 1, 'bearer: a token in the query comes first');
  const legal = (await get(`/api/games/${id}/you`, `Bearer ${t0}`)).json.you.legal_moves;
  r = await post(`/api/games/${id}/move`, { move: legal[0] }, `Bearer ${t0}`);
  check(r.status === 200 && r.json.n === 1, `bearer: a move with the token in the header only (${r.status} ${r.text.slice(0, 100)})`);
  r = await post(`/api/games/${id}/move`, { move: legal[0] }, `Bearer ${t0}`);
  check(r.status === 409, `bearer: the header's seat is held to its turn (${r.status})`);
  r = await post(`/api/games/${id}/resign`, {});
  check(isErr(r, 403, 'no_token'), `bearer: without header or token, an action is 403 (${r.status})`);
  // Join links keep the token in the fragment, which browsers never send; an older link
  // with it in the query is redirected to that form.
  check(g.json.tokens.every((t) => t.link === `/play/${id}#seat=${t.seat}&token=${t.token}`),
        `join links hold seat and token in the fragment (${g.json.tokens[0].link.replace(/[0-9a-f]{32}/, 'T')})`);
  const old = await fetch(`${S.url}/play/${id}?seat=1&token=${t1}`, { redirect: 'manual' });
  check(old.status === 303 && old.headers.get('location') === `/play/${id}#seat=1&token=${t1}`,
        `an older join link is redirected, its token moved to the fragment (${old.status})`);
  const long = await fetch(`${S.url}/play/${id}?seat=1&token=${'a'.repeat(1500)}`, { redirect: 'manual', signal: AbortSignal.timeout(5000) })
    .catch((e) => ({ status: String(e) }));
  check(long.status === 200, `an over-long join link is answered (the page), not left hanging (${long.status})`);
  const odd = await fetch(`${S.url}/play/${id}%0d%0aX-Injected:%201?seat=1&token=${t1}`, { redirect: 'manual' });
  check(odd.status !== 303 && !odd.headers.get('x-injected'), `a path that is no game id is not redirected (${odd.status})`);
}

async function clocks() {
  const one = async (game, options) => {
    const c = await create({ game, options, clock: { initial: 1, increment: 0 }, seats: [{ type: 'human', you: true }, { type: 'human' }] });
    if (!check(c.status === 201 && c.json.clock && c.json.clock.initial_ms === 1000 && c.json.clock.increment_ms === 0,
               `clock ${game}: created with a 1 s clock (${c.status})`)) return;
    const id = c.json.id, T = c.json.tokens.map((t) => t.token);
    const w = watch(id);
    await w.opened;
    await sleep(1300); // open: the clock does not run yet
    let v = (await view(id)).json;
    check(v.status === 'open' && v.clocks[0] === 1000, `clock ${game}: no time runs while the game is open`);
    const r = await act(id, 'join', { token: T[1] });
    const tj = Date.now();
    check(r.status === 200 && r.json.status === 'live', `clock ${game}: joined`);
    const end = await w.wait((m) => m.type === 'end', 4000).catch(() => null);
    const dt = Date.now() - tj;
    check(end && end.result && end.result.reason === 'time' && end.result.winner === 1 && dt >= 900 && dt < 2200,
          `clock ${game}: ends on time in ~1 s (${dt} ms, ${JSON.stringify(end && end.result)})`);
    v = (await view(id)).json;
    check(v.status === 'finished' && v.result.reason === 'time' && v.clocks[0] <= 0 && v.clocks[1] === 1000,
          `clock ${game}: the view shows the flag (${JSON.stringify(v.clocks)})`);
    const m = await act(id, 'move', { token: T[0], move: 'x' });
    check(isErr(m, 422, 'refused'), `clock ${game}: no move after the flag`);
    const f = game === 'grav' ? 'json' : 'pgn';
    const rec = await api(S.url, 'GET', `/api/games/${id}/record?format=${f}`);
    check(rec.status === 200, `clock ${game}: the record downloads`);
    recordCheck(game, rec.text, `record ${game} ${f} of a game lost on time`);
  };
  await Promise.all([one('exac'), one('grav', { size: 5, seed: 3 })]);
}

// ---- 8. bad input ------------------------------------------------------------------------

async function counts() {
  const n = {};
  for (const st of ['open', 'live', 'finished'])
    n[st] = (await api(S.url, 'GET', `/api/games?status=${st}&limit=200`)).json.games.length;
  return JSON.stringify(n);
}

async function badInput(ex, T) {
  const before = await counts();
  const P = (body, raw) => api(S.url, 'POST', '/api/games', body, raw);
  const cases = [
    ['malformed JSON', P(undefined, '{"game": "chu",'), 400, 'bad_json'],
    ['a JSON array body', P(undefined, '["chu"]'), 400, 'bad_json'],
    ['a JSON string body', P(undefined, '"chu"'), 400, 'bad_json'],
    ['an empty body', P(undefined, ''), 400, 'bad_json'],
    ['duplicate keys', P(undefined, '{"game":"chu","game":"exac"}'), 400, 'bad_json'],
    ['unknown game', P({ game: 'go' }), 400, 'unknown_game'],
    ['no game', P({}), 400, 'unknown_game'],
    ['game not a string', P({ game: 7 }), 400, 'unknown_game'],
    ['bad option name', P({ game: 'chu', options: { nosuch: 'on' } }), 400],
    ['bad option value', P({ game: 'chu', options: { repetition: 'sometimes' } }), 400],
    ['bad grav size', P({ game: 'grav', options: { size: 6 } }), 400],
    ['options not an object', P({ game: 'chu', options: [1] }), 400, 'bad_options'],
    ['an option with a comma', P({ game: 'chu', options: { repetition: 'a,b' } }), 400, 'bad_options'],
    ['7 seats for chu', P({ game: 'chu', seats: Array(7).fill({ type: 'human' }) }), 400, 'bad_seats'],
    ['1 seat for chu', P({ game: 'chu', seats: [{ type: 'human', you: true }] }), 400, 'bad_seats'],
    ['AI level 11', P({ game: 'chu', seats: [{ type: 'human', you: true }, { type: 'ai', level: 11 }] }), 400, 'bad_seats'],
    ['AI level 0', P({ game: 'exac', seats: [{ type: 'human', you: true }, { type: 'ai', level: 0 }] }), 400, 'bad_seats'],
    ['AI level "5"', P({ game: 'exac', seats: [{ type: 'human', you: true }, { type: 'ai', level: '5' }] }), 400, 'bad_seats'],
    ['seat type robot', P({ game: 'exac', seats: [{ type: 'human', you: true }, { type: 'robot' }] }), 400, 'bad_seats'],
    ['seats not an array', P({ game: 'exac', seats: 2 }), 400, 'bad_seats'],
    ['a seat not an object', P({ game: 'exac', seats: [1, 2] }), 400, 'bad_seats'],
    ['a 100-byte name', P({ game: 'exac', seats: [{ type: 'human', you: true, name: 'n'.repeat(100) }, { type: 'ai', level: 1 }] }), 400, 'bad_seats'],
    ['grav seats vs players', P({ game: 'grav', options: { size: 5, players: 3 }, seats: [{ type: 'human', you: true }, { type: 'human' }] }), 400, 'bad_seats'],
    ['clock 0.5 s', P({ game: 'exac', clock: { initial: 0.5 } }), 400, 'bad_clock'],
    ['clock negative increment', P({ game: 'exac', clock: { initial: 60, increment: -1 } }), 400, 'bad_clock'],
    ['clock as text', P({ game: 'exac', clock: { initial: 'ten' } }), 400, 'bad_clock'],
    ['clock not an object', P({ game: 'exac', clock: 60 }), 400, 'bad_clock'],
    ['clock 8 days', P({ game: 'exac', clock: { initial: 8 * 86400 } }), 400, 'bad_clock'],
    ['bad start position', P({ game: 'exac', start: 'nonsense' }), 400],
    ['start not a string', P({ game: 'exac', start: 5 }), 400, 'bad_request'],
    ['oversized body', P(undefined, JSON.stringify({ game: 'chu', pad: 'x'.repeat(70 * 1024) })), 413, 'too_large'],
  ];
  for (const [what, pr, status, code] of cases) {
    const r = await pr;
    check(isErr(r, status, code), `bad input: ${what} → ${status}${code ? ' ' + code : ''} (got ${r.status} ${r.text.slice(0, 120)})`);
  }
  check(await counts() === before, 'bad input: no game was created by the refused requests');
  const n0 = (await view(ex)).json.n;
  const more = [
    ['unknown game id', api(S.url, 'GET', '/api/games/zzzzzzzzzz'), 404, 'unknown_game'],
    ['game id with odd characters', api(S.url, 'GET', '/api/games/ZZ..%2F'), 404],
    ['record of an unknown game', api(S.url, 'GET', '/api/games/zzzzzzzzzz/record'), 404, 'unknown_game'],
    ['move in an unknown game', api(S.url, 'POST', '/api/games/zzzzzzzzzz/move', { token: T[0], move: 'a2a3' }), 404, 'unknown_game'],
    ['unknown API path', api(S.url, 'GET', '/api/nothing'), 404, 'not_found'],
    ['GET of an action', api(S.url, 'GET', `/api/games/${ex}/move`), 404, 'not_found'],
    ['POST to a game', api(S.url, 'POST', `/api/games/${ex}`, { token: T[0] }), 405, 'bad_method'],
    ['POST to health', api(S.url, 'POST', '/api/health', {}), 405, 'bad_method'],
    ['PUT a game', api(S.url, 'PUT', '/api/games', { game: 'chu' }), 405, 'bad_method'],
    ['PUT a move', api(S.url, 'PUT', `/api/games/${ex}/move`, { token: T[0], move: 'a2a3' }), 405, 'bad_method'],
    ['DELETE a game', api(S.url, 'DELETE', `/api/games/${ex}`), 405, 'bad_method'],
    ['token not a string', act(ex, 'resign', { token: 5 }), 400, 'bad_request'],
    ['resign without a token', act(ex, 'resign', {}), 403, 'no_token'],
    ['malformed JSON to an action', api(S.url, 'POST', `/api/games/${ex}/move`, undefined, '{"token"'), 400, 'bad_json'],
    ['oversized move request', act(ex, 'move', { token: T[0], move: 'y'.repeat(70000) }), 413, 'too_large'],
  ];
  for (const [what, pr, status, code] of more) {
    const r = await pr;
    check(isErr(r, status, code), `bad input: ${what} → ${status}${code ? ' ' + code : ''} (got ${r.status} ${r.text.slice(0, 120)})`);
  }
  // A POST without Content-Length (curl -X POST, a chunked body) must not hang.
  const raw = await new Promise((resolve) => {
    const sock = net.connect(S.port, '127.0.0.1', () => {
      sock.write('POST /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    });
    let data = '';
    sock.on('data', (d) => { data += d; });
    sock.on('close', () => resolve(data));
    sock.on('error', () => resolve(data));
    setTimeout(() => { sock.destroy(); resolve(data); }, 3000);
  });
  check(/^HTTP\/1\.1 4\d\d/.test(raw) && /"code"/.test(raw), `bad input: a POST without Content-Length is answered at once (${raw.split('\r\n')[0]})`);
  check((await view(ex)).json.n === n0 && await counts() === before, 'bad input: nothing changed');
  check((await api(S.url, 'GET', '/api/health')).status === 200, 'bad input: health still answers');
}

async function badWebSocket(ex) {
  const w = watch(null);
  await w.opened;
  const steps = [
    ['non-JSON', 'hello there'],
    ['a JSON array', '[1,2]'],
    ['an unknown type', { type: 'dance' }],
    ['watch of an unknown game', { type: 'watch', game: 'zzzzzzzzzz' }],
    ['watch of a bad id', { type: 'watch', game: '../../etc/passwd' }],
    ['watch without a game', { type: 'watch' }],
    ['since not a number', { type: 'watch', game: ex, since: 'x' }],
  ];
  for (const [what, msg] of steps) {
    const k = w.msgs.length;
    w.send(msg);
    const got = await waitFor(() => w.msgs.length > k && w.msgs[k], 3000);
    check(got && got.type === 'error' && typeof got.error === 'string', `ws: ${what} → an error message (${JSON.stringify(got).slice(0, 100)})`);
  }
  w.send({ type: 'ping' });
  check(await w.wait((m) => m.type === 'pong', 3000).catch(() => null), 'ws: the connection still answers a ping');
  w.send({ type: 'watch', game: ex, since: 8 });
  const st = await w.wait((m) => m.type === 'state', 3000).catch(() => null);
  check(st && st.id === ex, 'ws: a valid watch after the errors works');
  // A message over 4 KiB closes the connection (1009); the server goes on.
  const big = new WebSocket(`${S.url.replace('http', 'ws')}/ws`);
  await new Promise((r) => big.on('open', r));
  const code = await new Promise((resolve) => {
    big.on('close', (c) => resolve(c));
    big.send(JSON.stringify({ type: 'ping', pad: 'p'.repeat(6000) }));
    setTimeout(() => resolve('timeout'), 3000);
  });
  check(code === 1009, `ws: an over-long message closes the connection with 1009 (${code})`);
  // Too many messages: the connection is closed (policy), the server goes on.
  const fl = new WebSocket(`${S.url.replace('http', 'ws')}/ws`);
  await new Promise((r) => fl.on('open', r));
  const fcode = await new Promise((resolve) => {
    fl.on('close', (c) => resolve(c));
    for (let i = 0; i < 40; i++) fl.send('{"type":"ping"}');
    setTimeout(() => resolve('timeout'), 3000);
  });
  check(fcode === 1008, `ws: a message flood closes the connection with 1008 (${fcode})`);
  check((await api(S.url, 'GET', '/api/health')).status === 200, 'ws: health still answers after the bad messages');
}

async function flood(dbDir) {
  const S2 = await startServer(bin, join(dbDir, 'flood.db'), ['--rate', '5']);
  servers.push(S2);
  const rs = await Promise.all(Array.from({ length: 100 }, () => api(S2.url, 'GET', '/api/health').catch(() => ({ status: 0 }))));
  const n429 = rs.filter((r) => r.status === 429).length, n200 = rs.filter((r) => r.status === 200).length;
  check(n429 > 50 && n200 >= 5 && n200 + n429 === 100, `flood: 100 requests at --rate 5 give some 429s (${n200} ok, ${n429} refused)`);
  const one429 = rs.find((r) => r.status === 429);
  check(one429 && isErr(one429, 429, 'too_many_requests'), 'flood: a 429 is a JSON error');
  await sleep(1200);
  const after = await api(S2.url, 'GET', '/api/health');
  check(after.status === 200, `flood: after a pause the server answers again (${after.status})`);
  const e = await S2.stop();
  check(e.code === 0, 'flood: the second server stops cleanly');
  // X-Forwarded-For counts only from a proxy of --trust-proxy: 100 requests, each naming
  // another client, are all taken from a trusted proxy (loopback here) and limited as one
  // client when the peer is not a trusted proxy.
  const xff = (base, addr = (i) => `198.51.100.${i + 1}`) => Promise.all(Array.from({ length: 100 }, (_, i) =>
    fetch(`${base}/api/health`, { headers: { 'x-forwarded-for': addr(i) } })
      .then((r) => r.status).catch(() => 0)));
  for (const [args, trusted] of [[['--trust-proxy'], true], [['--trust-proxy', '10.0.0.0/8,192.0.2.7'], false]]) {
    const S3 = await startServer(bin, join(dbDir, 'xff.db'), ['--rate', '5', ...args]);
    servers.push(S3);
    const st = await xff(S3.url);
    const n429 = st.filter((c) => c === 429).length;
    check(trusted ? n429 === 0 : n429 > 50,
          `flood: --trust-proxy ${args.slice(1).join(' ') || '(loopback)'}: X-Forwarded-For ${trusted ? 'believed' : 'ignored'} (${n429} of 100 refused)`);
    if (trusted) {
      // An IPv6 client counts by its /64: 100 addresses of one /64 are one client, 100
      // addresses of as many /64s are 100.
      const one = (await xff(S3.url, (i) => `2001:db8:5:7::${(i + 1).toString(16)}`)).filter((c) => c === 429).length;
      await sleep(4500);   // the buckets full again
      const many = (await xff(S3.url, (i) => `2001:db8:6:${(i + 1).toString(16)}::1`)).filter((c) => c === 429).length;
      check(one > 50 && many === 0, `flood: IPv6 addresses count by /64 (${one} of 100 refused from one /64, ${many} from 100 /64s)`);
      // What is not an address (a header forged through the request line, a proxy's
      // name) is not a client: the proxy's own address is counted.
      await sleep(4500);
      const junk = (await xff(S3.url, (i) => `6.6.6.${i} HTTP/1.1`)).filter((c) => c === 429).length;
      check(junk > 50, `flood: an X-Forwarded-For that is not an address counts as the proxy (${junk} of 100 refused)`);
    }
    await S3.stop();
  }
}

try {
  await main();
} catch (e) {
  check(false, `unexpected exception: ${e && e.stack}`);
}
clearTimeout(guard);
await cleanup();
console.log(`run time ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(summary());
