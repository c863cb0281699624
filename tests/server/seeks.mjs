// Quick pairing on 'gravulien serve' (docs/api.md, "Quick pairing"): two accounts' seeks
// pair into a rated game that changes both ratings when it ends; seeks of other terms
// (clock, rated flag, rating range) do not pair; a cancelled or expired seek does not pair;
// one account holds at most 5 open seeks; the list of open seeks and of the accounts
// online. On PostgreSQL (GV_SERVER_ON_PG=1) also two server processes sharing the
// database: seeks posted on both pair across them, each seek exactly once, with several
// pairs at a time.
// Usage: node seeks.mjs <path-to-gravulien>
import { join } from 'node:path';
import { check, runTest, sleep, startServer, tempDir, removeDir } from './lib.mjs';

const bin = process.argv[2];
const dir = tempDir('gv-seeks-');
const db = join(dir, 'games.db');
const onPg = process.env.GV_SERVER_ON_PG === '1' && !!process.env.GV_TEST_PG;
// Seeks expire after 3 s without a poll here (60 s by default).
process.env.GV_SEEK_TTL_S = '3';
const servers = [];

async function req(base, method, path, { body, who } = {}) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['content-type'] = 'application/json';
  }
  if (who) {
    init.headers.cookie = `gv_session=${who.cookie}`;
    if (method !== 'GET') init.headers['x-csrf-token'] = who.csrf;
  }
  const res = await fetch(base + path, init);
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  const m = /gv_session=([0-9a-f]*)/.exec(res.headers.get('set-cookie') || '');
  return { status: res.status, json, cookie: m ? m[1] : null };
}

async function signup(base, name) {
  const r = await req(base, 'POST', '/api/account', { body: { name, password: `${name} password` } });
  if (r.status !== 201) throw new Error(`sign-up of ${name}: ${r.status} ${JSON.stringify(r.json)}`);
  return { name, cookie: r.cookie, csrf: r.json.csrf };
}

const chuClock = { initial: 600, increment: 10 };
const seek = (base, who, extra = {}) =>
  req(base, 'POST', '/api/seeks', { who, body: { game: 'chu', clock: chuClock, rated: true, ...extra } });

// Polls the seek until it is paired (or gone): the last reply.
async function waitPaired(base, who, id, ms = 5000) {
  const until = Date.now() + ms;
  let r;
  do {
    r = await req(base, 'GET', `/api/seeks/${id}`, { who });
    if (r.status !== 200 || r.json.status === 'paired') return r;
    await sleep(100);
  } while (Date.now() < until);
  return r;
}

