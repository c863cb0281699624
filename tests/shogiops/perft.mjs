// Reference perft from shogiops, counting distinct child positions (one per move effect),
// with finished games as leaves. Used to produce the "own positions" rows of
// tests/test_chu_perft.c.  Usage: node perft.mjs <depth> '<sfen>'
import { parseSfen, makeSfen } from 'shogiops/sfen';
import { secondLionStepDests } from 'shogiops/variant/chushogi';
import { pieceCanPromote } from 'shogiops/variant/util';

const lionPower = ['lion', 'lionpromoted', 'eagle', 'falcon'];

function key(pos) {
  return makeSfen(pos).split(' ').slice(0, 3).join(' ');
}

function children(pos) {
  const out = new Map();
  const add = move => {
    const c = pos.clone();
    c.play(move);
    out.set(key(c), c);
  };
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      if (pieceCanPromote(pos.rules)(piece, from, to, pos.board.get(to))) add({ from, to, promotion: true });
      add({ from, to, promotion: false });
      if (lionPower.includes(piece.role))
        for (const second of secondLionStepDests(pos, from, to)) add({ from, to: second, midStep: to });
    }
  }
  return [...out.values()];
}

function perft(pos, depth) {
  if (depth === 0 || pos.outcome()) return 1;
  const cs = children(pos);
  if (depth === 1) return cs.length;
  let n = 0;
  for (const c of cs) n += perft(c, depth - 1);
  return n;
}

const [depth, sfen] = [parseInt(process.argv[2], 10), process.argv[3]];
const pos = parseSfen('chushogi', sfen, false).unwrap();
for (let d = 1; d <= depth; d++) console.log(`D${d} ${perft(pos, d)}`);
