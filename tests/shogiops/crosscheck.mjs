// Cross-check of Gravulien's Chu Shogi legal moves against shogiops (lishogi's rules
// library, test-only, GPL, never shipped).
//
//   node crosscheck.mjs <path-to-gravulien> [--seed=N] [--scale=F] [--verbose]
//
// Positions come from (1) seeded random playouts from the start position, (2) random
// positions rich in Lions, Falcons, Eagles and counter-strike squares, (3) sparse
// endgames (bare King / kings-only draw), (4) hand-made Lion tactics. All of them are
// streamed through one `gravulien moves chu --batch` process.
//
// Comparison is by effect: every move we print is played in shogiops and must be legal
// there; the set of child positions (changed squares + side to move + counter-strike
// square) must equal the set shogiops' own enumeration gives (as debug.perft enumerates:
// allMoveDests, promotion choices, secondLionStepDests for lion-power pieces). Positions
// where shogiops' outcome() is defined are skipped and must give an empty line.
//
// One difference is intended (chu.md, lion-trading rule 2): protection is judged on the
// board after the move, so a Lion whose first step captures an enemy Pawn or Go-Between
// that was the only protector of a non-adjacent enemy Lion may take that Lion with its
// second step; shogiops still counts the captured piece. Such moves are counted as
// "expected"; every other difference is a failure (exit 1).

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseSfen } from 'shogiops/sfen';
import { secondLionStepDests } from 'shogiops/variant/chushogi';
import { pieceCanPromote } from 'shogiops/variant/util';
import { makeSquareName, makeUsi, parseUsi, opposite, squareDist } from 'shogiops/util';

const bin = process.argv[2];
if (!bin) {
  console.error('usage: node crosscheck.mjs <path-to-gravulien> [--seed=N] [--scale=F] [--verbose]');
  process.exit(2);
}
let seed = 20240601;
let scale = 1;
let verbose = false;
for (const a of process.argv.slice(3)) {
  if (a.startsWith('--seed=')) seed = Number(a.slice(7)) >>> 0;
  else if (a.startsWith('--scale=')) scale = Number(a.slice(8));
  else if (a === '--verbose') verbose = true;
  else {
    console.error(`unknown argument ${a}`);
    process.exit(2);
  }
}

const t0 = Date.now();
const START =
  'lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1';
const canPromote = pieceCanPromote('chushogi');
const LION_POWER = new Set(['lion', 'lionpromoted', 'falcon', 'eagle']);
const LIONS = new Set(['lion', 'lionpromoted']);

// ---------------------------------------------------------------- deterministic PRNG
function mulberry32(a) {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = mulberry32(seed);
const randInt = n => Math.floor(rnd() * n); // 0..n-1
const pick = arr => arr[randInt(arr.length)];
function pickWeighted(table) {
  let total = 0;
  for (const [, w] of table) total += w;
  let r = rnd() * total;
  for (const [v, w] of table) if ((r -= w) < 0) return v;
  return table[table.length - 1][0];
}

// ---------------------------------------------------------------- shogiops helpers
function parse(sfen) {
  const r = parseSfen('chushogi', sfen, false);
  if (r.isErr) throw new Error(`shogiops refused our own SFEN ${sfen}: ${r.error}`);
  return r.value;
}

// All legal moves as shogiops enumerates them (debug.perft's enumeration, with the
// two legs of a lion move in the right fields).
function shogiopsMoves(pos) {
  const moves = [];
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      if (canPromote(piece, from, to, pos.board.get(to))) {
        moves.push({ from, to, promotion: true });
        moves.push({ from, to, promotion: false });
      } else moves.push({ from, to, promotion: false });
      if (LION_POWER.has(piece.role))
        for (const second of secondLionStepDests(pos, from, to))
          moves.push({ from, to: second, midStep: to, promotion: false });
    }
  }
  return moves;
}

const pieceStr = p => (p ? `${p.color[0]}:${p.role}` : '.');

// The effect of a move: the squares it changes, the side to move and the counter-strike
// square of the child (shogiops' play only touches from, midStep and to).
function effectKey(pos, move) {
  const child = pos.clone();
  child.play(move);
  const sqs = [move.from, move.to];
  if (move.midStep !== undefined) sqs.push(move.midStep);
  sqs.sort((a, b) => a - b);
  const parts = [];
  let prev = -1;
  for (const sq of sqs) {
    if (sq === prev) continue;
    prev = sq;
    const before = pieceStr(pos.board.get(sq)),
      after = pieceStr(child.board.get(sq));
    if (before !== after) parts.push(`${makeSquareName(sq)}=${after}`);
  }
  const cs = child.lastLionCapture === undefined ? '-' : makeSquareName(child.lastLionCapture);
  return `${parts.join(',')} ${child.turn[0]} ${cs}`;
}

