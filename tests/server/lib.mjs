// Shared pieces of the server's loopback tests: start 'gravulien serve' on a free port
// with its own database, talk to it over HTTP (node's fetch) and WebSocket (ws).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

export let passed = 0;
export let failed = 0;

export function check(cond, what) {
  if (cond) {
    passed++;
  } else {
    failed++;
    console.log(`FAIL ${what}`);
  }
  return cond;
}

export function summary() {
  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Runs a test's main, prints the summary (or the error that stopped it), runs cleanup
// whatever happened, and exits: 0 when every check passed.
export async function runTest(main, cleanup) {
  let code = 1;
  try {
    await main();
    code = summary();
  } catch (e) {
    console.log(`FAIL ${e.stack || e}`);
  } finally {
    await cleanup();
  }
  process.exit(code);
}

export function tempDir(prefix = 'gv-serve-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

// Starts the server; resolves to { url, port, proc, stop(), kill() } once it printed its URL.
// With GV_SERVER_ON_PG=1 (and GV_TEST_PG from tests/pgtmp.sh) every server of a test uses
// that PostgreSQL instead of the SQLite file it names: the same tests on both backends.
// opts.fdLimit: the server runs under that many file descriptors (ulimit -n, soft and hard).
export function startServer(bin, db, extra = [], opts = {}) {
  if (process.env.GV_SERVER_ON_PG === '1' && process.env.GV_TEST_PG) db = process.env.GV_TEST_PG;
  return new Promise((resolve, reject) => {
    const args = ['serve', '--port', '0', '--db', db, ...extra];
    const proc = opts.fdLimit
      ? spawn('/bin/sh', ['-c', `ulimit -n ${Number(opts.fdLimit)} && exec "$0" "$@"`, bin, ...args],
        { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let done = false;
    const timer = setTimeout(() => {
      if (!done) {
        done = true;
        proc.kill('SIGKILL');
        reject(new Error(`server did not start: ${out}`));
      }
    }, 10000);
    proc.stderr.on('data', (d) => { process.stderr.write(`[serve] ${d}`); });
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/([^:/\s]+):(\d+)\//);
      if (m && !done) {
        done = true;
        clearTimeout(timer);
        const port = Number(m[2]);
        const url = `http://127.0.0.1:${port}`;
        const exited = new Promise((r) => proc.on('exit', (code, sig) => r({ code, sig })));
        resolve({
          url, port, proc, exited,
          stop: async () => { proc.kill('SIGTERM'); return exited; },
          kill: async () => { proc.kill('SIGKILL'); return exited; },
        });
      }
    });
    proc.on('exit', (code) => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        reject(new Error(`server exited (${code}) before it started: ${out}`));
      }
    });
  });
}

// HTTP request; resolves to { status, json, text, headers }.
// The whole WebSocket frames at the start of buf, as a raw socket received them: each
// {fin, op, masked, data, size (header and payload)}; a frame cut short at the end is left
// out.
export function wsFrames(buf) {
  const frames = [];
  let b = buf;
  while (b.length >= 2) {
    let len = b[1] & 0x7f;
    let off = 2;
    if (len === 126) { len = b.readUInt16BE(2); off = 4; } else if (len === 127) { len = Number(b.readBigUInt64BE(2)); off = 10; }
    if (b.length < off + len) break;
    frames.push({ fin: !!(b[0] & 0x80), op: b[0] & 0x0f, masked: !!(b[1] & 0x80), data: b.subarray(off, off + len), size: off + len });
    b = b.subarray(off + len);
  }
  return frames;
}

export async function api(base, method, path, body, rawBody) {
  const init = { method, headers: {} };
  if (rawBody !== undefined) {
    init.body = rawBody;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['content-type'] = 'application/json';
  }
  const res = await fetch(base + path, init);
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, json, text, headers: res.headers };
}

// A WebSocket watcher that collects every message; wait(pred) resolves with the first
// message (seen or to come) for which pred is true.
export function watcher(base, game, since = 0) {
  const ws = new WebSocket(base.replace('http', 'ws') + '/ws');
  const msgs = [];
  const waiters = [];
  ws.on('message', (data) => {
    let m;
    try { m = JSON.parse(data.toString()); } catch { m = { type: 'unparsable', data: data.toString() }; }
    msgs.push(m);
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i].pred(m)) {
        waiters[i].resolve(m);
        waiters.splice(i, 1);
      }
    }
  });
  const opened = new Promise((resolve, reject) => {
    ws.on('open', () => {
      if (game) ws.send(JSON.stringify({ type: 'watch', game, since }));
      resolve();
    });
    ws.on('error', reject);
  });
  return {
    ws, msgs, opened,
    send: (o) => ws.send(typeof o === 'string' ? o : JSON.stringify(o)),
    wait(pred, ms = 10000) {
      const seen = msgs.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const w = { pred, resolve };
        waiters.push(w);
        setTimeout(() => {
          const i = waiters.indexOf(w);
          if (i >= 0) {
            waiters.splice(i, 1);
            reject(new Error('timed out waiting for a WebSocket message'));
          }
        }, ms);
      });
    },
    close: () => ws.close(),
  };
}
