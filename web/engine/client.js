// The page's side of the engine worker (worker.js, docs/wasm.md): requests as promises,
// reports to a callback, and a stop that cannot wait.
//
//   import { EngineClient } from '/static/engine/client.js';
//   const engine = new EngineClient();
//   await engine.request('load', { game: 'chu' });
//   const { result } = await engine.request('search', { movetime: 3000 }, (info) => show(info));
//   await engine.request('play', { move: result.best });
//
// request() resolves with the worker's answer ({ok: true, ...}) and rejects with an Error
// carrying the worker's reason when it says ok: false. stop() asks the running search to
// end at its next report; stopNow() ends it at once by replacing the worker, then loads the
// same game (options, position and the moves played through this client) into the new one.

export class EngineClient {
  constructor(url = new URL('worker.js', import.meta.url)) {
    this.url = url;
    this.next = 0;
    this.pending = new Map();
    this.game = null;      // the last load's fields
    this.moves = [];       // moves played since it, through this client
    this.options = [];     // setOption requests since the worker started
    this.start();
  }

  start() {
    this.worker = new Worker(this.url);
    this.worker.onmessage = (e) => {
      const m = e.data;
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.info) {
        if (p.onInfo) p.onInfo(m.info);
        return;
      }
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m);
      else p.reject(new Error(m.error));
    };
  }

  // Sends a request ({cmd, ...fields} as docs/wasm.md lists them); onInfo gets a search's
  // reports.
  request(cmd, fields = {}, onInfo = null) {
    const id = ++this.next;
    const answer = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onInfo });
    });
    this.worker.postMessage({ ...fields, id, cmd });
    return answer.then((m) => {
      this.remember(cmd, fields, m);
      return m;
    });
  }

  // What stopNow needs to load the game again.
  remember(cmd, fields, m) {
    if (cmd === 'load') {
      this.game = { ...fields };
      this.moves = [];
    } else if (cmd === 'play') {
      this.moves.push(fields.move);
    } else if (cmd === 'undo') {
      this.moves.pop();
    } else if (cmd === 'aiMove' && fields.play && m.result.best) {
      this.moves.push(m.result.best);
    } else if (cmd === 'setOption') {
      this.options = this.options.filter((o) => o.name !== fields.name).concat([{ ...fields }]);
    }
  }

  // Asks the running search (and those waiting) to end with their best move so far.
  stop() {
    return this.request('stop');
  }

  // Ends everything at once: the worker is replaced, pending requests reject, and the new
  // worker gets the same options and game. Resolves with the game's state.
  async stopNow() {
    this.worker.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(new Error('stopped'));
    this.start();
    const options = this.options;
    this.options = [];
    if (!this.game) return null;
    const game = this.game, moves = this.moves;
    const answer = await this.request('load', { ...game, moves: [...(game.moves || []), ...moves] });
    this.game = game;
    this.moves = moves;
    // the options after the game (they belong to its engine)
    for (const o of options) await this.request('setOption', o);
    return answer.state;
  }

  close() {
    this.worker.terminate();
  }
}