// The intended difference: a Lion steps onto an enemy Pawn/Go-Between, then takes a
// non-adjacent enemy Lion whose only protector (on the board after the move) was the
// piece just captured. shogiops forbids it; chu.md allows it.
function isExpectedDifference(pos, move) {
  if (move.midStep === undefined || move.promotion) return false;
  const piece = pos.board.get(move.from);
  if (!piece || piece.color !== pos.turn || !LIONS.has(piece.role)) return false;
  const mid = pos.board.get(move.midStep),
    target = pos.board.get(move.to);
  const them = opposite(pos.turn);
  if (!mid || mid.color !== them || (mid.role !== 'pawn' && mid.role !== 'gobetween')) return false;
  if (!target || target.color !== them || !LIONS.has(target.role)) return false;
  if (squareDist(move.from, move.to) < 2) return false;
  if (squareDist(move.from, move.midStep) !== 1 || squareDist(move.midStep, move.to) !== 1) return false;
  // The rest of the move must be legal for shogiops: first step, and the second step
  // must be refused only because of rule 2.
  if (!pos.isLegal({ from: move.from, to: move.midStep, promotion: false })) return false;
  const occ = pos.board.occupied.withoutMany(move.from, move.midStep);
  const protectors = pos.squareAttackers(move.to, them, occ);
  return protectors.has(move.midStep) && protectors.without(move.midStep).isEmpty();
}

// ---------------------------------------------------------------- SFEN building
// grid[r][c]: r = 0 is rank a (top), c = 0 is file 12 (left). Cells are '' or a
// piece token such as 'N', '+h'.
const emptyGrid = () => Array.from({ length: 12 }, () => Array(12).fill(''));
function gridSfen(grid, stm, cs) {
  const rows = grid.map(row => {
    let s = '',
      e = 0;
    for (const cell of row) {
      if (!cell) e++;
      else {
        if (e) s += e;
        e = 0;
        s += cell;
      }
    }
    if (e) s += e;
    return s;
  });
  return `${rows.join('/')} ${stm} ${cs || '-'} 1`;
}
// USI square name of grid cell: file 12 - c, rank letter r.
const cellName = (r, c) => `${12 - c}${String.fromCharCode(97 + r)}`;
function nameCell(name) {
  const file = parseInt(name.slice(0, -1), 10),
    rank = name.charCodeAt(name.length - 1) - 97;
  return [rank, 12 - file];
}
const isUpper = t => t !== t.toLowerCase();
const colorOf = t => (isUpper(t) ? 'b' : 'w');
const roleLetter = t => t.replace('+', '').toLowerCase();
const withColor = (t, color) => (color === 'b' ? t.toUpperCase() : t.toLowerCase());

// ---------------------------------------------------------------- position sources
const positions = []; // { sfen, source }
const seen = new Set();
function addPosition(sfen, source) {
  const key = sfen.replace(/ \d+$/, '');
  if (seen.has(key)) return;
  seen.add(key);
  positions.push({ sfen, source });
}

