// Writes the Chu Shogi KIF samples of this folder with shogiops' own KIF writer (the
// test-only GPL reference; nothing of it is shipped): random games played by shogiops,
// the header from makeKifHeader, every move line from makeKifMoveOrDrop, framed as
// lishogi frames them (header, the "手数----" line, each line numbered "%4d", the two lines
// of a lion move numbered alike, then the end) -- the frame docs/records.md describes.
//
//   node tests/data/records/make_kif_samples.mjs     (rewrites chu-*.kif and chu-*.usi)
//
// Each sample comes with a .usi file: the same moves as shogiops' makeUsi writes them, one
// per line, which tests/test_record.c compares with what our KIF reader reads.
//
// Samples 1-4 hold only moves Gravulien writes alike (a lion's two-step move only when its
// first step captures or it returns to its square capturing: igui; no pass), so that our
// writer must give them back byte for byte (save the start header, see docs/records.md).
// Sample 5 also has lion moves through an empty square and passes, which we read but
// write in our canonical form.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const lib = '../../shogiops/node_modules/shogiops/dist';
const { parseSfen } = await import(`${lib}/sfen.js`);
const { makeKifHeader, makeKifMoveOrDrop } = await import(`${lib}/notation/kif.js`);
const { makeUsi } = await import(`${lib}/util.js`);
const { secondLionStepDests } = await import(`${lib}/variant/chushogi.js`);
const { pieceCanPromote } = await import(`${lib}/variant/util.js`);

const here = dirname(fileURLToPath(import.meta.url));
const START =
  'lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1';
const LION_POWER = new Set(['lion', 'lionpromoted', 'falcon', 'eagle']);
const canPromote = pieceCanPromote('chushogi');

function mulberry32(a) {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A random legal move; lion moves of two steps are favoured so the samples hold many.
// canonical: two-step moves only when the first step captures (double capture, igui).
function randomMove(pos, rnd, canonical) {
  const singles = [], doubles = [];
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      const promo = canPromote(piece, from, to, pos.board.get(to));
      singles.push({ from, to, promotion: promo && rnd() < 0.7 });
      if (!LION_POWER.has(piece.role)) continue;
      for (const second of secondLionStepDests(pos, from, to)) {
        if (canonical && !pos.board.has(to)) continue;
        doubles.push({ from, to: second, midStep: to, promotion: false });
      }
    }
  }
  if (doubles.length && rnd() < 0.4) return doubles[Math.floor(rnd() * doubles.length)];
  if (!singles.length) return undefined;
  return singles[Math.floor(rnd() * singles.length)];
}

function pad4(n) {
  return String(n).padStart(4, ' ');
}

// One game: returns [kif text, usi text].
function game(seed, startPlies, plies, canonical) {
  const rnd = mulberry32(seed);
  let pos = parseSfen('chushogi', START, false).unwrap();
  // Optionally start later: a position reached by random moves (no counter-strike square,
  // which a KIF board cannot show).
  for (let i = 0; i < startPlies || (startPlies && pos.lastLionCapture !== undefined); i++) {
    pos.play(randomMove(pos, rnd, true));
  }
  if (startPlies) {
    pos.lastMoveOrDrop = undefined; // a record read from a board has no previous move
    pos.moveNumber = 1;
  }
  const lines = [makeKifHeader(pos), '先手：shogiops random', '後手：shogiops random',
    '手数----指手---------消費時間--'];
  const usis = [];
  let n = 0;
  for (; n < plies; n++) {
    if (pos.outcome() !== undefined) break;
    const md = randomMove(pos, rnd, canonical);
    if (!md) break;
    const text = makeKifMoveOrDrop(pos, md);
    const num = pos.moveNumber;
    if (text.includes('\n')) for (const l of text.split('\n')) lines.push(pad4(num) + l);
    else lines.push(pad4(num) + '   ' + text);
    usis.push(makeUsi(md));
    pos.play(md);
  }
  const outcome = pos.outcome();
  const last = pos.moveNumber - 1;
  if (outcome === undefined) {
    lines.push(pad4(pos.moveNumber) + '   中断', `まで${last}手で中断`);
  } else if (outcome.winner) {
    lines.push(`まで${last}手で${outcome.winner === 'sente' ? '先手' : '後手'}の勝ち`);
  } else {
    lines.push(pad4(pos.moveNumber) + '   千日手', `まで${last}手で千日手`);
  }
  return [lines.join('\n') + '\n', usis.join('\n') + '\n'];
}

const samples = [
  ['chu-1', 11, 0, 120, true],     // from the start, unfinished
  ['chu-2', 22, 0, 600, true],     // from the start, played until shogiops ends it
  ['chu-3', 33, 41, 80, true],     // from a board diagram, Gote to move
  ['chu-4', 47, 50, 600, true],    // from a board diagram, to the end
  ['chu-5', 55, 0, 300, false],    // lion moves through empty squares, passes: read only
];
for (const [name, seed, startPlies, plies, canonical] of samples) {
  const [kif, usi] = game(seed, startPlies, plies, canonical);
  writeFileSync(join(here, `${name}.kif`), kif);
  writeFileSync(join(here, `${name}.usi`), usi);
  console.log(`${name}: ${usi.trim().split('\n').length} moves`);
}
