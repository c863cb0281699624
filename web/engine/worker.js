// Gravülien's engine in a Web Worker: the rules, the search and the AI of the server,
// compiled to WebAssembly (gravulien.wasm, loaded by gravulien.js; docs/wasm.md).
//
//   const w = new Worker('/static/engine/worker.js');
//   w.postMessage({id: 1, cmd: 'load', game: 'chu'});
//   w.postMessage({id: 2, cmd: 'search', depth: 6});
//   w.onmessage = (e) => console.log(e.data);  // {id: 2, info: {...}} ..., then
//                                               // {id: 2, ok: true, result: {...}}
//
// Each request carries an id; its answer is {id, ok: true, ...} or {id, ok: false,
// error}. A search also sends {id, info} reports while it runs. Requests are handled one
// at a time, in order; those that come while a search runs wait for it to end, except
// `stop`, which ends it (at its next report: after the iteration under way for Chu and
// Exaç, within 100 ms for Grav). The same file runs in Node's worker_threads (the tests).
'use strict';

const inNode = typeof importScripts !== 'function';
const port = inNode ? require('node:worker_threads').parentPort : self;
let api = null;          // the wasm's exports, once loaded
let searching = false;   // a search is running (asleep between its reports)
let stopRequested = false;
let searchId = null;
const queue = [];

function post(msg) {
  port.postMessage(msg);
}

// gravulien.js defines GravulienModule (a function returning a promise of the module).
function loadModule() {
  // A search's pause (wasm_api.c): in a browser, a message to this worker itself, handled
  // after the messages already waiting (a `stop`) and, unlike a 0 ms timer, not slowed to
  // 4 ms when repeated; in Node, setImmediate (a port's messages there are handled in one
  // batch, which the pause's own would never leave).
  let pauseFn;
  if (inNode) {
    pauseFn = () => new Promise((res) => setImmediate(res));
  } else {
    const pause = new MessageChannel();
    let resume = null;
    pause.port1.onmessage = () => {
      const r = resume;
      resume = null;
      if (r) r();
    };
    pauseFn = () => new Promise((res) => {
      resume = res;
      pause.port2.postMessage(0);
    });
  }
  const opts = {
    gvInfo: (json) => post({ id: searchId, info: JSON.parse(json) }),
    gvPause: pauseFn,
    gvStopRequested: () => stopRequested,
  };
  let factory;
  if (inNode) {
    const path = require('node:path');
    factory = require(path.join(__dirname, 'gravulien.js'));
    opts.wasmBinary = require('node:fs').readFileSync(path.join(__dirname, 'gravulien.wasm'));
  } else {
    importScripts('gravulien.js');
    factory = self.GravulienModule;
  }
  return factory(opts).then((M) => {
    const fn = (name, ret, args, async) => (...a) => M.ccall(name, ret, args, a, async ? { async: true } : undefined);
    api = {
      init: fn('gv_wasm_init', null, []),
      error: fn('gv_wasm_error', 'string', []),
      games: fn('gv_wasm_games', 'string', []),
      bench: fn('gv_wasm_bench_positions', 'string', []),
      load: fn('gv_wasm_load', 'number', ['string', 'string', 'string']),
      setOption: fn('gv_wasm_set_option', 'number', ['string', 'string']),
      play: fn('gv_wasm_play', 'number', ['string']),
      undo: fn('gv_wasm_undo', 'number', []),
      state: fn('gv_wasm_state', 'string', []),
      moveTexts: fn('gv_wasm_move_texts', 'string', ['string']),
      view: fn('gv_wasm_view', 'string', []),
      perft: fn('gv_wasm_perft', 'number', ['number']),
      search: fn('gv_wasm_search', 'string', ['number', 'number', 'number', 'number', 'number'], true),
      aiMove: fn('gv_wasm_ai_move', 'string', ['number', 'number', 'number', 'number', 'number'], true),
    };
    api.init();
  });
}

class EngineError extends Error {}

function check(rc) {
  if (rc < 0) throw new EngineError(api.error());
}

function stateOrThrow() {
  const s = api.state();
  if (!s) throw new EngineError(api.error());
  return JSON.parse(s);
}

function resultOrThrow(text) {
  if (!text) throw new EngineError(api.error());
  return JSON.parse(text);
}

const num = (v) => (typeof v === 'number' && v > 0 ? v : 0);