// (1) Random playouts from the start position.
function randomMove(pos) {
  const firsts = [];
  for (const [from, dests] of pos.allMoveDests()) for (const to of dests) firsts.push([from, to]);
  if (!firsts.length) return undefined;
  const [from, to] = pick(firsts);
  const piece = pos.board.get(from);
  if (LION_POWER.has(piece.role) && rnd() < 0.5) {
    const seconds = [...secondLionStepDests(pos, from, to)];
    if (seconds.length) return { from, to: pick(seconds), midStep: to, promotion: false };
  }
  return { from, to, promotion: canPromote(piece, from, to, pos.board.get(to)) && rnd() < 0.7 };
}
function playouts(games, plies) {
  for (let g = 0; g < games; g++) {
    const pos = parse(START);
    for (let ply = 0; ply <= plies; ply++) {
      const sfen = `${sfenOf(pos)}`;
      addPosition(sfen, `playout ${g} ply ${ply}`);
      if (pos.outcome() !== undefined) break;
      const m = randomMove(pos);
      if (!m) break;
      pos.play(m);
    }
  }
}
function sfenOf(pos) {
  const grid = emptyGrid();
  for (const [sq, p] of pos.board) {
    const r = sq >>> 4,
      file = (sq & 15) + 1;
    grid[r][12 - file] = withColor(ROLE_TOKEN[p.role], p.color === 'sente' ? 'b' : 'w');
  }
  const cs = pos.lastLionCapture === undefined ? '-' : makeSquareName(pos.lastLionCapture);
  return gridSfen(grid, pos.turn === 'sente' ? 'b' : 'w', cs);
}
const ROLE_TOKEN = {
  lance: 'l', whitehorse: '+l', leopard: 'f', bishoppromoted: '+f', copper: 'c',
  sidemoverpromoted: '+c', silver: 's', verticalmoverpromoted: '+s', gold: 'g',
  rookpromoted: '+g', king: 'k', elephant: 'e', prince: '+e', chariot: 'a', whale: '+a',
  bishop: 'b', horsepromoted: '+b', tiger: 't', stag: '+t', kirin: 'o', lionpromoted: '+o',
  phoenix: 'x', queenpromoted: '+x', sidemover: 'm', boar: '+m', verticalmover: 'v', ox: '+v',
  rook: 'r', dragonpromoted: '+r', horse: 'h', falcon: '+h', dragon: 'd', eagle: '+d',
  lion: 'n', queen: 'q', pawn: 'p', promotedpawn: '+p', gobetween: 'i', elephantpromoted: '+i',
};

// (2) Random Lion-rich positions.
const PIECE_TABLE = [
  ['n', 10], ['+o', 6], ['+h', 6], ['+d', 6], ['p', 12], ['i', 8], ['l', 4], ['q', 3],
  ['d', 3], ['h', 3], ['r', 3], ['b', 3], ['o', 4], ['x', 3], ['e', 2], ['t', 2], ['f', 2],
  ['g', 3], ['s', 2], ['c', 2], ['v', 2], ['m', 2], ['a', 2], ['+x', 1], ['+t', 1],
  ['+f', 1], ['+g', 1], ['+s', 1], ['+c', 1], ['+v', 1], ['+m', 1], ['+a', 1], ['+l', 1],
  ['+i', 1], ['+p', 2], ['+b', 1], ['+r', 1],
];
const LION_TOKENS = ['n', 'n', '+o', '+h', '+d'];
const CHEAP_TOKENS = ['p', 'p', 'i'];

function emptyCells(grid) {
  const out = [];
  for (let r = 0; r < 12; r++) for (let c = 0; c < 12; c++) if (!grid[r][c]) out.push([r, c]);
  return out;
}
function emptyNear(grid, r, c, dist) {
  const out = [];
  for (let dr = -dist; dr <= dist; dr++)
    for (let dc = -dist; dc <= dist; dc++) {
      if (Math.max(Math.abs(dr), Math.abs(dc)) !== dist) continue;
      const rr = r + dr,
        cc = c + dc;
      if (rr >= 0 && rr < 12 && cc >= 0 && cc < 12 && !grid[rr][cc]) out.push([rr, cc]);
    }
  return out;
}
function cellsOf(grid, pred) {
  const out = [];
  for (let r = 0; r < 12; r++) for (let c = 0; c < 12; c++) if (grid[r][c] && pred(grid[r][c])) out.push([r, c]);
  return out;
}
function placeAt(grid, cells, token) {
  if (!cells.length) return false;
  const [r, c] = pick(cells);
  grid[r][c] = token;
  return true;
}
// A Pawn/Lance on its last rank, or one step before it, sometimes.
function placePawnish(grid, color) {
  const t = rnd() < 0.7 ? 'p' : 'l';
  const lastRow = color === 'b' ? 0 : 11,
    nextRow = color === 'b' ? 1 : 10;
  const r = rnd() < 0.5 ? lastRow : nextRow;
  const c = randInt(12);
  if (!grid[r][c]) grid[r][c] = withColor(t, color);
}

