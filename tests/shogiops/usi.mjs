// `gravulien usi` driven the way lishogi's engine worker drives Fairy-Stockfish, with
// shogiops (lishogi's own rules library) as the judge of every position and move.
//
//   node usi.mjs <path-to-gravulien>
//
// Plays a game from the start position (the engine plays both sides, at alternating
// levels), sending `position sfen <start> moves ...` (lishogi's form) or `position startpos
// moves ...`, then `go btime .. wtime .. binc .. winc ..` or `go byoyomi ..`; every
// `bestmove` must be a legal move for shogiops in lishogi's USI form, every `info ... pv`
// must be a legal line. Also: `stop` after `go infinite`, `go ponder` + `ponderhit`, bad
// commands answered with `info string error` and changing nothing. Exit 0 on success.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseSfen, makeSfen } from 'shogiops/sfen';
import { secondLionStepDests } from 'shogiops/variant/chushogi';
import { parseUsi, makeUsi } from 'shogiops/util';

const START =
  'lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1';
const bin = process.argv[2];
if (!bin) {
  console.error('usage: node usi.mjs <path-to-gravulien>');
  process.exit(2);
}

const engine = spawn(bin, ['usi', '--hash', '16'], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = [];
let waiter = null;
createInterface({ input: engine.stdout }).on('line', l => {
  lines.push(l);
  if (waiter) waiter();
});
const send = s => engine.stdin.write(s + '\n');
// Waits for a line matching re (returns it and every line before it).
function until(re, ms = 20000) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    let timer = null;
    const check = () => {
      const i = lines.findIndex(l => re.test(l));
      if (i >= 0 || Date.now() - t0 > ms) {
        waiter = null;
        clearTimeout(timer);
        if (i >= 0) resolve(lines.splice(0, i + 1));
        else reject(new Error(`timeout waiting for ${re}; got: ${lines.slice(-5).join(' | ')}`));
      } else {
        waiter = check;
        clearTimeout(timer);
        timer = setTimeout(check, 50);
      }
    };
    check();
  });
}

let failures = 0;
const fail = msg => {
  failures++;
  console.log('FAIL ' + msg);
};

function legal(pos, usi) {
  const m = parseUsi(usi);
  if (!m || makeUsi(m) !== usi.replace(/=$/, '')) return null;
  if (m.midStep !== undefined) {
    if (!pos.isLegal({ from: m.from, to: m.midStep, promotion: false })) return null;
    if (!secondLionStepDests(pos, m.from, m.midStep).has(m.to)) return null;
    return m;
  }
  return pos.isLegal(m) ? m : null;
}

function checkPv(pos, info) {
  const pv = info.split(' pv ')[1];
  if (!pv) return;
  const p = pos.clone();
  for (const u of pv.trim().split(/\s+/)) {
    const m = legal(p, u);
    if (!m) return fail(`pv move ${u} not legal for shogiops in ${makeSfen(p)} (${info})`);
    p.play(m);
    if (p.outcome() !== undefined) return;
  }
}

async function main() {
  send('usi');
  const hello = await until(/^usiok$/);
  if (!hello.some(l => /^id name Gravulien/.test(l))) fail('no id name');
  if (!hello.some(l => /^option name USI_Variant type combo .*var chushogi/.test(l))) fail('no USI_Variant option');
  send('setoption name USI_Variant value chushogi');
  send('isready');
  await until(/^readyok$/);
  send('usinewgame');

  const pos = parseSfen('chushogi', START, false).value;
  const moves = [];
  for (let ply = 0; ply < 24 && pos.outcome() === undefined; ply++) {
    send(`setoption name Level value ${ply % 2 ? 3 : 5}`);
    send(ply % 3 === 0 ? `position startpos moves ${moves.join(' ')}`.trim()
                       : `position sfen ${START} moves ${moves.join(' ')}`.trim());
    send(ply % 4 === 3 ? 'go byoyomi 200' : 'go btime 5000 wtime 5000 binc 100 winc 100');
    const out = await until(/^bestmove /);
    const best = out[out.length - 1].split(' ')[1];
    for (const l of out.filter(l => l.startsWith('info depth'))) checkPv(pos, l);
    const m = legal(pos, best);
    if (!m) {
      fail(`bestmove ${best} is not legal for shogiops in ${makeSfen(pos)}`);
      break;
    }
    pos.play(m);
    moves.push(best);
  }
  console.log(`ok   game: ${moves.length} plies, all legal for shogiops: ${moves.join(' ')}`);

  // Our reported position equals shogiops' after the same moves.
  send(`position sfen ${START} moves ${moves.join(' ')}`);
  send('sfen');
  const d = await until(/^info string sfen /);
  const ours = d[d.length - 1].slice('info string sfen '.length);
  if (ours !== makeSfen(pos)) fail(`position differs: ours ${ours}, shogiops ${makeSfen(pos)}`);
  else console.log('ok   position after the game equals shogiops\'');

  // go infinite + stop; go ponder + ponderhit.
  send('go infinite');
  await new Promise(r => setTimeout(r, 300));
  const t0 = Date.now();
  send('stop');
  const s = await until(/^bestmove /, 2000);
  if (!legal(pos, s[s.length - 1].split(' ')[1])) fail('stop: bestmove not legal');
  else console.log(`ok   stop answered in ${Date.now() - t0} ms`);
  send('go ponder btime 2000 wtime 2000 binc 0 winc 0');
  await new Promise(r => setTimeout(r, 200));
  if (lines.some(l => l.startsWith('bestmove'))) fail('ponder: bestmove before ponderhit');
  send('ponderhit');
  const ph = await until(/^bestmove /, 5000);
  if (!legal(pos, ph[ph.length - 1].split(' ')[1])) fail('ponderhit: bestmove not legal');
  else console.log('ok   ponderhit');

  // A search that ends by itself (a royal capture in one) under `go infinite` or `go
  // ponder` must still wait for stop / ponderhit before its bestmove.
  const before = failures;
  for (const [go, end] of [['go infinite', 'stop'], ['go ponder btime 1000 wtime 1000', 'ponderhit']]) {
    send('position sfen 11k/11P/12/12/12/12/12/12/12/12/12/K11 b - 1');
    send(go);
    await new Promise(r => setTimeout(r, 400));
    if (lines.some(l => l.startsWith('bestmove'))) fail(`${go}: bestmove before ${end}`);
    send(end);
    const b = await until(/^bestmove /, 3000);
    if (b[b.length - 1] !== 'bestmove 1b1a') fail(`${go} + ${end}: ${b[b.length - 1]}, expected bestmove 1b1a`);
  }
  if (failures === before) console.log('ok   a finished infinite/ponder search waits for stop/ponderhit');
  send(`position sfen ${START} moves ${moves.join(' ')}`);

  // Bad commands: an error line, and the position is unchanged.
  for (const bad of ['position sfen 12/12 b - 1', `position startpos moves ${moves.join(' ')} 1a1a`,
                     'go btime', 'setoption name USI_Variant value shogi', 'frobnicate']) {
    send(bad);
    await until(/^info string error/, 3000).catch(e => fail(`'${bad}': ${e.message}`));
  }
  send('sfen');
  const d2 = await until(/^info string sfen /);
  if (d2[d2.length - 1].slice('info string sfen '.length) !== ours) fail('a refused command changed the position');
  else console.log('ok   refused commands change nothing');

  send('quit');
  await new Promise(r => engine.on('exit', r));
  if (failures) process.exit(1);
}

main().catch(e => {
  console.log('FAIL ' + e.message);
  engine.kill();
  process.exit(1);
});
