// Loop-stall probe of one 'gravulien serve' process, shared by bench/soak.mjs and
// bench/multi_bench.mjs.
//
// startProbe(port) starts a worker thread with its own event loop, so that the load the
// benchmark's other clients put on the main thread does not delay it. The worker:
//   - every probeGap ms (50) opens a new connection to 127.0.0.1:port, sends
//     GET /api/health and times the whole reply (no answer within 2 s counts as Infinity;
//     a refused connection, a server being restarted, too);
//   - keeps one WebSocket to /ws and sends {"type":"ping"} every pingGap ms (100), timing
//     each pong; when the connection ends it opens another 200 ms later;
//   - records how late its own probeGap sleeps end: the share of the delays that is the
//     machine's (other processes on the same cores), not the server's.
// stop() ends the worker and resolves to flat Float64Arrays of pairs, times on the clock
// of now() below (the same in every thread of the process):
//   probes: start, round trip (ms) ...
//   pongs:  arrival, round trip (ms; -1: the connection ended here) ...
//   late:   start of the sleep, ms late at its end ...
// probeFigures() sums them up over a window.
import net from 'node:net';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

export const now = () => Number(process.hrtime.bigint()) / 1e6;   // ms
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PROBE_TIMEOUT_MS = 2000;

// Resolves when the worker is probing; { stop(): Promise<{probes, pongs, late}> }.
export function startProbe(port, { probeGap = 50, pingGap = 100 } = {}) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { gvProbe: true, port, probeGap, pingGap } });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (m) => {
      if (m !== 'ready') { reject(new Error(`probe: unexpected message ${m}`)); return; }
      resolve({
        stop: () => new Promise((res, rej) => {
          worker.once('message', async (data) => { await worker.terminate(); res(data); });
          worker.once('error', rej);
          worker.postMessage({ cmd: 'stop' });
        }),
      });
    });
  });
}

// Figures of the samples that start (probes, late) or arrive (pongs) in [from, to):
// health probes n, p50, p99, worst, timeouts (a timeout counts as PROBE_TIMEOUT_MS in
// the percentiles, so they stay finite); pings n, p99, worst round trip, worst gap
// between two pongs on one connection; the probing thread's lateness p99 and worst.
export function probeFigures(data, from = -Infinity, to = Infinity) {
  const pct = (a, p) => (a.length ? a[Math.min(a.length - 1, Math.max(0, Math.ceil(p * a.length) - 1))] : NaN);
  const lat = [];
  let timeouts = 0;
  for (let i = 0; i < data.probes.length; i += 2) {
    const t = data.probes[i], ms = data.probes[i + 1];
    if (t < from || t >= to) continue;
    if (ms === Infinity) timeouts++;
    lat.push(Math.min(ms, PROBE_TIMEOUT_MS));
  }
  lat.sort((a, b) => a - b);
  const rtt = [];
  let gap = 0, prev = null;
  for (let i = 0; i < data.pongs.length; i += 2) {
    const t = data.pongs[i], ms = data.pongs[i + 1];
    if (ms < 0 || t < from || t >= to) { prev = null; continue; }
    rtt.push(ms);
    if (prev !== null) gap = Math.max(gap, t - prev);
    prev = t;
  }
  rtt.sort((a, b) => a - b);
  const late = [];
  for (let i = 0; i < data.late.length; i += 2) if (data.late[i] >= from && data.late[i] < to) late.push(data.late[i + 1]);
  late.sort((a, b) => a - b);
  return {
    n: lat.length, p50: pct(lat, 0.5), p99: pct(lat, 0.99), worst: lat.length ? lat[lat.length - 1] : NaN, timeouts,
    pingN: rtt.length, pingP99: pct(rtt, 0.99), pingWorst: rtt.length ? rtt[rtt.length - 1] : NaN, pingGap: gap,
    lateP99: pct(late, 0.99), lateWorst: late.length ? late[late.length - 1] : NaN,
  };
}

if (!isMainThread && workerData && workerData.gvProbe) {
  const { default: WebSocket } = await import('../tests/server/node_modules/ws/wrapper.mjs');
  const { port, probeGap, pingGap } = workerData;
  const probes = [];
  const pongs = [];
  const late = [];
  let stop = false;
  const probe = () => new Promise((resolve) => {
    const t = now();
    const s = net.connect(port, '127.0.0.1');
    let buf = '';
    let done = false;
    const end = (v) => { if (!done) { done = true; clearTimeout(timer); s.destroy(); resolve(v); } };
    const timer = setTimeout(() => end(Infinity), PROBE_TIMEOUT_MS);
    s.on('connect', () => s.write('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    s.on('data', (d) => {
      buf += d;
      const h = buf.indexOf('\r\n\r\n');
      const m = buf.match(/content-length:\s*(\d+)/i);
      if (h >= 0 && m && buf.length >= h + 4 + Number(m[1])) end(/^HTTP\/1\.1 200/.test(buf) ? now() - t : Infinity);
    });
    s.on('error', () => end(Infinity));
    s.on('close', () => end(Infinity));
  });
  const probing = (async () => {
    while (!stop) {
      const t = now();
      probes.push(t, await probe());
      const s = now();
      await sleep(probeGap);
      late.push(s, now() - s - probeGap);
    }
  })();
  const pinging = (async () => {
    while (!stop) {
      await new Promise((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { perMessageDeflate: false });
        const sent = [];
        let timer = null;
        const finish = () => { clearInterval(timer); clearInterval(stopper); resolve(); };
        const stopper = setInterval(() => { if (stop) ws.terminate(); }, 100);
        ws.on('open', () => {
          timer = setInterval(() => { sent.push(now()); ws.send('{"type":"ping"}'); }, pingGap);
        });
        ws.on('message', (d) => {
          if (!String(d).includes('"pong"')) return;
          const t = now();
          const s = sent.shift();
          pongs.push(t, s === undefined ? 0 : t - s);
        });
        ws.on('error', () => {});
        ws.on('close', finish);
      });
      pongs.push(now(), -1);
      if (!stop) await sleep(200);
    }
  })();
  parentPort.on('message', async (m) => {
    if (!m || m.cmd !== 'stop') return;
    stop = true;
    await Promise.all([probing, pinging]);
    parentPort.postMessage({ probes: Float64Array.from(probes), pongs: Float64Array.from(pongs), late: Float64Array.from(late) });
  });
  parentPort.postMessage('ready');
}
