// Fuzzes the server's wire: raw TCP bytes that are not well-formed HTTP or WebSocket
// (garbage, broken request lines, huge or endless headers, bodies shorter or longer than
// their length, bad WebSocket frames), many at once. The server must never die, must keep
// answering well-formed requests, and must keep a reference game unchanged.
// Usage: node wire_fuzz.mjs <path-to-gravulien> [rounds]
import net from 'node:net';
import { join } from 'node:path';
import { api, check, removeDir, sleep, startServer, summary, tempDir } from './lib.mjs';

const bin = process.argv[2];
const rounds = Number(process.argv[3] || 600);

let seed = 12345;
function rnd(n) {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
}
function bytes(n) {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = rnd(256);
  return b;
}

const requestLines = [
  'GET / HTTP/1.1', 'POST /api/games HTTP/1.1', 'GET /api/games/abc HTTP/1.1', 'GET /ws HTTP/1.1',
  'GET  HTTP/1.1', 'GET', 'POST /api/games HTTP/9.9', 'BREW /pot HTTP/1.1', 'GET /%zz%00 HTTP/1.1',
  'GET /static/../../etc/passwd HTTP/1.1', 'GET /api/games?status=%ff%fe&limit=-1 HTTP/1.1',
  'POST /api/games/x/move HTTP/1.0', 'GET /' + 'a'.repeat(9000) + ' HTTP/1.1',
];
const headerSets = [
  ['Host: x'],
  ['Host: x', 'Content-Length: 10'],
  ['Host: x', 'Content-Length: -5'],
  ['Host: x', 'Content-Length: 99999999999999999999'],
  ['Host: x', 'Content-Length: 3', 'Content-Length: 7'],
  ['Host: x', 'Transfer-Encoding: chunked'],
  ['Host: x', 'Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=='],
  ['Host: x', 'Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Version: 99'],
  ['Host: x', 'X-Long: ' + 'y'.repeat(6000)],
  ['Host: x', 'Bad Header Without Colon'],
  [],
];

function attack(port) {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let finished = false;
    const done = () => { if (!finished) { finished = true; sock.destroy(); resolve(); } };
    sock.on('error', done);
    sock.on('close', done);
    sock.on('data', () => {});
    sock.setTimeout(300, done);
    sock.on('connect', () => {
      const kind = rnd(5);
      let payload;
      if (kind === 0) {
        payload = bytes(1 + rnd(3000));
      } else {
        const line = requestLines[rnd(requestLines.length)];
        const hs = headerSets[rnd(headerSets.length)];
        let text = line + '\r\n' + hs.join('\r\n') + (hs.length ? '\r\n' : '');
        if (kind !== 1) text += '\r\n';
        payload = Buffer.from(text, 'latin1');
        if (kind === 3) payload = Buffer.concat([payload, bytes(rnd(200))]);
        if (kind === 4) payload = Buffer.concat([payload, Buffer.from('{"game":"chu"'), bytes(rnd(50))]);
      }
      // Sometimes cut it short, sometimes send it in pieces.
      if (rnd(4) === 0) payload = payload.subarray(0, rnd(payload.length + 1));
      if (rnd(3) === 0) {
        const cut = rnd(payload.length + 1);
        sock.write(payload.subarray(0, cut));
        setTimeout(() => { if (!finished) sock.write(payload.subarray(cut)); }, 5);
      } else {
        sock.write(payload);
      }
      if (rnd(2) === 0) setTimeout(done, rnd(50));
    });
  });
}

async function main() {
  const dir = tempDir();
  const srv = await startServer(bin, join(dir, 'fuzz.db'), ['--rate', '0']);
  try {
    const made = await api(srv.url, 'POST', '/api/games',
      { game: 'chu', seats: [{ type: 'human', you: true }, { type: 'human', you: true }] });
    check(made.status === 201, 'reference game created');
    const id = made.json.id;
    const tok = made.json.tokens[0].token;
    check((await api(srv.url, 'POST', `/api/games/${id}/move`, { token: tok, move: '7i7h' })).status === 200,
      'a move in the reference game');
    const before = (await api(srv.url, 'GET', `/api/games/${id}`)).json;
    for (let i = 0; i < rounds; i += 20) {
      const batch = [];
      for (let k = 0; k < 20; k++) batch.push(attack(srv.port));
      await Promise.all(batch);
    }
    await sleep(100);
    const health = await api(srv.url, 'GET', '/api/health');
    check(health.status === 200 && health.json.ok, `server alive after ${rounds} malformed connections`);
    const after = (await api(srv.url, 'GET', `/api/games/${id}`)).json;
    check(after.n === before.n && after.position === before.position, 'reference game unchanged');
    const ok = await api(srv.url, 'POST', `/api/games/${id}/move`, { token: made.json.tokens[1].token, move: '7d7e' });
    check(ok.status === 200 && ok.json.n === 2, 'the game still takes moves');
    let exited = false;
    srv.exited.then(() => { exited = true; });
    await sleep(10);
    check(!exited, 'server process still running');
  } finally {
    await srv.stop();
    removeDir(dir);
  }
  process.exit(summary());
}

main().catch((e) => { console.log(`FAIL ${e.stack}`); process.exit(1); });
