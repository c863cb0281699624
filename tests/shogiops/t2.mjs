import { parseSfen, makeSfen } from 'shogiops/sfen';
import { parseUsi, makeUsi } from 'shogiops/util';
import { secondLionStepDests } from 'shogiops/variant/chushogi';
import { pieceCanPromote } from 'shogiops/variant/util';
import { readFileSync } from 'fs';
const pos = parseSfen('chushogi', process.argv[2], false).unwrap();
const key = p => makeSfen(p).split(' ').slice(0,3).join(' ');
const ours = new Set();
for (const mv of readFileSync(process.argv[3]).toString().trim().split('\n')) { const c = pos.clone(); c.play(parseUsi(mv)); ours.add(key(c)); }
const ref = new Map();
const add = m => { const c = pos.clone(); c.play(m); ref.set(key(c), makeUsi(m)); };
for (const [from, dests] of pos.allMoveDests()) { const piece = pos.board.get(from);
  for (const to of dests) { if (pieceCanPromote('chushogi')(piece, from, to, pos.board.get(to))) add({from,to,promotion:true}); add({from,to,promotion:false});
    if (['lion','lionpromoted','eagle','falcon'].includes(piece.role)) for (const s of secondLionStepDests(pos, from, to)) add({from, to: s, midStep: to}); } }
for (const [k, m] of ref) if (!ours.has(k)) console.log('only shogiops:', m);
for (const k of ours) if (!ref.has(k)) console.log('only ours:', k);
