// The browser engine (web/engine/worker.js) in a Node worker thread, with the same
// message API a page uses; and the native program's answers to compare with.
import { execFileSync, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const workerPath = join(root, 'web', 'engine', 'worker.js');

// start() -> {req(cmd, args, onInfo) -> promise of the answer, post(msg), close()}.
export function start() {
  const w = new Worker(workerPath);
  const pending = new Map();
  let next = 0;
  w.on('message', (m) => {
    const p = pending.get(m.id);
    if (!p) return;
    if (m.info) {
      if (p.onInfo) p.onInfo(m.info);
      return;
    }
    pending.delete(m.id);
    p.resolve(m);
  });
  w.on('error', (e) => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  });
  const req = (cmd, args = {}, onInfo = null) => new Promise((resolve, reject) => {
    const id = ++next;
    pending.set(id, { resolve, reject, onInfo });
    w.postMessage({ id, cmd, ...args });
  });
  return { req, close: () => w.terminate() };
}

// Answers the request or throws its error.
export async function must(engine, cmd, args = {}, onInfo = null) {
  const r = await engine.req(cmd, args, onInfo);
  if (!r.ok) throw new Error(`${cmd} ${JSON.stringify(args)}: ${r.error}`);
  return r;
}

// gravulien bench's lines: [{game, num, nodes, ms, best, score}] in its order.
export function nativeBench(bin) {
  const out = execFileSync(bin, ['bench'], { encoding: 'utf8' });
  const rows = [];
  for (const line of out.split('\n')) {
    const m = /^(\w+)\s+(\d+) (depth|playouts) (\d+): nodes (\d+), (\d+) ms, best (.*), score (-?\d+)$/.exec(line);
    if (m) rows.push({ game: m[1], num: +m[2], nodes: +m[5], ms: +m[6], best: m[7], score: +m[8] });
  }
  return rows;
}

export function nativePerft(bin, game, depth, position, rules) {
  const args = ['perft', game, String(depth)];
  if (position && position !== 'startpos') args.push(position);
  if (rules) args.push('--options', rules);
  const out = execFileSync(bin, args, { encoding: 'utf8' });
  const m = /nodes (\d+)/.exec(out);
  if (!m) throw new Error(`gravulien ${args.join(' ')}: ${out}`);
  return +m[1];
}

export function nativeThink(bin, game, rules, level, seed) {
  const args = ['think', game, '--level', String(level), '--seed', String(seed), '--movetime', '600000'];
  if (rules) args.push('--options', rules);
  const out = execFileSync(bin, args, { encoding: 'utf8' });
  const best = /^bestmove (.*)$/m.exec(out), nodes = /^nodes (\d+)/m.exec(out);
  if (!best || !nodes) throw new Error(`gravulien ${args.join(' ')}: ${out}`);
  return { best: best[1], nodes: +nodes[1] };
}

// `gravulien serve` on a free port with its store in dir (web/ as its page) and the extra
// arguments: { server, base } once it has printed its URL (base without a trailing /).
export async function startServe(bin, dir, extra = []) {
  const server = spawn(bin, ['serve', '--port', '0', '--db', join(dir, 'serve.db'), '--web', join(root, 'web'), ...extra],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`server did not start: ${out}`)), 10000);
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[^:/\s]+:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        res(`http://127.0.0.1:${m[1]}`);
      }
    });
  });
  return { server, base };
}
