// Cross-check of Gravulien's Chu Shogi legal moves against shogiops (lishogi's rules
// library, test-only, GPL, never shipped).
//
//   node crosscheck.mjs <path-to-gravulien> [--seed=N] [--scale=F] [--workers=N] [--verbose]
//
// (run by run.sh; exit 0 on agreement, 1 on any disagreement). --seed changes the sample,
// --scale multiplies its size, --verbose lists every expected difference.
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
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { parseSfen } from 'shogiops/sfen';
import { secondLionStepDests } from 'shogiops/variant/chushogi';
import { pieceCanPromote, promote } from 'shogiops/variant/util';
import { makeSquareName, makeUsi, parseUsi, opposite, squareDist } from 'shogiops/util';

const START =
  'lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1';
const canPromote = pieceCanPromote('chushogi');
const promoteRole = promote('chushogi');
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
let rnd = Math.random; // seeded in main()
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
function shogiopsMoves(pos, ctx) {
  const moves = [];
  for (const [from, dests] of pos.allMoveDests(ctx)) {
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
// square of the child. Computed from the move the way shogiops' play() applies it (take
// the origin, set the destination - promoted if asked and pieceCanPromote allows - then
// take the mid-step square; a non-Lion capturing a Lion sets the counter-strike square).
// Playing every move on a clone would triple the run time, so effectKeyChecked() below
// confirms this against clone()+play() for a sample of the moves.
// `cells` is the position's board as an array indexed by square (board.get is slow).
function effectChanges(pos, cells, move) {
  const piece = cells[move.from];
  if (!piece) return undefined;
  const captured = move.to === move.from ? undefined : cells[move.to];
  let role = piece.role;
  if (move.promotion && canPromote(piece, move.from, move.to, captured)) role = promoteRole(role) || role;
  const changes = new Map();
  changes.set(move.from, undefined);
  changes.set(move.to, { color: piece.color, role });
  let cs;
  if (move.midStep !== undefined) {
    const mid = cells[move.midStep];
    changes.set(move.midStep, undefined);
    if (mid && mid.color !== pos.turn && !LIONS.has(piece.role) && LIONS.has(mid.role)) cs = move.midStep;
  }
  if (captured && captured.color !== pos.turn && !LIONS.has(piece.role) && LIONS.has(captured.role)) cs = move.to;
  return { changes, cs, turn: opposite(pos.turn) };
}
function effectKey(pos, cells, move) {
  const e = effectChanges(pos, cells, move);
  if (!e) return `no piece on ${move.from}`;
  const sqs = [...e.changes.keys()];
  if (sqs.length > 1) sqs.sort((a, b) => a - b);
  let key = '';
  for (const sq of sqs) {
    const after = pieceStr(e.changes.get(sq));
    if (after !== pieceStr(cells[sq])) key += `${sq}=${after},`;
  }
  return `${key}${e.turn[0]}${e.cs === undefined ? '-' : e.cs}`;
}
function boardCells(pos) {
  const cells = new Array(256);
  for (const [sq, p] of pos.board) cells[sq] = p;
  return cells;
}
let sampleCounter = 0,
  playChecks = 0;
function effectKeyChecked(pos, cells, move) {
  const key = effectKey(pos, cells, move);
  if (++sampleCounter % 16 !== 0) return key;
  playChecks++;
  const e = effectChanges(pos, cells, move);
  const child = pos.clone();
  child.play(move);
  let ok = child.turn === e.turn && child.lastLionCapture === e.cs;
  for (const [sq, want] of e.changes) if (pieceStr(child.board.get(sq)) !== pieceStr(want)) ok = false;
  // and nothing else changed
  for (const sq of child.board.occupied.xor(pos.board.occupied)) if (!e.changes.has(sq)) ok = false;
  if (!ok) throw new Error(`internal: effect of ${makeUsi(move)} differs from shogiops play() in ${sfenOf(pos)}`);
  return key;
}

// Per-position memo of moveDests (isLegal recomputes it for every move otherwise).
function memoizeMoveDests(pos) {
  const orig = pos.moveDests.bind(pos),
    memo = new Map();
  pos.moveDests = (sq, ctx) => {
    let d = memo.get(sq);
    if (d === undefined) memo.set(sq, (d = orig(sq, ctx)));
    return d;
  };
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
// One game; its own PRNG stream, so the sample does not depend on the thread count.
function playout(seed, g, plies) {
  rnd = mulberry32((seed ^ Math.imul(g + 1, 0x9e3779b1)) >>> 0);
  const out = [];
  const pos = parse(START);
  for (let ply = 0; ply <= plies; ply++) {
    out.push(sfenOf(pos));
    if (pos.outcome() !== undefined) break;
    const m = randomMove(pos);
    if (!m) break;
    pos.play(m);
  }
  return out;
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
  for (const color of ['b', 'w']) {
    const royal = rnd() < 0.08 ? '+e' : 'k';
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
  // Counter-strike: a Lion was just taken at 6f by a Gote Gold; Sente's Gold may not take
  // the Lion at 3c, Sente's Lion may; the Rook may take the Gold.
  [{ '1a': 'k', '12l': 'K', '6f': 'g', '3c': 'n', '3d': 'G', '4d': 'N', '6h': 'R' }, 'b', '6f'],
  // Kirin-promotion case: the capturer became a Lion; it may be taken on that square.
  [{ '1a': 'k', '12l': 'K', '6f': '+o', '6g': 'G', '3c': 'n', '3d': 'G', '2f': '+H', '4f': '+D' }, 'b', '6f'],
  // Falcon and Eagle versus Lions, with and without counter-strike.
  [{ '1a': 'k', '12l': 'K', '6h': '+H', '6g': 'p', '6f': 'n', '4h': '+D', '3g': 'n', '2f': 'p' }, 'b'],
  [{ '1a': 'k', '12l': 'K', '6h': '+H', '6g': 'p', '6f': 'n', '4h': '+D', '3g': 'n', '2f': 'p', '9c': 'g' }, 'b', '9c'],
  // Lions facing each other in a crowd.
  [{ '1a': 'k', '12l': 'K', '6h': 'N', '6f': 'n', '5g': 'p', '7g': 'P', '6g': 'i', '5f': 'G', '7h': 'n', '5i': 'P' }, 'b'],
  [{ '1a': 'k', '12l': 'K', '6h': 'N', '6f': 'n', '5g': 'p', '7g': 'P', '6g': 'i', '5f': 'G', '7h': 'n', '5i': 'P' }, 'w'],
  // A Lion boxed in by its own Pawns (one empty neighbour: a step, a pass and jumps).
  [{ '1a': 'k', '2b': 'g', '3b': 's', '12l': 'K', '6h': 'N', '6g': 'P', '5g': 'P', '7g': 'P', '5h': 'P', '7h': 'P', '5i': 'P', '6i': 'P' }, 'b'],
  // Three pieces can take the Gold at 6g by igui (Falcon, Lion, Eagle): one effect, so
  // one move; Lion, Falcon and Eagle can all pass: one pass.
  [{ '1a': 'k', '2b': 'g', '12l': 'K', '6g': 'g', '6h': '+H', '5f': 'N', '7h': '+D', '9i': '+H', '9j': '+D' }, 'b'],
  [{ '1l': 'K', '2k': 'G', '12a': 'k', '6f': 'G', '6e': '+h', '5g': 'n', '7e': '+d', '9c': '+h', '9d': '+d' }, 'w'],
];

// ---------------------------------------------------------------- compare (in workers)
// items: [{ i, sfen, source, line }] -> counts, failure reports, expected differences.
function compareChunk(items) {
  const res = { checked: 0, skipped: 0, expected: 0, moves: 0, playChecks: 0, outcomes: {}, failures: [], expectedLines: [] };
  for (const { i, sfen, source, line } of items) {
    const problems = compareOne(sfen, line, res);
    if (problems.length) res.failures.push({ i, text: [`FAIL [${source}] ${sfen}`, ...problems.map(l => `  ${l}`)] });
    else if (res.lastExpected) res.expectedLines.push({ i, text: `expected difference [${source}] ${sfen}: ${res.lastExpected}` });
    res.lastExpected = undefined;
  }
  res.playChecks = playChecks;
  delete res.lastExpected;
  return res;
}

function compareOne(sfen, line, res) {
  if (line.startsWith('error:')) return [`gravulien refused the position: ${line}`];
  const pos = parse(sfen);
  memoizeMoveDests(pos);
  const ours = line === '' ? [] : line.split(' ');
  const ctx = pos.ctx();
  const outcome = pos.outcome(ctx);
  if (outcome !== undefined) {
    res.skipped++;
    res.outcomes[outcome.result] = (res.outcomes[outcome.result] || 0) + 1;
    if (ours.length) return [`game over for shogiops (${outcome.result}) but gravulien lists ${ours.length} moves: ${line}`];
    return [];
  }
  res.checked++;
  res.moves += ours.length;

  const problems = [];
  const cells = boardCells(pos);
  // B: shogiops' moves.
  const theirByKey = new Map(),
    theirUsis = new Set();
  for (const m of shogiopsMoves(pos, ctx)) {
    const key = effectKeyChecked(pos, cells, m),
      usi = makeUsi(m);
    theirUsis.add(usi);
    if (!theirByKey.has(key)) theirByKey.set(key, usi);
  }
  // A: our moves, played in shogiops.
  const ourByKey = new Map();
  const unparsable = [],
    illegal = [];
  for (const usi of ours) {
    const m = parseUsi(usi);
    if (!m || m.role !== undefined || makeUsi(m) !== usi || !pos.board.get(m.from)) {
      unparsable.push(usi);
      continue;
    }
    const key = effectKeyChecked(pos, cells, m);
    // isLegal(m) holds for every move of shogiops' enumeration; ask it for the others.
    if (!theirUsis.has(usi) && !pos.isLegal(m, ctx)) illegal.push({ usi, key });
    if (!ourByKey.has(key)) ourByKey.set(key, []);
    ourByKey.get(key).push(usi);
  }
  if (unparsable.length) problems.push(`moves not in lishogi USI form or from an empty square: ${unparsable.join(' ')}`);
  // Each move must have its own effect: two passes, a jump also listed as a step-step
  // over an empty square, or an igui of one victim by two pieces are duplicates.
  const dups = [...ourByKey.values()].filter(v => v.length > 1);
  if (dups.length) problems.push(`moves with the same effect: ${dups.map(v => v.join('=')).join(' ')}`);

  const onlyOurs = [],
    onlyTheirs = [],
    expectedHere = [];
  for (const [key, usis] of ourByKey) {
    if (theirByKey.has(key)) continue;
    if (usis.every(u => isExpectedDifference(pos, parseUsi(u)))) expectedHere.push(...usis);
    else onlyOurs.push(...usis);
  }
  for (const [key, usi] of theirByKey) if (!ourByKey.has(key)) onlyTheirs.push(usi);
  // Moves with a legal effect that shogiops' isLegal refuses as written.
  const illegalSpelled = illegal.filter(x => theirByKey.has(x.key));
  if (illegalSpelled.length)
    problems.push(`moves shogiops' isLegal refuses (same effect as a legal move): ${illegalSpelled.map(x => x.usi).join(' ')}`);
  if (onlyOurs.length) problems.push(`only gravulien: ${onlyOurs.join(' ')}`);
  if (onlyTheirs.length) problems.push(`only shogiops: ${onlyTheirs.join(' ')}`);
  res.expected += expectedHere.length;
  if (expectedHere.length) res.lastExpected = expectedHere.join(' ');
  return problems;
}

// ---------------------------------------------------------------- run gravulien
function runGravulien(bin, lines) {
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

// Runs this file in one worker thread per element of `data`; resolves to their answers.
function inWorkers(data) {
  return Promise.all(
    data.map(
      d =>
        new Promise((resolve, reject) => {
          const w = new Worker(new URL(import.meta.url), { workerData: d });
          w.once('message', resolve);
          w.once('error', reject);
          w.once('exit', code => code && reject(new Error(`worker exited with status ${code}`)));
        })
    )
  ).catch(e => {
    console.error(`crosscheck: internal error: ${e.stack || e}`);
    process.exit(1);
  });
}

async function main() {
  const bin = process.argv[2];
  if (!bin) {
    console.error('usage: node crosscheck.mjs <path-to-gravulien> [--seed=N] [--scale=F] [--workers=N] [--verbose]');
    process.exit(2);
  }
  let seed = 20240601,
    scale = 1,
    workers = Math.max(1, Math.min(4, availableParallelism())),
    verbose = false;
  for (const a of process.argv.slice(3)) {
    if (a.startsWith('--seed=')) seed = Number(a.slice(7)) >>> 0;
    else if (a.startsWith('--scale=')) scale = Number(a.slice(8));
    else if (a.startsWith('--workers=')) workers = Math.max(1, Number(a.slice(10)) | 0);
    else if (a === '--verbose') verbose = true;
    else {
      console.error(`unknown argument ${a}`);
      process.exit(2);
    }
  }
  const t0 = Date.now();
  rnd = mulberry32(seed);

  // ---------------------------------------------------------------- build the sample
  const nGames = Math.round(70 * scale),
    plies = 200;
  const gameChunks = Array.from({ length: workers }, () => []);
  for (let g = 0; g < nGames; g++) gameChunks[g % workers].push(g);
  const games = [];
  (await inWorkers(gameChunks.map(c => ({ games: c, seed, plies })))).forEach((res, w) =>
    res.forEach((sfens, k) => (games[gameChunks[w][k]] = sfens))
  );
  games.forEach((sfens, g) => sfens.forEach((sfen, ply) => addPosition(sfen, `playout ${g} ply ${ply}`)));
  const nPlayout = positions.length;
  for (const [pieces, stm, cs] of HAND) addPosition(handPosition(pieces, stm, cs), 'hand-made');
  const nRandom = Math.round(8000 * scale);
  for (let i = 0; i < nRandom; i++) {
    const lionRich = i % 3 !== 2;
    addPosition(randomPosition(6, 30, lionRich), lionRich ? 'random lion-rich' : 'random');
  }
  const nEnd = Math.round(3000 * scale);
  for (let i = 0; i < nEnd; i++) addPosition(endgamePosition(), 'endgame');
  if (verbose) console.log(`generated ${positions.length} positions (${nPlayout} from playouts) in ${Date.now() - t0} ms`);

  const tGen = Date.now();

  let output;
  try {
    output = await runGravulien(bin, positions.map(p => p.sfen));
  } catch (e) {
    console.error(`crosscheck: cannot run ${bin}: ${e.message}`);
    process.exit(1);
  }
  if (output.length !== positions.length) {
    console.error(`crosscheck: ${positions.length} positions sent, ${output.length} lines received`);
    process.exit(1);
  }
  const tEngine = Date.now();

  // Compare in worker threads (interleaved chunks).
  const chunks = Array.from({ length: workers }, () => []);
  positions.forEach((p, i) => chunks[i % workers].push({ i, sfen: p.sfen, source: p.source, line: output[i] }));
  const results = await inWorkers(chunks.map(items => ({ items })));

  const total = { checked: 0, skipped: 0, expected: 0, moves: 0, playChecks: 0 };
  const failures = [],
    expectedLines = [],
    outcomes = {};
  for (const r of results) {
    for (const k of Object.keys(total)) total[k] += r[k];
    for (const [k, v] of Object.entries(r.outcomes)) outcomes[k] = (outcomes[k] || 0) + v;
    failures.push(...r.failures);
    expectedLines.push(...r.expectedLines);
  }
  failures.sort((a, b) => a.i - b.i);
  expectedLines.sort((a, b) => a.i - b.i);
  const MAX_REPORTS = 20;
  for (const f of failures.slice(0, MAX_REPORTS)) console.log(f.text.join('\n'));
  if (failures.length > MAX_REPORTS) console.log(`... ${failures.length - MAX_REPORTS} more failing positions not shown`);
  for (const e of expectedLines.slice(0, verbose ? Infinity : 3)) console.log(e.text);
  if (!verbose && expectedLines.length > 3) console.log(`... ${expectedLines.length - 3} more positions with expected differences (--verbose lists them)`);
  const tEnd = Date.now();
  const sec = ms => (ms / 1000).toFixed(1);
  console.log(
    `crosscheck: ${positions.length} positions (${nPlayout} from ${nGames} playouts, ${HAND.length} hand-made, ` +
      `${nRandom} random, ${nEnd} endgames, seed ${seed}): ${total.checked} checked (${total.moves} moves), ` +
      `${total.skipped} skipped terminal (${Object.entries(outcomes).map(([k, v]) => `${k} ${v}`).join(', ')}), ${total.expected} expected differences, ${failures.length} failures ` +
      `[${sec(tEnd - t0)} s: generate ${sec(tGen - t0)}, gravulien ${sec(tEngine - tGen)}, ` +
      `compare ${sec(tEnd - tEngine)} on ${workers} threads; ${total.playChecks} effects confirmed by play()]`
  );
  process.exit(failures.length ? 1 : 0);
}

if (isMainThread) await main();
else if (workerData.games)
  parentPort.postMessage(workerData.games.map(g => playout(workerData.seed, g, workerData.plies)));
else parentPort.postMessage(compareChunk(workerData.items));