function randomPosition(minOthers, maxOthers, lionRich) {
  const grid = emptyGrid();
  const royals = {};
  for (const color of ['b', 'w']) {
    const royal = rnd() < 0.08 ? '+e' : 'k';
    royals[color] = royal;
    placeAt(grid, emptyCells(grid), withColor(royal, color));
    if (royal === 'k' && rnd() < 0.05) placeAt(grid, emptyCells(grid), withColor('+e', color));
  }
  for (const color of ['b', 'w']) {
    const n = minOthers + randInt(maxOthers - minOthers + 1);
    for (let i = 0; i < n; i++) {
      if (rnd() < 0.08) placePawnish(grid, color);
      else placeAt(grid, emptyCells(grid), withColor(pickWeighted(PIECE_TABLE), color));
    }
  }
  if (lionRich) {
    // Enemy Lions next to or two away from Lions, cheap pieces around them, protectors.
    const extra = randInt(8);
    for (let i = 0; i < extra; i++) {
      const lions = cellsOf(grid, t => LION_TOKENS.includes(t.toLowerCase()));
      if (!lions.length) break;
      const [r, c] = pick(lions);
      const them = colorOf(grid[r][c]) === 'b' ? 'w' : 'b';
      const what = rnd();
      const dist = rnd() < 0.5 ? 1 : 2;
      if (what < 0.5) placeAt(grid, emptyNear(grid, r, c, dist), withColor(pick(['n', 'n', '+o']), them));
      else if (what < 0.8) placeAt(grid, emptyNear(grid, r, c, 1), withColor(pick(CHEAP_TOKENS), them));
      else placeAt(grid, emptyNear(grid, r, c, dist), withColor(pickWeighted(PIECE_TABLE), pick(['b', 'w'])));
    }
  }
  const stm = rnd() < 0.5 ? 'b' : 'w';
  const mover = stm === 'b' ? 'w' : 'b';
  let cs = '-';
  if (rnd() < 0.3) {
    // Counter-strike square: a piece of the side that just moved; sometimes a Lion there
    // (a Kirin that promoted on capturing).
    const own = cellsOf(grid, t => colorOf(t) === mover && !['k', '+e'].includes(t.toLowerCase()));
    if (own.length) {
      const [r, c] = pick(own);
      if (rnd() < 0.3) grid[r][c] = withColor('+o', mover);
      cs = cellName(r, c);
    }
  }
  return gridSfen(grid, stm, cs);
}

// (3) Sparse endgames: bare King, kings-only draw, dead Pawns and Lances.
function endgamePosition() {
  const grid = emptyGrid();
  for (const color of ['b', 'w']) placeAt(grid, emptyCells(grid), withColor(rnd() < 0.15 ? '+e' : 'k', color));
  for (const color of ['b', 'w']) {
    const n = randInt(4);
    for (let i = 0; i < n; i++) {
      const r = rnd();
      if (r < 0.3) placePawnish(grid, color);
      else if (r < 0.5) placeAt(grid, emptyCells(grid), withColor(pick(['p', 'i', 'l']), color));
      else {
        // Sometimes right next to the enemy royal (the bared King may attack it).
        const royals = cellsOf(grid, t => colorOf(t) !== color && ['k', '+e'].includes(t.toLowerCase()));
        const token = withColor(pickWeighted(PIECE_TABLE), color);
        if (royals.length && rnd() < 0.4) {
          const [rr, cc] = pick(royals);
          placeAt(grid, emptyNear(grid, rr, cc, 1), token);
        } else placeAt(grid, emptyCells(grid), token);
      }
    }
  }
  return gridSfen(grid, rnd() < 0.5 ? 'b' : 'w', '-');
}