async function main() {
  const S = await startServer(bin, db);
  servers.push(S);
  const base = S.url;
  const tag = Math.random().toString(36).slice(2, 6);
  const [ann, ben, cat, dan] = await Promise.all(['ann', 'ben', 'cat', 'dan'].map((n) => signup(base, `${n}${tag}`)));

  // Logged out: no seek.
  let r = await req(base, 'POST', '/api/seeks', { body: { game: 'chu' } });
  check(r.status === 401, `a seek needs a session (${r.status})`);
  r = await req(base, 'POST', '/api/seeks', { who: { ...ann, csrf: 'x' }, body: { game: 'chu' } });
  check(r.status === 403, `a seek needs the CSRF header (${r.status})`);
  r = await seek(base, ann, { game: 'nope' });
  check(r.status === 400, `an unknown game is refused (${r.status})`);
  r = await seek(base, ann, { range: 'x' });
  check(r.status === 400 && r.json.code === 'bad_range', `a bad range is refused (${r.status})`);
  // "rated" neither true nor false (the server once read it after freeing the body)
  for (const rated of ['yes', 1, { x: 1 }, ['a']]) {
    r = await seek(base, ann, { rated });
    check(r.status === 400 && r.json.code === 'bad_rated', `"rated": ${JSON.stringify(rated)} is refused (${r.status})`);
  }
  r = await seek(base, ann, { game: 'grav', options: { players: 3 } });
  check(r.status === 400, `a three-player seek is refused (${r.status})`);

  // Two accounts pair into a rated game and play it to its end.
  r = await seek(base, ann);
  check(r.status === 201 && r.json.status === 'open' && r.json.rating === 1500, `ann's seek is open (${JSON.stringify(r.json)})`);
  const annSeek = r.json.id;
  let list = await req(base, 'GET', '/api/seeks');
  const listed = list.json.seeks.find((x) => x.id === annSeek);
  check(list.status === 200 && listed && listed.name === ann.name && listed.game === 'chu' && listed.rated === true &&
    !('token' in listed) && !('key' in listed), `the open seek is listed (${JSON.stringify(list.json)})`);
  r = await seek(base, ben);
  check(r.status === 201 && r.json.status === 'paired' && r.json.game && r.json.token, `ben's seek pairs at once (${JSON.stringify(r.json)})`);
  const game = r.json.game, benSeat = r.json.seat, benToken = r.json.token;
  const a = await waitPaired(base, ann, annSeek);
  check(a.status === 200 && a.json.status === 'paired' && a.json.game === game && a.json.seat === 1 - benSeat,
    `ann learns the game and the other seat (${JSON.stringify(a.json)})`);
  r = await req(base, 'GET', `/api/seeks/${annSeek}`, { who: ann });
  check(r.status === 404, `a paired seek is given once (${r.status})`);
  list = await req(base, 'GET', '/api/seeks');
  check(!list.json.seeks.some((x) => x.id === annSeek), 'both seeks left the list');
  r = await req(base, 'GET', `/api/games/${game}`);
  check(r.status === 200 && r.json.status === 'live' && r.json.rated === true &&
    r.json.seats[benSeat].name === ben.name && r.json.seats[1 - benSeat].name === ann.name,
    `the game is live and rated, both accounts seated (${JSON.stringify(r.json && r.json.seats)})`);
  // Each plays a move (a rated game resigned before that counts for no rating), then ben resigns.
  for (const [seat, token] of [[benSeat, benToken], [1 - benSeat, a.json.token]].sort((x, y) => x[0] - y[0])) {
    const v = await req(base, 'GET', `/api/games/${game}?token=${token}`);
    const m = await req(base, 'POST', `/api/games/${game}/move`, { body: { token, move: v.json.you.legal_moves[0], n: v.json.n + 1 } });
    check(m.status === 200, `seat ${seat} moves (${m.status})`);
  }
  r = await req(base, 'POST', `/api/games/${game}/resign`, { body: { token: benToken } });
  check(r.status === 200 && r.json.status === 'finished', `ben resigns (${r.status})`);
  const ratingOf = async (who) => {
    const p = await req(base, 'GET', `/api/player/${who.name}`);
    return p.json.ratings.find((x) => x.game === 'chu' && x.speed === 'slow');
  };
  const ra = await ratingOf(ann), rb = await ratingOf(ben);
  check(ra && rb && ra.rating > 1500 && rb.rating < 1500, `both ratings changed (${JSON.stringify([ra, rb])})`);

  // Incompatible terms do not pair: another clock, casual vs rated, out of range.
  const pairs = [
    [{}, { clock: { initial: 300, increment: 0 } }, 'another clock'],
    [{}, { rated: false }, 'casual against rated'],
    [{ options: { repetition: 'off' } }, {}, 'other options'],
  ];
  for (const [x, y, what] of pairs) {
    const s1 = await seek(base, cat, x);
    const s2 = await seek(base, dan, y);
    check(s1.status === 201 && s2.status === 201 && s1.json.status === 'open' && s2.json.status === 'open',
      `${what}: no pairing (${s1.status} ${s2.status} ${s2.json && s2.json.status})`);
    await req(base, 'DELETE', `/api/seeks/${s1.json.id}`, { who: cat });
    await req(base, 'DELETE', `/api/seeks/${s2.json.id}`, { who: dan });
  }
  // ann (now above 1500) with a range of 10 around hers, dan at 1500: neither pairs.
  let s1 = await seek(base, ann, { range: 10 });
  let s2 = await seek(base, dan);
  check(s1.json.status === 'open' && s2.json.status === 'open', 'out of range: no pairing');
  check(s1.json.rating > 1510, `ann's rating is past the range (${s1.json.rating})`);
  // dan's own range excludes ann: no pairing either way.
  await req(base, 'DELETE', `/api/seeks/${s1.json.id}`, { who: ann });
  s1 = await seek(base, ann);
  check(s1.json.status === 'paired', `without a range, ann pairs with dan's open seek (${s1.json.status})`);
  await waitPaired(base, dan, s2.json.id);
  s1 = await seek(base, cat, { max: 1400 });
  s2 = await seek(base, dan, {});
  check(s2.json.status === 'open', 'a seek whose max is below the other rating does not pair');
  await req(base, 'DELETE', `/api/seeks/${s1.json.id}`, { who: cat });
  await req(base, 'DELETE', `/api/seeks/${s2.json.id}`, { who: dan });

  // Cancelled: gone; another's seek cannot be cancelled.
  s1 = await seek(base, cat);
  r = await req(base, 'DELETE', `/api/seeks/${s1.json.id}`, { who: dan });
  check(r.status === 404, `dan cannot cancel cat's seek (${r.status})`);
  r = await req(base, 'DELETE', `/api/seeks/${s1.json.id}`, { who: cat });
  check(r.status === 200, `cat cancels her seek (${r.status})`);
  s2 = await seek(base, dan);
  check(s2.json.status === 'open', 'a cancelled seek does not pair');
  r = await req(base, 'GET', `/api/seeks/${s1.json.id}`, { who: cat });
  check(r.status === 404, `a cancelled seek is gone (${r.status})`);
  // Expired: dan's seek is not polled for longer than its life.
  await sleep(3500);
  s1 = await seek(base, cat);
  check(s1.json.status === 'open', `an expired seek does not pair (${s1.json.status})`);
  r = await req(base, 'GET', `/api/seeks/${s2.json.id}`, { who: dan });
  check(r.status === 404, `an expired seek is gone (${r.status})`);
  list = await req(base, 'GET', '/api/seeks');
  check(!list.json.seeks.some((x) => x.id === s2.json.id), 'an expired seek is not listed');
  await req(base, 'DELETE', `/api/seeks/${s1.json.id}`, { who: cat });

  // Deleted: an account deleted while its seek waits leaves no seek behind to be paired.
  const eve = await signup(base, 'eve');
  s1 = await seek(base, eve);
  check(s1.json.status === 'open', `eve waits for an opponent (${s1.json.status})`);
  r = await req(base, 'DELETE', '/api/account', { who: eve, body: { password: 'eve password' } });
  check(r.status === 200, `eve deletes her account (${r.status})`);
  s2 = await seek(base, cat);
  check(s2.json.status === 'open', `a deleted account's seek does not pair (${s2.json.status})`);
  list = await req(base, 'GET', '/api/seeks');
  check(!list.json.seeks.some((x) => x.id === s1.json.id), 'a deleted account\'s seek is not listed');
  await req(base, 'DELETE', `/api/seeks/${s2.json.id}`, { who: cat });

  // One account holds at most 5 open seeks: it cannot fill the list (200) and hide the
  // others', nor be paired into a game with everyone who seeks.
  const many = [];
  for (let i = 0; i < 7; i++) many.push(await seek(base, cat, { clock: { initial: 60 + i, increment: 0 } }));
  check(many.slice(0, 5).every((x) => x.status === 201 && x.json.status === 'open') &&
    many.slice(5).every((x) => x.status === 429 && x.json.code === 'too_many_seeks'),
  `a sixth open seek of one account is refused, 429 too_many_seeks (${many.map((x) => x.status)})`);
  s2 = await seek(base, dan, { game: 'exac', clock: null });
  list = await req(base, 'GET', '/api/seeks');
  check(list.json.seeks.filter((x) => x.name === cat.name).length === 5 && list.json.seeks.some((x) => x.id === s2.json.id),
    `the list holds cat's five and dan's seek (${list.json.seeks.length} listed)`);
  await req(base, 'DELETE', `/api/seeks/${many[0].json.id}`, { who: cat });
  r = await seek(base, cat, { clock: { initial: 90, increment: 0 } });
  check(r.status === 201, `a cancelled seek makes room for another (${r.status})`);
  for (const x of [...many.slice(1, 5), r]) await req(base, 'DELETE', `/api/seeks/${x.json.id}`, { who: cat });
  await req(base, 'DELETE', `/api/seeks/${s2.json.id}`, { who: dan });

  // Online: the logged-in accounts seen in the last minute.
  r = await req(base, 'GET', '/api/online');
  check(r.status === 200 && r.json.names.includes(ann.name) && r.json.count === r.json.names.length,
    `ann is online (${JSON.stringify(r.json)})`);

  if (!onPg) return;
  // Two processes sharing PostgreSQL: seeks posted on both pair across them, each once.
  const T = await startServer(bin, db);
  servers.push(T);
  const n = 4;   // sign-ups are limited to 10 per address and process
  const names = Array.from({ length: 2 * n }, (_, i) => `p${i}${tag}`);
  const who = [];
  for (const nm of names) who.push(await signup(T.url, nm));
  // Every player posts a casual seek of the same terms at once, half on each server.
  const posted = await Promise.all(who.map((w, i) =>
    req(i % 2 ? T.url : base, 'POST', '/api/seeks', { who: w, body: { game: 'exac', clock: null } })));
  check(posted.every((p) => p.status === 201), `every seek is taken (${posted.map((p) => p.status)})`);
  const results = await Promise.all(posted.map((p, i) => p.json.status === 'paired' ? p
    : waitPaired(i % 2 ? T.url : base, who[i], p.json.id, 8000)));
  const games = new Map();
  results.forEach((x, i) => {
    if (x.json && x.json.status === 'paired') {
      if (!games.has(x.json.game)) games.set(x.json.game, []);
      games.get(x.json.game).push({ i, seat: x.json.seat });
    }
  });
  check(results.every((x) => x.json && x.json.status === 'paired'), `every seek is paired (${results.map((x) => x.json && x.json.status)})`);
  check(games.size === n && [...games.values()].every((v) => v.length === 2 && v[0].seat !== v[1].seat),
    `${n} games of two players each (${JSON.stringify([...games.entries()])})`);
  let across = 0;
  for (const v of games.values()) across += (v[0].i % 2) !== (v[1].i % 2);
  for (const g of games.keys()) {
    r = await req(T.url, 'GET', `/api/games/${g}`);
    check(r.status === 200 && r.json.status === 'live', `game ${g} is live on the other process too`);
  }
  console.log(`${across} of ${n} pairs across the two processes`);
  // Pairs that can only form across the processes (each pair its own clock, one seek on
  // each server), all posted at once.
  const cross = await Promise.all(who.map((w, i) => req(i % 2 ? T.url : base, 'POST', '/api/seeks',
    { who: w, body: { game: 'exac', clock: { initial: 60 * (1 + (i >> 1)), increment: 0 } } })));
  const crossDone = await Promise.all(cross.map((p, i) => p.json.status === 'paired' ? p
    : waitPaired(i % 2 ? T.url : base, who[i], p.json.id, 8000)));
  let crossOk = 0;
  for (let k = 0; k < n; k++) {
    const x = crossDone[2 * k].json, y = crossDone[2 * k + 1].json;
    crossOk += !!(x && y && x.status === 'paired' && y.status === 'paired' && x.game === y.game && x.seat !== y.seat);
  }
  check(crossOk === n, `${n} pairs posted at once across the processes each make one game (${crossOk})`);
  // A seek on each process, posted one after the other: they pair across.
  const x1 = await req(base, 'POST', '/api/seeks', { who: who[0], body: { game: 'grav', clock: null } });
  const x2 = await req(T.url, 'POST', '/api/seeks', { who: who[1], body: { game: 'grav', clock: null } });
  check(x1.json.status === 'open' && x2.json.status === 'paired', `a seek on one process pairs one on the other (${x2.json.status})`);
  const x1p = await waitPaired(base, who[0], x1.json.id);
  check(x1p.json && x1p.json.game === x2.json.game, 'both learn the same game');
}

runTest(main, async () => {
  for (const s of servers) await s.stop();
  removeDir(dir);
});
