// Accounts on 'gravulien serve' (docs/api.md, "Accounts"): sign-up, log-in, log-out, the
// session cookie and its CSRF token, wrong passwords, names taken whatever their case, the
// log-in rate limits, the newest 50 sessions of an account kept, a change of password
// ending the other sessions, deletion keeping the games, seats taken as accounts, and rated
// games: their Glicko-2 ratings checked against the formulas of Glickman's paper, computed
// here (and checked first on the paper's own example). Also: no password in the access log or the server's output, sessions kept
// across a restart, the cookie made Secure when a trusted proxy says https.
// Usage: node accounts.mjs <path-to-gravulien>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, runTest, startServer, tempDir, removeDir, sleep } from './lib.mjs';

const bin = process.argv[2];
const dir = tempDir('gv-accounts-');
const db = join(dir, 'games.db');
const alog = join(dir, 'access.log');
let S = null;
let stderrText = '';

// ---- Glicko-2, from Glickman's "Example of the Glicko-2 system" --------------------------
function glicko2(p, opps, scores, tau = 0.5) {
  const K = 173.7178;
  const mu = (p.r - 1500) / K, phi = p.rd / K, sigma = p.vol;
  const g = (ph) => 1 / Math.sqrt(1 + 3 * ph * ph / (Math.PI * Math.PI));
  const E = (m, mj, phj) => 1 / (1 + Math.exp(-g(phj) * (m - mj)));
  let vinv = 0, sum = 0;
  opps.forEach((o, j) => {
    const mj = (o.r - 1500) / K, phj = o.rd / K, e = E(mu, mj, phj);
    vinv += g(phj) ** 2 * e * (1 - e);
    sum += g(phj) * (scores[j] - e);
  });
  const v = 1 / vinv, delta = v * sum;
  const a = Math.log(sigma * sigma);
  const f = (x) => Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x)) /
    (2 * (phi * phi + v + Math.exp(x)) ** 2) - (x - a) / (tau * tau);
  let A = a, B;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else { let k = 1; while (f(a - k * tau) < 0) k++; B = a - k * tau; }
  let fA = f(A), fB = f(B);
  while (Math.abs(B - A) > 0.000001) {
    const C = A + (A - B) * fA / (fB - fA), fC = f(C);
    if (fC * fB <= 0) { A = B; fA = fB; } else fA /= 2;
    B = C; fB = fC;
  }
  const sigma2 = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + sigma2 * sigma2);
  const phi2 = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const mu2 = mu + phi2 * phi2 * sum;
  return { r: K * mu2 + 1500, rd: K * phi2, vol: sigma2 };
}

const near = (a, b, eps) => Math.abs(a - b) <= eps;

// ---- HTTP with cookies -------------------------------------------------------------------
async function req(method, path, { body, cookie, csrf, bearer, headers = {} } = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['content-type'] = 'application/json';
  }
  if (cookie) init.headers.cookie = `gv_session=${cookie}`;
  if (csrf) init.headers['x-csrf-token'] = csrf;
  if (bearer) init.headers.authorization = `Bearer ${bearer}`;
  const res = await fetch(S.url + path, init);
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  const sc = res.headers.get('set-cookie') || '';
  const m = /gv_session=([0-9a-f]*)/.exec(sc);
  return { status: res.status, json, headers: res.headers, setCookie: sc, cookie: m ? m[1] : null };
}

// A request that hashes a password, sent again while the server answers 503 busy (its
// time for passwords spent: a flood of log-ins, below) after the Retry-After it gives.
async function hashing(method, path, opts) {
  for (let i = 0; ; i++) {
    const r = await req(method, path, opts);
    if (r.status !== 503 || !r.json || r.json.code !== 'busy' || i === 5) return r;
    await sleep(1000 * Number(r.headers.get('retry-after') || 1));
  }
}