// (4) Hand-made Lion tactics. Each is {squareName: token}, side to move, counter-strike.
function handPosition(pieces, stm, cs = '-') {
  const grid = emptyGrid();
  for (const [name, t] of Object.entries(pieces)) {
    const [r, c] = nameCell(name);
    grid[r][c] = t;
  }
  return gridSfen(grid, stm, cs);
}
const HAND = [
  // Lions two apart, unprotected: the jump capture is legal.
  [{ '1a': 'k', '12l': 'K', '6h': 'N', '6f': 'n' }, 'b'],
  // Same, the enemy Lion protected by a Gold: no jump capture, no step-step capture.
  [{ '1a': 'k', '12l': 'K', '6h': 'N', '6f': 'n', '6e': 'g' }, 'b'],
  // Hidden protector: a Rook behind our Lion sees the target once our Lion leaves.
  [{ '1a': 'k', '12l': 'K', '6h': 'N', '6f': 'n', '6k': 'r' }, 'b'],
  // Case IV: the first step takes a Silver, the second the protected Lion.
  [{ '1a': 'k', '12l': 'K', '6h': 'N', '6g': 's', '6f': 'n', '6e': 'g' }, 'b'],
  // Intended difference: first step takes the only protector, a Pawn (then a Go-Between).
  [{ '1a': 'k', '12l': 'K', '6d': 'N', '6e': 'p', '6f': 'n' }, 'b'],
  [{ '1a': 'k', '12l': 'K', '6d': 'N', '6e': 'i', '6f': 'n' }, 'b'],
  [{ '1l': 'K', '12a': 'k', '6i': 'n', '6h': 'P', '6g': 'N' }, 'w'],
  [{ '1l': 'K', '12a': 'k', '6i': 'n', '6h': 'I', '6g': 'N' }, 'w'],
  // Pawn protector plus a second protector: forbidden for both.
  [{ '1a': 'k', '12l': 'K', '6d': 'N', '6e': 'p', '6f': 'n', '5e': 'g' }, 'b'],
  // Adjacent Lions: always capturable; igui and double capture of two Lions.
  [{ '1a': 'k', '12l': 'K', '6h': 'N', '6g': 'n', '6f': 'n', '5f': 'g', '7f': '+o' }, 'b'],
  [{ '1a': 'k', '12l': 'K', '6h': 'N', '6g': 'n', '5g': '+o', '7g': 'p', '6e': 'g' }, 'w'],
  // Counter-strike: a Lion was just taken at 6f by a Gote Gold; Sente's non-Lions may not
  // take the Lion at 3c, Sente's Lion may.
  [{ '1a': 'k', '12l': 'K', '6f': 'g', '3c': 'n', '3d': 'G', '4d': 'N', '6h': 'R' }, 'b', '6f'],
  // Kirin-promotion case: the capturer became a Lion; it may be taken on that square.
  [{ '1a': 'k', '12l': 'K', '6f': '+o', '6g': 'G', '3c': 'n', '3d': 'G', '2f': '+H', '4f': '+D' }, 'b', '6f'],
  // Falcon and Eagle versus Lions, with and without counter-strike.
  [{ '1a': 'k', '12l': 'K', '6h': '+H', '6g': 'p', '6f': 'n', '4h': '+D', '3g': 'n', '2f': 'p' }, 'b'],
  [{ '1a': 'k', '12l': 'K', '6h': '+H', '6g': 'p', '6f': 'n', '4h': '+D', '3g': 'n', '2f': 'p', '9c': 'g' }, 'b', '9c'],
  // Lions facing each other in a crowd.
  [{ '1a': 'k', '12l': 'K', '6h': 'N', '6f': 'n', '5g': 'p', '7g': 'P', '6g': 'i', '5f': 'G', '7h': 'n', '5i': 'P' }, 'b'],
  [{ '1a': 'k', '12l': 'K', '6h': 'N', '6f': 'n', '5g': 'p', '7g': 'P', '6g': 'i', '5f': 'G', '7h': 'n', '5i': 'P' }, 'w'],
  // A Lion that can only pass, and a position with no legal move for Sente but a pass.
  [{ '1a': 'k', '12l': 'K', '6h': 'N', '6g': 'P', '5g': 'P', '7g': 'P', '5h': 'P', '7h': 'P', '5i': 'P', '6i': 'P' }, 'b'],
];

// ---------------------------------------------------------------- build the sample
const nGames = Math.round(150 * scale);
playouts(nGames, 200);
const nPlayout = positions.length;
for (const [pieces, stm, cs] of HAND) addPosition(handPosition(pieces, stm, cs), 'hand-made');
const nRandom = Math.round(9000 * scale);
for (let i = 0; i < nRandom; i++) {
  const lionRich = i % 3 !== 2;
  addPosition(randomPosition(6, 30, lionRich), lionRich ? 'random lion-rich' : 'random');
}
const nEnd = Math.round(3000 * scale);
for (let i = 0; i < nEnd; i++) addPosition(endgamePosition(), 'endgame');
if (verbose) console.log(`generated ${positions.length} positions (${nPlayout} from playouts) in ${Date.now() - t0} ms`);

// ---------------------------------------------------------------- run gravulien
function runGravulien(lines) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['moves', 'chu', '--batch'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const out = [];
    child.on('error', reject);
    const rl = createInterface({ input: child.stdout, crlfDelay: Infinity });
    rl.on('line', l => out.push(l));
    child.on('close', code => {
      if (code !== 0) reject(new Error(`${bin} exited with status ${code}`));
      else resolve(out);
    });
    child.stdin.on('error', reject);
    child.stdin.end(lines.map(l => l + '\n').join(''));
  });
}

