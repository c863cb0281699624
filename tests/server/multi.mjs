// Two 'gravulien serve' processes sharing one PostgreSQL (GV_TEST_PG, set by
// tests/pgtmp.sh): a game played across them, a watcher on one seeing moves made through
// the other (LISTEN/NOTIFY), two processes moving at once (one wins, the other is told
// "out of date"), AI turns, and a process killed mid-game whose games finish through the
// other. Usage: tests/pgtmp.sh tests/server/run.sh <gravulien> multi.mjs
import { api, check, sleep, startServer, summary, watcher } from './lib.mjs';

const bin = process.argv[2];
const db = process.env.GV_TEST_PG;
if (!db) {
  console.log('GV_TEST_PG not set (run through tests/pgtmp.sh): skipped');
  process.exit(77);
}

async function legal(base, id, token) {
  const v = await api(base, 'GET', `/api/games/${id}?token=${token}`);
  return v.json;
}

async function waitFor(pred, ms = 15000, step = 50) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await pred()) return true;
    await sleep(step);
  }
  return false;
}

async function main() {
  const extra = ['--rate', '0', '--ai-movetime', '100'];
  let a = await startServer(bin, db, extra);
  const b = await startServer(bin, db, extra);
  const servers = [a, b];
  try {
    // 1. A human game made on A, played alternately through A and B, watched on B.
    const made = await api(a.url, 'POST', '/api/games',
      { game: 'chu', seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
    check(made.status === 201, 'game created on A');
    const id = made.json.id;
    const tok = made.json.tokens.map((t) => t.token);
    const w = watcher(b.url, id, 0);
    await w.opened;
    await w.wait((m) => m.type === 'state');
    const latencies = [];
    for (let i = 0; i < 12; i++) {
      const via = i % 2 ? b : a;
      const seat = i % 2;
      const v = await legal(via.url, id, tok[seat]);
      check(v.n === i && v.to_move === seat, `move ${i + 1}: the ${via === a ? 'A' : 'B'} view is up to date (n ${v.n})`);
      const mv = v.you.legal_moves[(i * 7) % v.you.legal_moves.length];
      const t0 = Date.now();
      const r = await api(via.url, 'POST', `/api/games/${id}/move`, { token: tok[seat], move: mv, n: i + 1 });
      check(r.status === 200 && r.json.n === i + 1, `move ${i + 1} through ${via === a ? 'A' : 'B'} accepted (${r.status} ${r.json && r.json.error})`);
      const ev = await w.wait((m) => m.type === 'move' && m.move && m.move.n === i + 1 && !m.catch_up, 5000)
        .catch(() => null);
      check(ev && ev.move.move === mv, `the watcher on B got move ${i + 1}`);
      if (ev) latencies.push(Date.now() - t0);
    }
    latencies.sort((x, y) => x - y);
    console.log(`move sent -> watcher on B: median ${latencies[latencies.length >> 1]} ms, max ${latencies[latencies.length - 1]} ms`);
    const va = (await api(a.url, 'GET', `/api/games/${id}`)).json;
    const vb = (await api(b.url, 'GET', `/api/games/${id}`)).json;
    check(va.n === 12 && vb.n === 12 && va.position === vb.position, 'A and B agree on the game');

    // 2. Both processes take a move for the same number at once: exactly one succeeds.
    let wins = 0, outOfDate = 0;
    for (let round = 0; round < 6; round++) {
      const v = await legal(a.url, id, tok[va.to_move === 0 ? (round % 2) : 1 - (round % 2)]);
      const seat = v.to_move;
      const me = await legal(a.url, id, tok[seat]);
      const moves = me.you.legal_moves;
      const n = me.n + 1;
      const [ra, rb] = await Promise.all([
        api(a.url, 'POST', `/api/games/${id}/move`, { token: tok[seat], move: moves[0], n }),
        api(b.url, 'POST', `/api/games/${id}/move`, { token: tok[seat], move: moves[moves.length - 1], n }),
      ]);
      const ok = [ra, rb].filter((r) => r.status === 200).length;
      const late = [ra, rb].filter((r) => r.status === 409 && r.json.code === 'out_of_date').length;
      check(ok === 1 && late === 1, `race ${round + 1}: one move stored, the other "out of date" (${ra.status}, ${rb.status})`);
      wins += ok;
      outOfDate += late;
      const after = (await api(b.url, 'GET', `/api/games/${id}`)).json;
      check(after.n === n, `race ${round + 1}: the game has exactly one move ${n}`);
    }
    console.log(`races: ${wins} stored, ${outOfDate} told out of date`);

    // 2b. Joins and a draw offer through both processes at once: none is lost (the game
    // row's revision guards it; the process that wrote second catches up and tries again).
    for (let round = 0; round < 4; round++) {
      const g = await api(a.url, 'POST', '/api/games',
        { game: 'grav', seats: [{ type: 'human', you: true }, { type: 'human' }, { type: 'human' }] });
      const gid = g.json.id, gt = g.json.tokens.map((t) => t.token);
      await api(b.url, 'GET', `/api/games/${gid}`);   // B holds it too
      const [ja, jb] = await Promise.all([
        api(a.url, 'POST', `/api/games/${gid}/join`, { token: gt[1], name: 'Bo' }),
        api(b.url, 'POST', `/api/games/${gid}/join`, { token: gt[2], name: 'Cy' }),
      ]);
      check(ja.status === 200 && jb.status === 200, `join race ${round + 1}: both joins accepted (${ja.status}, ${jb.status})`);
      const views = await Promise.all([a, b].map(async (p) => (await api(p.url, 'GET', `/api/games/${gid}`)).json));
      check(views.every((v) => v.status === 'live' && v.seats[1].name === 'Bo' && v.seats[2].name === 'Cy' &&
        v.seats.every((st) => st.joined)), `join race ${round + 1}: A and B both show both joins, game live`);
    }

    // 3. Against the AI across processes: human moves through B, the AI answers once.
    const ai = await api(a.url, 'POST', '/api/games',
      { game: 'exac', seats: [{ type: 'human', you: true }, { type: 'ai', level: 1 }] });
    const aid = ai.json.id, atok = ai.json.tokens[0].token;
    for (let i = 0; i < 4; i++) {
      const v = await legal(b.url, aid, atok);
      if (v.status !== 'live') break;
      const r = await api(b.url, 'POST', `/api/games/${aid}/move`, { token: atok, move: v.you.legal_moves[0] });
      check(r.status === 200, `AI game: human move ${i + 1} through B`);
      const replied = await waitFor(async () => {
        const x = (await api(b.url, 'GET', `/api/games/${aid}`)).json;
        return x.status !== 'live' || x.to_move === 0;
      });
      check(replied, `AI game: the AI answered move ${i + 1}`);
    }
    const av = (await api(a.url, 'GET', `/api/games/${aid}`)).json;
    check(av.moves.every((m, i) => m.n === i + 1), 'AI game: moves numbered without gaps');
    check(av.moves.every((m, i) => m.seat === i % 2), 'AI game: human and AI alternate (no double AI move)');

    // 4. AI against AI, started on A; A is killed; the game goes on through B.
    const aa = await api(a.url, 'POST', '/api/games',
      { game: 'exac', seats: [{ type: 'ai', level: 1 }, { type: 'ai', level: 1 }] });
    const aaid = aa.json.id;
    const wb = watcher(b.url, aaid, 0);
    await wb.opened;
    await waitFor(async () => (await api(b.url, 'GET', `/api/games/${aaid}`)).json.n >= 2);
    // and a human game in the middle: A dies between moves
    const hh = await api(a.url, 'POST', '/api/games',
      { game: 'chu', seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
    const hid = hh.json.id, htok = hh.json.tokens.map((t) => t.token);
    const first = await legal(a.url, hid, htok[0]);
    check((await api(a.url, 'POST', `/api/games/${hid}/move`, { token: htok[0], move: first.you.legal_moves[0] })).status === 200,
      'human game: a move through A');
    await a.kill();
    const nAtKill = (await api(b.url, 'GET', `/api/games/${aaid}`)).json.n;
    const progressed = await waitFor(async () => {
      const x = (await api(b.url, 'GET', `/api/games/${aaid}`)).json;
      return x.status === 'finished' || x.n >= nAtKill + 3;
    }, 20000, 100);
    check(progressed, `AI game started on A goes on through B after A was killed (n ${nAtKill} -> more)`);
    let hv = await legal(b.url, hid, htok[1]);
    check(hv.n === 1, 'human game: B has the move made through A');
    for (let i = 0; i < 6 && hv.status === 'live'; i++) {
      const seat = hv.to_move;
      const me = await legal(b.url, hid, htok[seat]);
      const r = await api(b.url, 'POST', `/api/games/${hid}/move`, { token: htok[seat], move: me.you.legal_moves[0] });
      check(r.status === 200, `human game: move ${me.n + 1} through B after A died`);
      hv = r.json;
    }
    const rs = await api(b.url, 'POST', `/api/games/${hid}/resign`, { token: htok[hv.to_move] });
    check(rs.status === 200 && rs.json.status === 'finished', 'human game finished through B');

    // 5. A comes back and sees everything B did.
    a = await startServer(bin, db, extra);
    servers[0] = a;
    const back = (await api(a.url, 'GET', `/api/games/${hid}`)).json;
    check(back.status === 'finished' && back.n === hv.n, 'restarted A sees the game B finished');
    const list = (await api(a.url, 'GET', '/api/games?status=finished')).json;
    check(list.games.some((g) => g.id === hid), 'restarted A lists it as finished');
    w.close();
    wb.close();
  } finally {
    for (const s of servers) await s.stop().catch(() => {});
  }
  process.exit(summary());
}

main().catch((e) => { console.log(`FAIL ${e.stack}`); process.exit(1); });