// Plays one legal move for each seat (seat 0 first), as a rated game needs before it counts.
async function bothMove(id, tokens) {
  for (const t of tokens) {
    const v = await req('GET', `/api/games/${id}`, { bearer: t });
    const m = v.json && v.json.you && v.json.you.legal_moves[0];
    const r = await req('POST', `/api/games/${id}/move`, { body: { token: t, move: m, n: v.json.n + 1 } });
    check(r.status === 200, `a move by seat ${v.json.you.seat} (${r.status} ${JSON.stringify(r.json).slice(0, 120)})`);
  }
}

// A logged-in player: { name, cookie, csrf }.
async function login(name, password) {
  const r = await hashing('POST', '/api/session', { body: { name, password } });
  if (r.status !== 200) throw new Error(`log-in of ${name}: ${r.status} ${JSON.stringify(r.json)}`);
  return { name: r.json.name, cookie: r.cookie, csrf: r.json.csrf };
}

async function signup(name, password) {
  const r = await hashing('POST', '/api/account', { body: { name, password } });
  if (r.status !== 201) throw new Error(`sign-up of ${name}: ${r.status} ${JSON.stringify(r.json)}`);
  return { name: r.json.name, cookie: r.cookie, csrf: r.json.csrf };
}

async function start() {
  S = await startServer(bin, db, ['--access-log', alog, '--trust-proxy', '127.0.0.1']);
  S.proc.stderr.on('data', (d) => { stderrText += d; });
  S.proc.stdout.on('data', (d) => { stderrText += d; });
}