// The requests. Each returns the fields of its answer (or a promise of them).
const handlers = {
  // The games this engine plays: [{name, title, search, maxPlayers, options}].
  games: () => ({ games: JSON.parse(api.games()) }),
  // The positions `gravulien bench` searches: [{game, rules, position, depth, playouts}].
  benchPositions: () => ({ positions: JSON.parse(api.bench()) }),
  // A new game: {game, rules?: "k=v,...", position?: text or "startpos", moves?: [...]}.
  load: (m) => {
    check(api.load(String(m.game || ''), String(m.rules || ''), String(m.position || '')));
    for (const mv of m.moves || []) {
      if (api.play(String(mv)) < 0) throw new EngineError(`move ${mv}: ${api.error()}`);
    }
    return { state: stateOrThrow() };
  },
  // {position, toMove, plies, status, winner?, reason?, moves: [legal moves]}.
  state: () => ({ state: stateOrThrow() }),
  // The move played, and its texts in the game's further notations (Chu: {tsa, kif}).
  play: (m) => {
    const t = api.moveTexts(String(m.move || ''));
    check(api.play(String(m.move || '')));
    return { state: stateOrThrow(), texts: t ? JSON.parse(t) : {} };
  },
  // What the server's view of a game at this position adds for the game (Grav: {grav:
  // {...}}, the object its board draws; Exaç: {exac: {...}}; Chu: its checks), with the
  // state.
  view: () => ({ view: resultOrThrow(api.view()), state: stateOrThrow() }),
  // Each legal move with the position after it: {position, moves: [{move, position}]} (a
  // page whose board needs a move's squares, as Exaç's notation names only its destination).
  legalPositions: () => {
    const st = stateOrThrow();
    const moves = [];
    for (const mv of st.moves) {
      check(api.play(mv));
      moves.push({ move: mv, position: stateOrThrow().position });
      check(api.undo());
    }
    return { position: st.position, moves };
  },
  undo: () => {
    check(api.undo());
    return { state: stateOrThrow() };
  },
  // Engine options: hash (MB), level (1..10), multipv (1..64: lines reported), player
  // (search|greedy), seed, rules.
  setOption: (m) => {
    check(api.setOption(String(m.name || ''), String(m.value ?? '')));
    return {};
  },
  perft: (m) => {
    const t0 = Date.now();
    const nodes = api.perft(Number.isInteger(m.depth) ? m.depth : -1);
    check(nodes);
    return { nodes, time: Date.now() - t0 };
  },
  // {depth?, nodes?, movetime?, infinite?}: no limit at all searches until `stop`.
  // reports: false sends no info and cannot be stopped (a limit is then needed): the
  // search never pauses, for measuring its speed.
  search: (m) => {
    const reports = m.reports === false ? 0 : 1;
    if (!reports && !num(m.depth) && !num(m.nodes) && !num(m.movetime)) {
      throw new EngineError('a search without reports needs a limit');
    }
    return api.search(num(m.depth), num(m.nodes), num(m.movetime), m.infinite ? 1 : 0, reports)
      .then((r) => ({ result: resultOrThrow(r) }));
  },
  // The AI of the server's seats: {level (1..10), seed?, movetime? (default 1000 ms), or
  // clock? and inc? (ms), play?: also play the move}.
  aiMove: (m) => api.aiMove(num(m.level) || 10, num(m.seed), num(m.movetime), num(m.clock), num(m.inc))
    .then((r) => {
      const result = resultOrThrow(r);
      if (m.play && result.best) {
        check(api.play(result.best));
        return { result, state: stateOrThrow() };
      }
      return { result };
    }),
};

let broken = null;   // why the engine cannot go on (it aborted), once it happened

async function handle(m) {
  const h = handlers[m.cmd];
  if (!h) {
    post({ id: m.id, ok: false, error: `unknown request '${m.cmd}'` });
    return;
  }
  if (broken) {
    post({ id: m.id, ok: false, error: `the engine stopped working: ${broken}` });
    return;
  }
  const isSearch = m.cmd === 'search' || m.cmd === 'aiMove';
  if (isSearch) {
    searching = true;
    stopRequested = !!m.stopped;
    searchId = m.id;
  }
  try {
    const answer = await h(m);
    post({ id: m.id, ok: true, ...answer });
  } catch (e) {
    // An EngineError is a refusal; anything else (the WebAssembly code aborted) leaves the
    // engine unusable: this and every later request answer so, and a new worker is needed.
    if (!(e instanceof EngineError)) broken = String(e && e.message ? e.message : e);
    post({ id: m.id, ok: false, error: e instanceof EngineError ? e.message : `the engine stopped working: ${broken}` });
  } finally {
    if (isSearch) {
      searching = false;
      searchId = null;
    }
  }
}

let draining = false;
async function drain() {
  if (draining) return;
  draining = true;
  while (queue.length) await handle(queue.shift());
  draining = false;
}

const ready = loadModule();
const onMessage = (m) => {
  if (m && m.cmd === 'stop') {
    // Ends the running search and those still waiting (each answers with its best move
    // so far: a waiting one stops at its first report), or does nothing.
    let stopping = searching;
    if (searching) stopRequested = true;
    for (const q of queue) {
      if (q.cmd === 'search' || q.cmd === 'aiMove') stopping = q.stopped = true;
    }
    post({ id: m.id, ok: true, stopping });
    return;
  }
  queue.push(m || {});
  ready.then(drain, (e) => post({ id: m && m.id, ok: false, error: `engine not loaded: ${e}` }));
};
if (inNode) port.on('message', onMessage);
else port.onmessage = (e) => onMessage(e.data);
