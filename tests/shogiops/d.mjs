import { parseSfen, makeSfen } from 'shogiops/sfen';
import { parseUsi } from 'shogiops/util';
import { execFileSync } from 'child_process';
const [bin, sfen, depth, opts] = [process.argv[2], process.argv[3], process.argv[4], process.argv[5]];
const pos = parseSfen('chushogi', sfen, false).unwrap();
const args = ['perft', 'chu', depth, sfen, '--divide']; if (opts) args.push('--options', opts);
const ours = execFileSync(bin, args).toString().trim().split('\n');
for (const line of ours) {
  const [mv, cnt] = line.split(' ');
  if (mv === 'nodes') continue;
  const c = pos.clone(); c.play(parseUsi(mv));
  const child = makeSfen(c);
  const ref = execFileSync('node', ['perft.mjs', String(depth-1), child]).toString().trim().split('\n').pop().split(' ')[1];
  if (ref !== cnt) console.log(mv, 'ours', cnt, 'ref', ref, child);
}