async function main() {
  // The formulas against the paper's example.
  const ex = glicko2({ r: 1500, rd: 200, vol: 0.06 },
    [{ r: 1400, rd: 30 }, { r: 1550, rd: 100 }, { r: 1700, rd: 300 }], [1, 0, 0]);
  check(near(ex.r, 1464.06, 0.01) && near(ex.rd, 151.52, 0.01) && near(ex.vol, 0.05999, 0.00001),
    `the test's Glicko-2 gives Glickman's example: ${JSON.stringify(ex)}`);

  await start();

  // ---- sign-up -------------------------------------------------------------------------
  const r1 = await req('POST', '/api/account', { body: { name: 'Alice', password: 'correct horse' } });
  check(r1.status === 201 && r1.json.name === 'Alice' && /^[0-9a-f]{64}$/.test(r1.json.csrf),
    `sign-up: 201 with the name and a CSRF token (${r1.status} ${JSON.stringify(r1.json)})`);
  check(/^gv_session=[0-9a-f]{64}; /.test(r1.setCookie) && /HttpOnly/.test(r1.setCookie) &&
    /SameSite=Lax/.test(r1.setCookie) && /Path=\//.test(r1.setCookie) && !/Secure/.test(r1.setCookie),
    `the session cookie: HttpOnly, SameSite=Lax, Path=/, not Secure over http (${r1.setCookie})`);
  check(!JSON.stringify(r1.json).includes('correct horse'), 'the reply holds no password');
  const dup = await req('POST', '/api/account', { body: { name: 'aLICE', password: 'another one' } });
  check(dup.status === 409 && dup.json.code === 'name_taken', `a name taken in another case: 409 (${dup.status})`);
  for (const [name, password, why] of [['a', 'long enough', 'a one-letter name'],
    ['has space', 'long enough', 'a space'], ['x'.repeat(21), 'long enough', '21 characters'],
    ['élan', 'long enough', 'a non-ASCII letter'], ['bobby', 'short', 'a 5-character password']]) {
    const r = await req('POST', '/api/account', { body: { name, password } });
    check(r.status === 400, `sign-up refused: ${why} (${r.status})`);
  }
  const bob = await signup('bob', 'bobs password');
  await signup('carol', 'carols password');
  await signup('dave', 'daves password');

  // ---- sessions ------------------------------------------------------------------------
  const alice1 = { name: 'Alice', cookie: r1.cookie, csrf: r1.json.csrf };
  let r = await req('GET', '/api/session', { cookie: alice1.cookie });
  check(r.status === 200 && r.json.name === 'Alice' && r.json.csrf === alice1.csrf,
    `GET /api/session with the cookie: who is logged in and the CSRF token (${r.status})`);
  r = await req('GET', '/api/session');
  check(r.status === 401 && r.json.code === 'no_session', `GET /api/session without a cookie: 401 (${r.status})`);
  r = await req('GET', '/api/session', { cookie: 'ab'.repeat(32) });
  check(r.status === 401, `an unknown session: 401 (${r.status})`);
  r = await req('GET', '/api/session', { cookie: bob.cookie });
  check(r.status === 200 && r.json.name === 'bob' && r.json.csrf !== alice1.csrf,
    'another account\'s cookie is its own session, with a CSRF token of its own');

  // Log-in: wrong password, unknown name, right one (any case of the name).
  r = await req('POST', '/api/session', { body: { name: 'alice', password: 'wrong horse' } });
  check(r.status === 401 && r.json.code === 'wrong_password' && !r.cookie, `wrong password: 401, no cookie (${r.status})`);
  r = await req('POST', '/api/session', { body: { name: 'nobody', password: 'whatever1' } });
  check(r.status === 401 && r.json.code === 'wrong_password', `unknown name: the same 401 (${r.status})`);
  const alice2 = await login('ALICE', 'correct horse');
  check(alice2.name === 'Alice' && alice2.cookie && alice2.cookie !== alice1.cookie,
    'log-in in another case: the account\'s own name, a new session');

  // CSRF: a state-changing request authenticated by the cookie needs the header.
  const rated = { game: 'chu', rated: true, seats: [{ type: 'human', you: true }, { type: 'human' }] };
  r = await req('POST', '/api/games', { body: rated, cookie: alice2.cookie });
  check(r.status === 403 && r.json.code === 'csrf', `create with the cookie, no X-CSRF-Token: 403 (${r.status})`);
  r = await req('POST', '/api/games', { body: rated, cookie: alice2.cookie, csrf: alice1.csrf });
  check(r.status === 403 && r.json.code === 'csrf', `another session's CSRF token: 403 (${r.status})`);
  r = await req('DELETE', '/api/session', { cookie: alice2.cookie });
  check(r.status === 403 && r.json.code === 'csrf', `log-out without the header: 403 (${r.status})`);
  r = await req('POST', '/api/games', { body: { game: 'chu' }, cookie: alice2.cookie, bearer: 'ab'.repeat(16) });
  check(r.status === 201 && !r.json.seats[0].account,
    `with a Bearer token the cookie is not looked at: an anonymous game (${r.status})`);
  r = await req('POST', '/api/games', { body: { game: 'chu' } });
  check(r.status === 201 && !r.json.seats[0].account, 'without a cookie: as before, anonymous');

  // Log-out: the session is over.
  r = await req('DELETE', '/api/session', { cookie: alice2.cookie, csrf: alice2.csrf });
  check(r.status === 200 && /gv_session=;/.test(r.setCookie) && /Max-Age=0/.test(r.setCookie),
    `log-out: 200 and the cookie cleared (${r.status} ${r.setCookie})`);
  r = await req('GET', '/api/session', { cookie: alice2.cookie });
  check(r.status === 401, `the session after log-out: 401 (${r.status})`);
  r = await req('DELETE', '/api/session', { cookie: alice2.cookie, csrf: alice2.csrf });
  check(r.status === 401, `log-out again: 401 (${r.status})`);
  r = await req('GET', '/api/session', { cookie: alice1.cookie });
  check(r.status === 200, 'the other session of the account stays');

  // ---- the rate limit ----------------------------------------------------------------------
  // Timing: a wrong password costs the same whether the name exists or not.
  const timed = async (name) => {
    const t0 = performance.now();
    const x = await req('POST', '/api/session', { body: { name, password: 'not the one' } });
    return { ms: performance.now() - t0, status: x.status };
  };
  // (The fastest of four each, which the load of a busy machine disturbs least; a check
  // that skipped the hash for an unknown name would answer it in well under a millisecond.)
  const known = [], unknown = [];
  for (let i = 0; i < 4; i++) {
    const k = await timed('dave'), u = await timed(`ghost${i}`);
    check(k.status === 401 && u.status === 401, `timed failures are refusals (${k.status}, ${u.status})`);
    known.push(k.ms);
    unknown.push(u.ms);
  }
  const fastest = (a) => Math.min(...a);
  check(fastest(unknown) > fastest(known) * 0.5,
    `a name without account takes as long as one with (fastest ${fastest(unknown).toFixed(1)} ms vs ${fastest(known).toFixed(1)} ms)`);
  for (let i = 0; i < 5; i++) {
    r = await req('POST', '/api/session', { body: { name: 'carol', password: `wrong ${i}xx` } });
    check(r.status === 401, `carol's failure ${i + 1}: 401 (${r.status})`);
  }
  r = await req('POST', '/api/session', { body: { name: 'Carol', password: 'carols password' } });
  const ra = Number(r.headers.get('retry-after'));
  check(r.status === 429 && r.json.code === 'too_many_attempts' && ra > 0 && ra <= 900 && !r.cookie,
    `after 5 failures even the right password gets 429 with Retry-After (${r.status}, ${ra})`);
  r = await req('POST', '/api/session', { body: { name: 'bob', password: 'bobs password' } });
  check(r.status === 200, `another name from the same address still logs in (${r.status})`);

  // ---- sessions per account: the newest 50 -------------------------------------------------------
  {
    const xff = { 'x-forwarded-for': '10.9.9.9' };
    r = await hashing('POST', '/api/account', { body: { name: 'dora', password: 'doras password' }, headers: xff });
    const first = r.cookie;
    let last = null;
    for (let i = 0; i < 50; i++) {
      r = await hashing('POST', '/api/session', { body: { name: 'dora', password: 'doras password' }, headers: xff });
      if (r.status !== 200) break;
      last = r.cookie;
    }
    const a = await req('GET', '/api/session', { cookie: first });
    const b = await req('GET', '/api/session', { cookie: last });
    check(r.status === 200 && a.status === 401 && b.status === 200,
      `51 log-ins of one account: the oldest session ends, the newest works (${r.status}, oldest ${a.status}, newest ${b.status})`);
    await sleep(3000);   // the server's time for passwords, spent by them, comes back
  }

  // ---- sign-ups by address: an IPv6 client counts by its /64 ----------------------------------
  {
    // Before, every address of a /64 (one subscriber's block) had its own 10 sign-ups.
    const made = [];
    for (let i = 1; i <= 10; i++) {
      const r6 = await hashing('POST', '/api/account', { body: { name: `six${i}`, password: 'a long password' },
        headers: { 'x-forwarded-for': `2001:db8:5:6::${i.toString(16)}` } });
      made.push(r6.status);
    }
    const same = await hashing('POST', '/api/account', { body: { name: 'six11', password: 'a long password' },
      headers: { 'x-forwarded-for': '2001:db8:5:6:ffff::1' } });
    const next = await hashing('POST', '/api/account', { body: { name: 'six12', password: 'a long password' },
      headers: { 'x-forwarded-for': '2001:db8:5:7::1' } });
    check(made.every((st) => st === 201) && same.status === 429 && same.json.code === 'too_many_attempts' && next.status === 201,
      `sign-ups: 10 from one IPv6 /64, the 11th from another address of it is 429, the next /64 signs up (${made.join(',')}; ${same.status}; ${next.status})`);
    await sleep(3000);   // the server's time for passwords comes back
  }

  // ---- password change ends the other sessions ----------------------------------------------
  const alice3 = await login('alice', 'correct horse');
  r = await hashing('POST', '/api/account/password', { body: { old: 'correct horse', new: 'battery staple' }, cookie: alice3.cookie });
  check(r.status === 403, `password change without the CSRF header: 403 (${r.status})`);
  r = await hashing('POST', '/api/account/password', { body: { old: 'wrong horse', new: 'battery staple' }, cookie: alice3.cookie, csrf: alice3.csrf });
  check(r.status === 401, `password change with a wrong old password: 401 (${r.status})`);
  r = await hashing('POST', '/api/account/password', { body: { old: 'correct horse', new: 'short' }, cookie: alice3.cookie, csrf: alice3.csrf });
  check(r.status === 400, `a new password too short: 400 (${r.status})`);
  r = await hashing('POST', '/api/account/password', { body: { old: 'correct horse', new: 'battery staple' }, cookie: alice3.cookie, csrf: alice3.csrf });
  check(r.status === 200, `password changed (${r.status})`);
  r = await req('GET', '/api/session', { cookie: alice1.cookie });
  check(r.status === 401, `another session of the account ended with the change (${r.status})`);
  r = await req('GET', '/api/session', { cookie: alice3.cookie });
  check(r.status === 200, `the session that changed it stays (${r.status})`);
  r = await hashing('POST', '/api/session', { body: { name: 'alice', password: 'correct horse' } });
  check(r.status === 401, `the old password no longer logs in (${r.status})`);
  const alice = await login('alice', 'battery staple');

  // ---- seats and rated games ------------------------------------------------------------------
  r = await req('POST', '/api/games', { body: { game: 'chu', rated: true }, cookie: alice.cookie, csrf: alice.csrf });
  check(r.status === 400 && r.json.code === 'bad_rated', `a rated game with an AI seat: 400 (${r.status})`);
  r = await req('POST', '/api/games', { body: rated });
  check(r.status === 401, `a rated game without a session: 401 (${r.status})`);
  r = await req('POST', '/api/games', { body: rated, cookie: alice.cookie, csrf: alice.csrf });
  check(r.status === 201 && r.json.rated === true && r.json.seats[0].account === 'Alice' &&
    r.json.seats[0].name === 'Alice' && !r.json.seats[1].account,
    `a rated game: the creator's seat is the account's (${r.status} ${JSON.stringify(r.json && r.json.seats)})`);
  const g1 = r.json.id, t1 = r.json.tokens.map((t) => t.token);
  r = await req('POST', `/api/games/${g1}/join`, { body: { token: t1[1], name: 'guest' } });
  check(r.status === 422 && /log in/.test(r.json.error), `an anonymous join of a rated game: 422 (${r.status})`);
  r = await req('POST', `/api/games/${g1}/join`, { body: { token: t1[1] }, cookie: alice.cookie, csrf: alice.csrf });
  check(r.status === 422, `the creator's account cannot take the other seat too (${r.status})`);
  r = await req('POST', `/api/games/${g1}/join`, { body: { token: t1[1] }, cookie: bob.cookie });
  check(r.status === 403, `a join with the cookie and no CSRF header: 403 (${r.status})`);
  r = await req('POST', `/api/games/${g1}/join`, { body: { token: t1[1], name: 'Robert' }, cookie: bob.cookie, csrf: bob.csrf });
  check(r.status === 200 && r.json.status === 'live' && r.json.seats[1].account === 'bob' &&
    r.json.seats[1].name === 'bob', `bob joins as his account (${r.status} ${JSON.stringify(r.json && r.json.seats)})`);
  r = await req('GET', `/api/games/${g1}`, { bearer: t1[1] });
  check(r.status === 200 && r.json.you && r.json.you.seat === 1, 'the seat token still works as before');
  // A rated game counts once each player has moved: one resigned before that changes no
  // rating (else two accounts could farm points by resigning at once).
  for (const moves of [0, 1]) {
    r = await req('POST', '/api/games', { body: rated, cookie: alice.cookie, csrf: alice.csrf });
    const ga = r.json.id, ta = r.json.tokens.map((t) => t.token);
    await req('POST', `/api/games/${ga}/join`, { body: { token: ta[1] }, cookie: bob.cookie, csrf: bob.csrf });
    if (moves) await bothMove(ga, ta.slice(0, 1));
    r = await req('POST', `/api/games/${ga}/resign`, { body: { token: ta[moves ? 1 : 0] } });
    check(r.status === 200 && r.json.status === 'finished', `a rated game resigned after ${moves} moves (${r.status})`);
    const p = await req('GET', '/api/player/alice');
    check(p.status === 200 && p.json.ratings.length === 0 && p.json.history.length === 0,
      `a rated game resigned after ${moves} moves changes no rating (${JSON.stringify(p.json.ratings)})`);
  }
  await bothMove(g1, t1);
  r = await req('POST', `/api/games/${g1}/resign`, { body: { token: t1[0] } });
  check(r.status === 200 && r.json.status === 'finished' && r.json.result.winner === 1, `alice resigns (${r.status})`);

  // The ratings: both start at 1500/350/0.06; bob won.
  const fresh = { r: 1500, rd: 350, vol: 0.06 };
  const aExp = glicko2(fresh, [fresh], [0]), bExp = glicko2(fresh, [fresh], [1]);
  let pa = await req('GET', '/api/player/alice');
  let pb = await req('GET', '/api/player/BOB');
  const ratingOf = (p, game, speed) => p.json.ratings.find((x) => x.game === game && x.speed === speed);
  const ca = ratingOf(pa, 'chu', 'correspondence'), cb = ratingOf(pb, 'chu', 'correspondence');
  check(pa.status === 200 && pa.json.name === 'Alice' && ca && near(ca.rating, aExp.r, 0.01) &&
    near(ca.rd, aExp.rd, 0.01) && near(ca.vol, aExp.vol, 0.000001) && ca.games === 1 && ca.provisional,
    `alice's Glicko-2 rating: ${JSON.stringify(ca)} vs ${JSON.stringify(aExp)}`);
  check(pb.status === 200 && cb && near(cb.rating, bExp.r, 0.01) && near(cb.rd, bExp.rd, 0.01) &&
    near(cb.vol, bExp.vol, 0.000001) && cb.provisional,
    `bob's Glicko-2 rating: ${JSON.stringify(cb)} vs ${JSON.stringify(bExp)}`);
  check(pa.json.history.length === 1 && pa.json.history[0].game_id === g1 &&
    pa.json.history[0].opponent === 'bob' && pa.json.history[0].score === 0,
    `alice's rating history: one row (${JSON.stringify(pa.json.history)})`);

  // A second rated game, fast (3 min + 2 s: 3 + 40 x 2 / 60 < 8 minutes), bob resigns.
  r = await req('POST', '/api/games', { body: { ...rated, game: 'exac', clock: { initial: 180, increment: 2 } }, cookie: bob.cookie, csrf: bob.csrf });
  check(r.status === 201, `bob creates a rated Exac game with a clock (${r.status})`);
  const g2 = r.json.id, t2 = r.json.tokens.map((t) => t.token);
  r = await req('POST', `/api/games/${g2}/join`, { body: { token: t2[1] }, cookie: alice.cookie, csrf: alice.csrf });
  check(r.status === 200 && r.json.status === 'live', `alice joins (${r.status})`);
  await bothMove(g2, t2);
  r = await req('POST', `/api/games/${g2}/resign`, { body: { token: t2[0] } });
  check(r.status === 200 && r.json.status === 'finished', `bob resigns (${r.status})`);
  pa = await req('GET', '/api/player/alice');
  const fa = ratingOf(pa, 'exac', 'fast');
  check(fa && near(fa.rating, bExp.r, 0.01) && ratingOf(pa, 'chu', 'correspondence').games === 1,
    `a rating per game and speed: alice's exac/fast ${JSON.stringify(fa)}`);
  check(pa.json.games.length === 4 && pa.json.games[0].id === g2 && pa.json.games[3].id === g1 &&
    pa.json.next === null && pa.json.page === 0, 'the player\'s games, newest first');

  // A rated game between two players who have played: the formulas from their ratings now.
  const before = { a: ratingOf(pa, 'chu', 'correspondence'), b: ratingOf(await req('GET', '/api/player/bob'), 'chu', 'correspondence') };
  r = await req('POST', '/api/games', { body: rated, cookie: alice.cookie, csrf: alice.csrf });
  const g3 = r.json.id, t3 = r.json.tokens.map((t) => t.token);
  await req('POST', `/api/games/${g3}/join`, { body: { token: t3[1] }, cookie: bob.cookie, csrf: bob.csrf });
  await bothMove(g3, t3);
  r = await req('POST', `/api/games/${g3}/resign`, { body: { token: t3[1] } });
  check(r.status === 200 && r.json.result.winner === 0, 'bob resigns the third game');
  pa = await req('GET', '/api/player/alice');
  const a3 = ratingOf(pa, 'chu', 'correspondence');
  const a3Exp = glicko2({ r: before.a.rating, rd: before.a.rd, vol: before.a.vol },
    [{ r: before.b.rating, rd: before.b.rd }], [1]);
  check(near(a3.rating, a3Exp.r, 0.01) && near(a3.rd, a3Exp.rd, 0.01) && a3.games === 2,
    `alice's second chu rating from both players' ratings: ${JSON.stringify(a3)} vs ${JSON.stringify(a3Exp)}`);
  // An unrated game between the same accounts changes nothing.
  r = await req('POST', '/api/games', { body: { ...rated, rated: false }, cookie: alice.cookie, csrf: alice.csrf });
  const g4 = r.json.id, t4 = r.json.tokens.map((t) => t.token);
  r = await req('POST', `/api/games/${g4}/join`, { body: { token: t4[1] }, cookie: bob.cookie, csrf: bob.csrf });
  check(r.status === 200 && r.json.seats[1].account === 'bob' && r.json.rated === false, 'an unrated game between accounts');
  await bothMove(g4, t4);
  await req('POST', `/api/games/${g4}/resign`, { body: { token: t4[0] } });
  pa = await req('GET', '/api/player/alice');
  check(ratingOf(pa, 'chu', 'correspondence').games === 2 && pa.json.history.length === 3,
    'an unrated game changes no rating');
  r = await req('GET', '/api/player/nobody');
  check(r.status === 404, `an unknown player: 404 (${r.status})`);
  r = await req('GET', '/api/player/alice?page=x');
  check(r.status === 400, `a bad page: 400 (${r.status})`);
  r = await req('GET', '/api/player/alice?page=1');
  check(r.status === 200 && r.json.games.length === 0 && r.json.page === 1, 'page 1: past the games');

  // ---- a restart keeps the sessions; a trusted proxy's https makes the cookie Secure --------
  await S.stop();
  await start();
  r = await req('GET', '/api/session', { cookie: alice.cookie });
  check(r.status === 200 && r.json.name === 'Alice', `the session after a restart (${r.status})`);
  r = await req('POST', '/api/session', { body: { name: 'dave', password: 'daves password' },
    headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.0.2.7' } });
  check(r.status === 200 && /; Secure/.test(r.setCookie), `behind a trusted proxy saying https: Secure (${r.setCookie})`);

  // ---- deletion ----------------------------------------------------------------------------
  r = await req('DELETE', '/api/account', { body: { password: 'bobs password' }, cookie: bob.cookie });
  check(r.status === 403, `delete without the CSRF header: 403 (${r.status})`);
  r = await req('DELETE', '/api/account', { body: {}, cookie: bob.cookie, csrf: bob.csrf });
  check(r.status === 400, `delete without the password: 400 (${r.status})`);
  r = await req('DELETE', '/api/account', { body: { password: 'not bobs' }, cookie: bob.cookie, csrf: bob.csrf });
  check(r.status === 401, `delete with a wrong password: 401 (${r.status})`);
  r = await req('DELETE', '/api/account', { body: { password: 'bobs password' }, cookie: bob.cookie, csrf: bob.csrf });
  check(r.status === 200 && /Max-Age=0/.test(r.setCookie), `bob deletes his account (${r.status})`);
  r = await req('GET', '/api/session', { cookie: bob.cookie });
  check(r.status === 401, 'the deleted account\'s session is gone');
  r = await req('GET', '/api/player/bob');
  check(r.status === 404, 'the deleted player has no page');
  r = await req('GET', `/api/games/${g1}`);
  check(r.status === 200 && r.json.status === 'finished' && r.json.seats[1].name === 'deleted player' &&
    !r.json.seats[1].account && r.json.seats[0].account === 'Alice',
    `the game stays, the seat shown as "deleted player" (${JSON.stringify(r.json && r.json.seats)})`);
  pa = await req('GET', '/api/player/alice');
  check(pa.json.history.length === 3 && pa.json.history.every((h) => h.opponent === 'deleted player') &&
    pa.json.games.find((g) => g.id === g1).seats[1].name === 'deleted player',
    'alice\'s history and games show the deleted player');
  r = await req('POST', '/api/session', { body: { name: 'bob', password: 'bobs password' } });
  check(r.status === 401, 'the deleted account cannot log in');
  r = await req('POST', '/api/account', { body: { name: 'Bob', password: 'a new bob here' } });
  check(r.status === 201, `the name is free again (${r.status})`);

  // ---- a flood of log-ins: the games' thread gives passwords at most half its time ---------
  // (Argon2id costs tens of milliseconds there, where moves wait behind it.) Of 300 log-ins
  // sent at once with the right password, those past the budget are refused at once with 503
  // busy and a Retry-After, and never count as failures; once that time has passed, a
  // log-in works again.
  {
    const t0 = Date.now();
    const all = await Promise.all(Array.from({ length: 300 }, () =>
      req('POST', '/api/session', { body: { name: 'bob', password: 'a new bob here' } })));
    const ok = all.filter((x) => x.status === 200).length;
    const busy = all.filter((x) => x.status === 503 && x.json && x.json.code === 'busy' &&
      Number(x.headers.get('retry-after')) >= 1);
    // (some may meet the server's own limit of requests per address first: 429)
    const slow = all.filter((x) => x.status === 429 && x.json && x.json.code === 'too_many_requests').length;
    check(ok > 0 && busy.length > 0 && ok + busy.length + slow === all.length,
      `300 log-ins at once (${Date.now() - t0} ms): ${ok} logged in, ${busy.length} refused 503 busy with ` +
      `Retry-After, ${slow} refused 429 by the requests-per-address limit, no other answer ` +
      `(${[...new Set(all.map((x) => x.status))].join(', ')})`);
    const wait = Math.max(...busy.map((x) => Number(x.headers.get('retry-after'))), 1);
    await sleep(1000 * wait + 1500);
    r = await req('POST', '/api/session', { body: { name: 'bob', password: 'a new bob here' } });
    check(r.status === 200, `after the Retry-After, bob logs in again (${r.status})`);
  }

  // ---- the per-address limit: a name never tried is refused once the address failed often --
  let limited = 0;
  for (let i = 0; i < 60 && !limited; i++) {
    r = await hashing('POST', '/api/session', { body: { name: `stranger${i}`, password: 'not a password' } });
    if (r.status === 429) limited = i + 1;
  }
  check(limited > 0, `the address's failures are limited too (429 after ${limited} more)`);

  // ---- no password anywhere in the logs ------------------------------------------------------
  await S.stop();
  S = null;
  const logText = readFileSync(alog, 'utf8');
  const secrets = ['correct horse', 'battery staple', 'bobs password', 'carols password', 'daves password', 'wrong horse'];
  check(logText.includes('/api/session') && secrets.every((p) => !logText.includes(p)),
    'the access log has the requests and no password');
  check(secrets.every((p) => !stderrText.includes(p)), 'the server printed no password');
}

runTest(main, async () => {
  if (S) await S.kill();
  removeDir(dir);
});