let output;
try {
  output = await runGravulien(positions.map(p => p.sfen));
} catch (e) {
  console.error(`crosscheck: cannot run ${bin}: ${e.message}`);
  process.exit(1);
}
if (output.length !== positions.length) {
  console.error(`crosscheck: ${positions.length} positions sent, ${output.length} lines received`);
  process.exit(1);
}
const tEngine = Date.now();

// ---------------------------------------------------------------- compare
let checked = 0,
  skipped = 0,
  expected = 0,
  failures = 0,
  ourMoveCount = 0;
const MAX_REPORTS = 20;
function report(p, lines) {
  failures++;
  if (failures > MAX_REPORTS) return;
  console.log(`FAIL [${p.source}] ${p.sfen}`);
  for (const l of lines) console.log(`  ${l}`);
}

for (let i = 0; i < positions.length; i++) {
  const p = positions[i],
    line = output[i];
  if (line.startsWith('error:')) {
    report(p, [`gravulien refused the position: ${line}`]);
    continue;
  }
  const pos = parse(p.sfen);
  const ours = line === '' ? [] : line.split(' ');
  const outcome = pos.outcome();
  if (outcome !== undefined) {
    skipped++;
    if (ours.length) report(p, [`game over for shogiops (${outcome.result}) but gravulien lists ${ours.length} moves: ${line}`]);
    continue;
  }
  checked++;
  ourMoveCount += ours.length;

  const problems = [];
  // A: our moves, played in shogiops.
  const ourByKey = new Map();
  const unparsable = [],
    illegal = [];
  for (const usi of ours) {
    const m = parseUsi(usi);
    if (!m || m.role !== undefined || makeUsi(m) !== usi) {
      unparsable.push(usi);
      continue;
    }
    const key = effectKey(pos, m);
    if (!pos.isLegal(m)) illegal.push({ usi, m, key });
    if (!ourByKey.has(key)) ourByKey.set(key, []);
    ourByKey.get(key).push(usi);
  }
  if (unparsable.length) problems.push(`moves not in lishogi USI form: ${unparsable.join(' ')}`);
  const dups = [...ourByKey.values()].filter(v => v.length > 1);
  if (dups.length) problems.push(`moves with the same effect: ${dups.map(v => v.join('=')).join(' ')}`);

  // B: shogiops' moves.
  const theirByKey = new Map();
  for (const m of shogiopsMoves(pos)) {
    const key = effectKey(pos, m);
    if (!theirByKey.has(key)) theirByKey.set(key, makeUsi(m));
  }

  const onlyOurs = [],
    onlyTheirs = [],
    expectedHere = [];
  for (const [key, usis] of ourByKey) {
    if (theirByKey.has(key)) continue;
    const allExpected = usis.every(u => isExpectedDifference(pos, parseUsi(u)));
    if (allExpected) expectedHere.push(...usis);
    else onlyOurs.push(...usis);
  }
  for (const [key, usi] of theirByKey) if (!ourByKey.has(key)) onlyTheirs.push(usi);
  const expectedSet = new Set(expectedHere);
  const illegalUnexpected = illegal.filter(x => !expectedSet.has(x.usi) && theirByKey.has(x.key));
  if (illegalUnexpected.length)
    problems.push(`moves shogiops' isLegal refuses (same effect as a legal move): ${illegalUnexpected.map(x => x.usi).join(' ')}`);
  if (onlyOurs.length) problems.push(`only gravulien: ${onlyOurs.join(' ')}`);
  if (onlyTheirs.length) problems.push(`only shogiops: ${onlyTheirs.join(' ')}`);
  expected += expectedHere.length;
  if (verbose && expectedHere.length) console.log(`expected difference [${p.source}] ${p.sfen}: ${expectedHere.join(' ')}`);
  if (problems.length) report(p, problems);
}

if (failures > MAX_REPORTS) console.log(`... ${failures - MAX_REPORTS} more failing positions not shown`);
const tEnd = Date.now();
console.log(
  `crosscheck: ${positions.length} positions (${nPlayout} from ${nGames} playouts), ` +
    `${checked} checked (${ourMoveCount} moves), ${skipped} skipped terminal, ` +
    `${expected} expected differences, ${failures} failures ` +
    `[${((tEnd - t0) / 1000).toFixed(1)} s, gravulien ${((tEngine - t0) / 1000).toFixed(1)} s incl. generation]`
);
process.exit(failures ? 1 : 0);
