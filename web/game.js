// The game page: the board, players and clocks, what you may do now, the move list,
// replay, downloads and links. Everything it shows comes from the server's view
// (GET /api/games/ID) and its WebSocket events; it never decides a rule.
import { h, api, prefs, seats, fmtClock, gameTitle, ApiError, put, allPositions } from './util.js';
import { ChuBoard, moveSquares, sideToMove } from './chu.js';
import { ExacBoard } from './exac.js';
import { GravBoard, stoneIcon, PLAYERS } from './grav.js';
import { MoveList } from './movelist.js';
import { Banner } from './banner.js';
import { sound } from './sound.js';
import { rulesOf, moveEnds, showArrow } from './analysis.js';
import { EngineClient } from '/static/engine/client.js';

const RESULT_WORDS = { win: 'wins', draw: 'Draw' };
// The game's status as the page names it, and whether nothing more can happen in it.
const STATUS_WORDS = { open: 'waiting for players', live: 'live', finished: 'finished', abandoned: 'abandoned' };
const isOver = (v) => v.status === 'finished' || v.status === 'abandoned';

export class GamePage {
  constructor(root, id, query, meta) {
    this.root = root;
    this.id = id;
    this.meta = meta;
    this.tokens = seats.all(id);
    const seat = query.get('seat'), token = query.get('token');
    if (token && /^[0-9a-f]{32}$/.test(token) && seat !== null && /^\d$/.test(seat)) {
      this.tokens[seat] = token;
      seats.add(id, seat, token);
    }
    this.view = null;
    this.replayN = null;        // null: the live position
    this.positions = null;      // from /positions, for replay
    this.lastN = 0;
    this.backoff = 500;
    this.closed = false;
    this.hintMode = false;
    this.busy = false;
    this.choice = null;         // {prompt, options, resolve}
    this.passMove = null;       // Chu: a Lion pass with the selected piece
    this.message = '';          // the server's last refusal (the banner shows it)
    this.stepText = '';         // the board's next step of a move under way (banner)
    this.hintText = '';         // Grav: the answer of the last private hint (banner)
    this.timers = [];
    this.build();
    this.start();
  }

  // ---- lifecycle -----------------------------------------------------------------------

  async start() {
    try {
      await this.refresh();
    } catch (e) {
      put(this.root, h('section', { class: 'panel error-page' },
        h('h2', {}, e.status === 404 ? 'No such game' : 'The game cannot be loaded'),
        h('p', {}, e.message), h('p', {}, h('a', { href: '/', 'data-link': '' }, 'Back to the lobby'))));
      this.closed = true;
      return;
    }
    this.lastN = this.view.n;
    this.connect();
    this.timers.push(setInterval(() => this.tickClocks(), 200));
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyHandler);
  }

  destroy() {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.refreshTimer);
    if (this.ws) { this.ws.onclose = null; this.ws.close(); }
    if (this.keyHandler) document.removeEventListener('keydown', this.keyHandler);
    if (this.hintEngine) this.hintEngine.close();
    if (this.botEngine) this.botEngine.close();
  }

  // The seats whose tokens this browser holds, in order.
  tokenSeats() { return Object.keys(this.tokens).map(Number).sort((a, b) => a - b); }

  // The seats the person at this page plays: those it holds a token of, except the
  // computer's seats that this page plays itself (type "browser", below).
  heldSeats(v = this.view) {
    return this.tokenSeats().filter((i) => !(v && v.seats && v.seats[i] && v.seats[i].type === 'browser'));
  }

  // The computer's seats this page plays: browser seats whose token it holds.
  botSeats(v = this.view) {
    return this.tokenSeats().filter((i) => v && v.seats && v.seats[i] && v.seats[i].type === 'browser');
  }

  // The seat this browser acts for now: the one to move if it holds it, else its first.
  actingSeat(v = this.view) {
    const held = this.heldSeats(v);
    if (!held.length) return null;
    if (v && v.to_move !== null && v.to_move !== undefined && held.includes(v.to_move)) return v.to_move;
    if (v && v.you && held.includes(v.you.seat)) return v.you.seat;
    return held[0];
  }

  async fetchView(seat) {
    const tok = seat !== null && seat !== undefined ? this.tokens[seat] : null;
    try {
      return await api(`/api/games/${this.id}`, undefined, tok);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'bad_token') {
        // a stale or wrong link: forget the seat and watch
        delete this.tokens[seat];
        this.flash('That link holds no seat of this game: you are watching.');
        return api(`/api/games/${this.id}`);
      }
      throw e;
    }
  }

  async refresh() {
    if (this.refreshing) { this.refreshAgain = true; return; }
    this.refreshing = true;
    try {
      let v = await this.fetchView(this.actingSeat());
      const want = this.actingSeat(v);
      if (want !== null && (!v.you || v.you.seat !== want)) v = await this.fetchView(want);
      else if (want === null && v.you) delete v.you;   // a computer's seat this page plays
      // events may have brought a newer position meanwhile: then ask again
      if (this.view && v.n < this.view.n) this.refreshAgain = true;
      else this.setView(v);
    } finally {
      this.refreshing = false;
      if (this.refreshAgain) { this.refreshAgain = false; this.refresh().catch(() => {}); }
    }
  }

  scheduleRefresh(ms = 40) {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.refresh().catch((e) => this.flash(e.message)), ms);
  }

  connect() {
    if (this.closed) return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    let ws;
    try { ws = new WebSocket(url); } catch (e) { this.retry(); return; }
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      ws.send(JSON.stringify({ type: 'watch', game: this.id, since: this.lastN }));
      this.setConn('live');
    };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.id !== undefined && m.id !== this.id) return;
      if (m.type === 'move' && m.move) this.onMoveEvent(m);
      else if (m.type === 'moves' && Array.isArray(m.moves)) {
        // a catch-up batch: the state that follows it carries the whole game
        for (const mv of m.moves) this.lastN = Math.max(this.lastN, mv.n);
      } else if (m.type === 'state') this.onStateEvent(m);
      else if (m.type === 'join' || m.type === 'draw' || m.type === 'end') this.onSummaryEvent(m);
    };
    ws.onclose = () => { this.setConn('offline'); this.retry(); };
    ws.onerror = () => {};
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (ws.readyState === 1) ws.send('{"type":"ping"}');
    }, 25000);
    this.timers.push(this.pingTimer);
  }

  // ---- live events: the page follows the public view from them; a seat holder asks only
  // for its own part (GET .../you: legal moves), a watcher asks for nothing.

  static SUMMARY = ['status', 'n', 'to_move', 'position', 'clocks', 'result', 'draw_offers'];

  // A new view from the one shown and an event's fields (the move list is shared and
  // grown in place: a move costs the same however long the game is).
  withEvent(m, extra = []) {
    const v = Object.assign({}, this.view);
    for (const k of GamePage.SUMMARY.concat(extra)) if (m[k] !== undefined) v[k] = m[k];
    return v;
  }

  // Moves come in order; one that does not follow the list shown means events were missed
  // (the connection was away): then the whole view is fetched again.
  onMoveEvent(m) {
    this.lastN = Math.max(this.lastN, m.move.n);
    const v0 = this.view;
    if (!v0 || this.refreshing) { this.scheduleRefresh(30); return; }
    if (m.move.n > v0.moves.length + 1) { this.scheduleRefresh(30); return; }
    if (m.move.n <= v0.moves.length && m.n <= v0.n) return;     // already shown (our own move's reply)
    const v = this.withEvent(m, ['exac', 'grav', 'checks']);
    if (m.move.n === v0.moves.length + 1) v0.moves.push(m.move);
    v.moves = v0.moves;
    this.afterPublicChange(v);
  }

  onSummaryEvent(m) {
    if (typeof m.n === 'number') this.lastN = Math.max(this.lastN, m.n);
    const v0 = this.view;
    if (!v0 || this.refreshing) { this.scheduleRefresh(30); return; }
    if (m.n !== v0.n) { this.scheduleRefresh(30); return; }
    const v = this.withEvent(m, ['seats']);
    this.afterPublicChange(v, m.type === 'join' || v.status !== v0.status);
  }

  // The whole public view (the first message of a watch, or after a reconnection).
  onStateEvent(m) {
    this.lastN = Math.max(this.lastN, m.n);
    const v0 = this.view;
    if (!v0 || this.refreshing) { this.scheduleRefresh(30); return; }
    const v = Object.assign({}, m);
    delete v.type;
    const same = v0.n === v.n && v0.status === v.status;
    if (v0.you) v.you = v0.you;
    this.afterPublicChange(v, !same);
  }

  // Shows v; the seat's own part (legal moves) is asked for again when the position or
  // the status changed, and until it comes the page offers no move.
  afterPublicChange(v, privateStale = true) {
    const v0 = this.view;
    const stale = privateStale || v.n !== v0.n;
    if (stale && this.heldSeats(v).length) {
      const seat = this.actingSeat(v);
      if (seat !== null) {
        v.you = { seat, legal_moves: [], moves: [], stale: true };
        this.refreshYou();
      }
    }
    this.setView(v);
  }

  async refreshYou() {
    if (this.youBusy) { this.youAgain = true; return; }
    this.youBusy = true;
    try {
      const seat = this.actingSeat(this.view);
      const tok = seat !== null ? this.tokens[seat] : null;
      if (!tok) return;
      let r;
      try {
        r = await api(`/api/games/${this.id}/you`, undefined, tok);
      } catch (e) {
        if (e instanceof ApiError && e.code === 'bad_token') { this.scheduleRefresh(0); return; }
        throw e;
      }
      const v = this.view;
      // An answer for another position is dropped: the event for the newer one asks again.
      if (v && r.n === v.n && r.status === v.status && r.you.seat === this.actingSeat(v)) {
        this.setView(Object.assign({}, v, { you: r.you }));
      }
    } catch (e) {
      this.flash(e.message);
    } finally {
      this.youBusy = false;
      if (this.youAgain) { this.youAgain = false; this.refreshYou(); }
    }
  }

  retry() {
    if (this.closed) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, 10000);
  }

  setConn(state) {
    this.conn = state;
    if (this.el.conn) {
      this.el.conn.textContent = state === 'live' ? '● connected' : '○ reconnecting…';
      this.el.conn.className = 'conn ' + state;
    }
  }

  // ---- layout ---------------------------------------------------------------------------

  build() {
    const el = this.el = {};
    el.title = h('h2', { class: 'game-title' }, 'Loading…');
    // The game's status and the connection that brings its moves: two labelled items.
    el.status = h('span', { class: 'status', id: 'game-status' });
    el.conn = h('span', { class: 'conn', id: 'game-conn', title: 'the connection that brings the moves as they are made' });
    this.banner = new Banner();
    el.banner = this.banner.el;
    el.boardWrap = h('div', { class: 'board-wrap' });
    el.tools = h('div', { class: 'board-tools' });
    el.info = h('div', { class: 'info', 'aria-live': 'polite' });
    el.players = h('div', { class: 'players panel' });
    el.join = h('div', { class: 'join-panel panel', hidden: true });
    el.actions = h('div', { class: 'actions panel', 'aria-live': 'polite' });
    el.params = h('div', { class: 'params panel', hidden: true });
    this.moveList = new MoveList((n) => this.goto(n));
    el.replay = h('div', { class: 'replay', role: 'toolbar', 'aria-label': 'replay' });
    el.share = h('div', { class: 'share panel' });
    put(this.root, h('section', { class: 'game' },
      h('div', { class: 'game-head' }, el.title,
        h('span', { class: 'head-item' }, h('span', { class: 'head-label' }, 'Game'), el.status),
        h('span', { class: 'head-item head-conn' }, h('span', { class: 'head-label' }, 'Connection'), el.conn)),
      h('div', { class: 'game-body' },
        h('div', { class: 'board-col' }, el.banner, el.boardWrap, el.info, el.tools),
        h('aside', { class: 'side' }, el.players, el.join, el.actions, el.params,
          h('div', { class: 'panel moves-panel' }, this.moveList.el, el.replay),
          el.share))));
  }

  makeBoard(game) {
    const hooks = {
      submit: (m) => this.submit(m),
      choose: (prompt, options) => this.choose(prompt, options),
      info: (t) => { this.el.info.textContent = t; },
      prompt: (t) => { this.stepText = t; this.renderBanner(); },
      answer: (value) => this.resolveChoice(value),
      hint: (pt) => this.hint(pt),
      selection: (pass) => { this.passMove = pass; this.renderBanner(); },
    };
    if (game === 'chu') this.board = new ChuBoard(this.el.boardWrap, hooks);
    else if (game === 'exac') this.board = new ExacBoard(this.el.boardWrap, hooks);
    else this.board = new GravBoard(this.el.boardWrap, hooks);
    this.game = game;
    // the side you play is at the bottom
    const seat = this.actingSeat();
    this.flipped = game !== 'grav' && seat === 1;
    if (this.flipped) this.board.setFlipped(true);
    if (game === 'chu') this.board.setStyle(prefs.get('chuStyle', 'kanji'));
    if (game === 'exac') this.board.setShowRoles(prefs.get('exacRoles', true));
    this.buildTools();
  }

  buildTools() {
    const t = [];
    const snd = h('input', { type: 'checkbox', onchange: (e) => sound.set(e.target.checked) });
    snd.checked = sound.on;
    t.push(h('label', { class: 'sound-toggle', title: 'a sound for each move, capture and the end of the game' }, snd, ' Sound'));
    if (this.game !== 'grav') {
      t.push(h('button', { type: 'button', class: 'flip', onclick: () => {
        this.flipped = !this.flipped;
        this.board.setFlipped(this.flipped);
      } }, '⇅ Flip board'));
    }
    if (this.game === 'chu') {
      const sel = h('select', { 'aria-label': 'piece labels', onchange: (e) => {
        prefs.set('chuStyle', e.target.value);
        this.board.setStyle(e.target.value);
      } }, h('option', { value: 'kanji' }, 'Kanji'), h('option', { value: 'abbrev' }, 'Western abbreviations'));
      sel.value = prefs.get('chuStyle', 'kanji');
      t.push(h('label', {}, 'Pieces: ', sel));
    }
    if (this.game === 'exac') {
      const cb = h('input', { type: 'checkbox', onchange: (e) => {
        prefs.set('exacRoles', e.target.checked);
        this.board.setShowRoles(e.target.checked);
      } });
      cb.checked = prefs.get('exacRoles', true);
      t.push(h('label', {}, cb, ' Role letters on the pieces'));
      if (this.view && this.view.seats.some((st) => (st.type === 'ai' || st.type === 'browser') && st.level <= 3)) {
        const warn = h('input', { type: 'checkbox', class: 'yachi-warn', onchange: (e) => { prefs.set('exacYachiWarn', e.target.checked); this.renderBoard(); } });
        warn.checked = prefs.get('exacYachiWarn', true);
        t.push(h('label', {}, warn, ' Warn before a move that leaves your Yachi en prise'));
      }
      t.push(h('span', { class: 'legend' }, 'A Yachi · P Perits · H Adrib · T Potersin · L Lapah · ★ boosted · hover or tap a piece for its roles'));
    }
    if (this.game === 'grav') {
      const cb = h('input', { type: 'checkbox', onchange: (e) => this.board.setShowBand(e.target.checked) });
      cb.checked = true;
      t.push(h('label', {}, cb, ' Show the distance band (+)'));
      t.push(h('span', { class: 'legend' }, 'ring: last stone · dashed square: reference stone · +: empty points at distance d..e from the reference'));
    }
    put(this.el.tools, ...t);
  }

  // ---- state ----------------------------------------------------------------------------

  setView(v) {
    const first = !this.view, prev = this.view;
    const prevN = this.view ? this.view.n : -1;
    this.view = v;
    this.lastN = Math.max(this.lastN, v.n);
    this.clockAt = performance.now();
    if (first) {
      this.makeBoard(v.game);
      document.title = `${gameTitle(v.game)} — Gravülien`;
      if (isOver(v)) this.loadPositions().catch(() => {});
    }
    if (!first) this.sounds(prev, v);
    if (v.n !== prevN) {
      this.hintMove = null;
      this.passMove = null;
      this.stepText = this.hintText = '';
      if (this.choice) this.resolveChoice(null);
    }
    if (this.positions && v.n > this.positions.length - 1 && this.replayN !== null) this.loadPositions().catch(() => {});
    this.render();
    this.driveBot();
  }

  // ---- the computer's seats this page plays (type "browser") -----------------------------
  // The engine's worker (web/engine/) searches at the seat's level, as the server's AI seats
  // do (aiMove: the level's node budget, 1 s at most, or its share of the seat's clock),
  // and the move is posted with the seat's token like anyone's. One search at a time, for
  // the position shown; a reload picks the turn up again.

  driveBot() {
    const v = this.view;
    if (!v || this.closed || v.status !== 'live' || v.to_move === null || v.to_move === undefined) return;
    const seat = v.to_move;
    if (!this.botSeats(v).includes(seat) || this.botTurn === v.n) return;
    this.botTurn = v.n;
    this.botMove(v, seat).catch(() => {});
  }

  async botMove(v, seat) {
    const n = v.n, st = v.seats[seat];
    let retry = 0;
    try {
      if (!this.botEngine) this.botEngine = new EngineClient();
      const eng = this.botEngine;
      const r = await eng.request('load', { game: v.game, rules: rulesOf(v), position: v.start || 'startpos',
        moves: v.moves.map((m) => m.move) });
      if (r.state.toMove !== seat) throw new Error(`the engine has seat ${r.state.toMove} to move, not ${seat}`);
      const go = { level: st.level || 5, seed: botSeed(this.id, n) };
      if (v.clocks && v.clock) {
        // the time left when the move reaches the server: less what the request may take
        const left = this.clockOf(seat);
        go.clock = Math.max(50, Math.floor(left - 500));
        go.inc = v.clock.increment_ms || 0;
      } else {
        go.movetime = 1000;
      }
      const { result } = await eng.request('aiMove', go);
      if (!result.best) throw new Error('no move');
      if (this.closed || !this.view || this.view.n !== n || this.view.status !== 'live') return;
      const reply = await api(`/api/games/${this.id}/move`, { token: this.tokens[seat], move: result.best, n: n + 1 });
      // the reply is the computer's seat's view: the page shows the public part and asks for
      // its own seat's part (setReply would show the computer's)
      delete reply.you;
      if (this.botFailed) { this.botFailed = false; this.flash(''); }
      if (this.view && reply.n > this.view.n) this.afterPublicChange(reply);
    } catch (e) {
      if (e instanceof ApiError && (e.code === 'out_of_date' || e.code === 'not_your_turn')) {
        this.scheduleRefresh(0);
      } else if (!this.closed) {
        // a network failure, or an engine that failed (then a new worker): try again soon
        if (!(e instanceof ApiError) && this.botEngine) { this.botEngine.close(); this.botEngine = null; }
        const again = !(e instanceof ApiError) || e.status === 0 || e.status >= 500;
        this.botFailed = true;
        this.flash(`The computer (in this browser) could not move: ${e.message}.${again ? ' Trying again…' : ''}`);
        retry = again ? 3000 : 0;
      }
    } finally {
      if (retry && !this.closed) {
        setTimeout(() => { if (this.botTurn === n) this.botTurn = null; this.driveBot(); }, retry);
      }
      if (this.view) this.renderBanner();
    }
  }

  // The sound of what changed from view a to view b (sound.js; nothing while it is off): the
  // end of the game, else a capture (fewer pieces or stones on the board) or a move.
  sounds(a, b) {
    if (b.n > a.n) sound.play(b.status === 'finished' && a.status !== 'finished' ? 'end'
      : pieceCount(b) < pieceCount(a) ? 'capture' : 'move');
    else if (b.status === 'finished' && a.status !== 'finished') sound.play('end');
  }

  // The verdict of a "Grav!" call among the last two moves, as the server words it ("P1
  // calls Grav! on g1, a correct call: ..."), or ''.
  lastVerdict() {
    const v = this.view;
    if (v.game !== 'grav' || this.replayN !== null) return '';
    for (const m of v.moves.slice(-2).reverse()) {
      if (/ grav$/.test(m.move)) return (m.texts && m.texts.words) || '';
    }
    return '';
  }

  myLegal() {
    const v = this.view;
    if (!v || !v.you || v.status !== 'live' || this.replayN !== null) return null;
    if (v.game === 'exac') return v.you.moves || [];
    return v.you.legal_moves || [];
  }

  render() {
    const v = this.view;
    if (!v) return;
    const opt = v.options || {};
    this.el.title.textContent = `${gameTitle(v.game)}${v.game === 'chu' && opt.variant === 'heisei' ? ' (Heisei)' : ''} · ${v.id}`;
    this.el.status.textContent = STATUS_WORDS[v.status] || v.status;
    this.el.status.className = 'status ' + v.status;
    this.renderBanner();
    this.renderBoard();
    this.renderPlayers();
    this.renderActions();
    this.renderParams();
    this.renderMoves();
    this.renderReplay();
    this.renderShare();
  }

  seatLabel(i) {
    const st = this.view.seats[i];
    return st ? st.side : `Seat ${i + 1}`;
  }

  // How the game ended, in words ('' while it goes on).
  resultText() {
    const v = this.view, r = v.result;
    if (v.status === 'abandoned') {
      return v.seats.some((st) => !st.joined) ? 'Abandoned: the seats were not all taken in time. No result.'
        : 'Abandoned: no move came in time. No result.';
    }
    if (v.status !== 'finished' || !r) return '';
    if (r.status === 'draw') return `Draw — ${r.reason}`;
    if (r.winner !== null && r.winner !== undefined) {
      const mine = this.heldSeats().includes(r.winner);
      const others = this.heldSeats().length && !mine;
      return `${this.seatLabel(r.winner)} ${RESULT_WORDS.win}${mine ? ' — you win!' : others ? ' — you lose' : ''} (${r.reason})`;
    }
    return `Game over (${r.reason})`;
  }

  // The banner above the board: the server's refusal, a question to answer, the next step
  // of a move under way, a Grav call's verdict, then whose move it is (or the result).
  renderBanner() {
    const v = this.view;
    if (!v) return;
    const lines = [];
    if (this.message) {
      lines.push({ kind: 'error', cls: 'message', text: this.message, key: 'dismiss',
        actions: [this.button('×', () => { this.message = ''; this.renderBanner(); }, 'dismiss')] });
    }
    if (this.choice) {
      const c = this.choice;
      lines.push({ kind: 'question', cls: 'choice', text: c.prompt, key: JSON.stringify(c.options.map((o) => o.value)),
        actions: [...c.options.map((o) => this.button(o.label, () => this.resolveChoice(o.value), 'primary')),
          this.button('Cancel', () => this.resolveChoice(null))] });
    }
    if (this.stepText && this.replayN === null) lines.push({ kind: 'step', text: this.stepText });
    if (this.hintText && this.replayN === null) lines.push({ kind: 'step', cls: 'hint', text: this.hintText });
    const verdict = this.lastVerdict();
    if (verdict) lines.push({ kind: 'verdict', text: verdict });
    let turn = this.promptLines();
    // While a move is under way its step or question says what to click: the turn's own
    // line goes, and its answers (a Lion's pass) join that line.
    const busy = lines.find((l) => (l.kind === 'step' && l.cls !== 'hint') || l.cls === 'choice');
    if (busy) {
      const gone = turn.filter((l) => l.kind === 'turn');
      turn = turn.filter((l) => l.kind !== 'turn');
      const extra = gone.flatMap((l) => l.actions || []);
      if (extra.length) Object.assign(busy, { actions: (busy.actions || []).concat(extra), key: `${busy.key || ''}|${gone.map((l) => l.key).join()}` });
    }
    this.banner.show(lines.concat(turn));
  }

  // What the banner says of the turn: the result, a replayed position, your move and how
  // to make it (with the answers of a question), or whom the game waits for.
  promptLines() {
    const v = this.view, out = [];
    const held = this.heldSeats(), seat = this.actingSeat(), you = v.you;
    const result = this.resultText();
    if (this.replayN !== null) out.push({ kind: 'replay', text: `Replaying: the position after move ${this.replayN} of ${v.n}.` });
    if (result) out.push({ kind: 'result', cls: 'result', text: result });
    if (v.status === 'open') {
      const waiting = v.seats.filter((st) => st.type === 'human' && !st.joined).map((st) => st.side);
      out.push({ kind: 'wait', text: `Waiting for ${waiting.join(', ')} to join. Nobody can move until every seat is taken.` });
    }
    if (v.status !== 'live' || this.replayN !== null) return out;
    const toMove = v.to_move !== null && v.to_move !== undefined ? v.seats[v.to_move].side : null;
    if (seat === null) {
      if (toMove) out.push({ kind: 'wait', text: `${toMove} to move.` });
      return out;
    }
    const legal = this.myLegal() || [];
    if (v.game === 'grav') return out.concat(this.gravPrompt(legal));
    const offers = v.draw_offers || [];
    if (v.agreed_draws && you && offers.some((st) => st !== you.seat && !held.includes(st))) {
      out.push({ kind: 'question', text: 'Your opponent offers a draw.', key: 'draw',
        actions: [this.button('Accept draw', () => this.draw('accept'), 'primary'), this.button('Decline', () => this.draw('decline'))] });
    }
    const myTurn = you && v.to_move === you.seat;
    if (myTurn && legal.length) {
      const how = held.length > 1 ? `${toMove} to move (you).` : (v.options || {}).variant === 'heisei'
        ? 'Your move: click a piece, then its destination; or a reserve piece, then a marked square to drop it.'
        : 'Your move: click a piece, then its destination.';
      const pass = v.game === 'chu' && this.passMove;
      out.push({ kind: 'turn', cls: 'your-move', text: how, key: pass || '',
        actions: pass ? [this.button('Pass (the Lion stays)', () => this.submit(pass))] : [] });
    } else if (!myTurn) {
      out.push({ kind: 'wait', text: this.botSeats(v).includes(v.to_move)
        ? `${toMove}: the computer is thinking (in this browser)…` : `Waiting for ${toMove || 'the other side'}…` });
    }
    return out;
  }

  renderBoard() {
    const v = this.view;
    let data;
    const n = this.replayN;
    const pos = n !== null && this.positions ? this.positions[n] : null;
    if (v.game === 'chu') {
      data = pos ? { position: pos.position, legal: null, last: n > 0 ? v.moves[n - 1].move : null, checks: pos.checks }
        : { position: v.position, legal: this.myLegal(), last: v.moves.length ? v.moves[v.moves.length - 1].move : null, checks: v.checks };
      data.heisei = (v.options || {}).variant === 'heisei';
    } else if (v.game === 'exac') {
      data = pos ? { position: pos.position, exac: pos.exac, legal: null, checks: pos.checks }
        : { position: v.position, exac: v.exac, legal: this.myLegal(), checks: v.checks };
      this.board.setWarnYachi(prefs.get('exacYachiWarn', true) && v.seats.some((st) => (st.type === 'ai' || st.type === 'browser') && st.level <= 3));
    } else {
      data = pos ? { grav: pos.grav, legal: null } : { grav: v.grav, legal: this.myLegal(), hintMode: this.hintMode && v.you && v.you.can_hint };
    }
    // One move forward from the position shown (a move received, or replay's next move):
    // the board slides the piece; a jump shows the position at once.
    const ply = n !== null ? n : v.n;
    data.animate = this.shownPly !== undefined && ply === this.shownPly + 1 && (n === null || !!pos);
    if (n === null || pos) this.shownPly = ply;
    this.board.update(data);
    showArrow(this.board, n === null ? this.hintMove : null);
    this.el.boardWrap.classList.toggle('replaying', n !== null);
    this.el.boardWrap.classList.toggle('my-turn', !!(data.legal && data.legal.length));
  }

  clockOf(i) {
    const v = this.view;
    if (!v.clocks) return null;
    let ms = v.clocks[i];
    if (v.status === 'live' && v.to_move === i) ms -= performance.now() - this.clockAt;
    return ms;
  }

  renderPlayers() {
    const v = this.view, held = this.heldSeats(), bots = this.botSeats();
    this.clockEls = [];
    const rows = v.seats.map((st, i) => {
      const who = st.type !== 'human' || st.joined ? st.name : 'waiting for a player';   // the server's name for the seat
      const toMove = v.status === 'live' && v.to_move === i;
      const clock = h('span', { class: 'clock' + (toMove ? ' running' : '') });
      this.clockEls[i] = clock;
      const mark = v.game === 'grav' ? stoneIcon(i, 20)
        : h('span', { class: `side-mark side${i}`, 'aria-hidden': 'true' }, v.game === 'chu' ? (i ? '☖' : '☗') : (i ? '●' : '○'));
      const extra = [];
      if (v.game === 'grav' && v.grav) {
        extra.push(h('span', { class: 'stones', title: 'stones on the board' }, `${v.grav.stones[i]} stone${v.grav.stones[i] === 1 ? '' : 's'}`));
        if (v.grav.skips[i]) extra.push(h('span', { class: 'skips' }, `skips ${v.grav.skips[i]}`));
        if (v.grav.resigned[i]) extra.push(h('span', { class: 'resigned' }, 'resigned'));
      }
      return h('li', { class: 'player' + (toMove ? ' to-move' : '') + (held.includes(i) ? ' you' : '') },
        mark, h('span', { class: 'side-name' }, st.side), h('span', { class: 'who' }, who),
        held.includes(i) ? h('span', { class: 'you-tag' }, 'you') : null,
        bots.includes(i) ? h('span', { class: 'bot-tag', title: 'the engine in this page plays this seat' }, 'played here') : null,
        ...extra, v.clock ? clock : null,
        toMove ? h('span', { class: 'turn-tag' }, 'to move') : null);
    });
    const hc = v.game === 'chu' && v.options && v.options.handicap && v.options.handicap !== 'none' ? v.options.handicap : null;
    put(this.el.players, h('h3', { class: 'sr-only' }, 'Players'), h('ul', {}, rows),
      hc ? h('p', { class: 'handicap-info small' }, `Handicap ${hc}: Gote gives it and moves first.`) : null);
    this.tickClocks();
  }

  tickClocks() {
    if (!this.view || !this.view.clocks || !this.clockEls) return;
    this.view.seats.forEach((_, i) => {
      const el = this.clockEls[i];
      if (el) {
        const ms = this.clockOf(i);
        el.textContent = fmtClock(ms);
        el.classList.toggle('low', ms < 20000);
      }
    });
  }

  // ---- what you may do --------------------------------------------------------------

  flash(msg) {
    this.message = msg;
    if (this.view) this.renderBanner();
  }

  choose(prompt, options) {
    return new Promise((resolve) => {
      this.choice = { prompt, options, resolve };
      this.renderBanner();
      const b = this.el.banner.querySelector('.choice button');
      if (b) b.focus();
    });
  }

  resolveChoice(v) {
    const c = this.choice;
    this.choice = null;
    if (c) c.resolve(v);
    this.renderBanner();
  }

  button(label, onclick, cls = '') {
    return h('button', { type: 'button', class: cls, onclick }, label);
  }

  // The invitation to take a seat given by link. It lives in its own panel and is rebuilt
  // only when the seats it offers change, so a live update never moves the form while
  // someone types their name (moving a focused field would drop the focus and the keys).
  renderJoin() {
    const v = this.view;
    const unjoined = v ? this.heldSeats().filter((s) => v.seats[s] && !v.seats[s].joined) : [];
    const offer = v && unjoined.length && !isOver(v)
      ? unjoined.map((s) => v.seats[s].side).join(' and ') : '';
    if (offer === this.joinOffer) return;
    this.joinOffer = offer;
    this.el.join.hidden = !offer;
    if (!offer) { put(this.el.join); return; }
    const name = h('input', { type: 'text', maxlength: 40, value: prefs.get('name', ''), 'aria-label': 'your name', placeholder: 'your name' });
    put(this.el.join, h('form', { class: 'join', onsubmit: async (e) => {
      e.preventDefault();
      prefs.set('name', name.value.trim());
      const now = this.view;
      for (const s of this.heldSeats().filter((x) => now.seats[x] && !now.seats[x].joined)) {
        try {
          await api(`/api/games/${this.id}/join`, { token: this.tokens[s], name: name.value.trim() || undefined });
        } catch (err) { this.flash(err.message); }
      }
      this.refresh().catch((err) => this.flash(err.message));
    } }, h('p', {}, `You are invited to play ${offer}.`),
    name, h('button', { type: 'submit', class: 'primary' }, 'Take the seat')));
  }

  // The side panel's actions: the join form, draws and resignation, Grav's private hints.
  // What to do now is said in the banner (renderBanner).
  renderActions() {
    const v = this.view, out = [];
    if (!v) return;
    this.renderJoin();
    const held = this.heldSeats();
    const seat = this.actingSeat();
    const you = v.you;
    if (v.status === 'live' && seat !== null && this.replayN === null) {
      if (v.game === 'grav') out.push(...this.gravActions(this.myLegal() || []));
      // draws and resignation (Chu, Exaç); Grav resigns through its own button. An offer
      // of the opponent is a question of the banner.
      if (v.agreed_draws && you) {
        const offers = v.draw_offers || [];
        const mineOffered = offers.includes(you.seat);
        const otherOffered = offers.some((s) => s !== you.seat && !held.includes(s));
        const row = [];
        if (mineOffered) row.push(h('span', { class: 'muted' }, 'You offered a draw. '));
        // never to a computer (the server's AI or a browser seat), which refuses every offer
        else if (held.length < 2 && !otherOffered && !againstComputer(v, you.seat)) row.push(this.button('Offer a draw', () => this.draw('offer')));
        out.push(h('div', { class: 'row' }, ...row, this.resignButton()));
      } else if (you && v.game !== 'grav') {
        out.push(h('div', { class: 'row' }, this.resignButton()));
      }
    }
    if (this.canHint()) {
      out.push(h('div', { class: 'row' }, this.button(this.hintBusy ? 'Thinking…' : 'Hint', () => this.askHint(), 'hint-button'),
        h('span', { class: 'small muted' }, ' the engine in this browser suggests a move (an arrow)')));
    }
    put(this.el.actions, ...out);
    this.el.actions.hidden = !out.length;
  }

  // Hints: a game against the computer (a seat of the server's AI, or one this page plays)
  // that this browser plays in, live, on its turn; never in a game between people.
  canHint() {
    const v = this.view, you = v && v.you;
    return !!(v && v.status === 'live' && this.replayN === null && you && v.to_move === you.seat &&
      v.seats.some((st) => st.type === 'ai' || st.type === 'browser') && (this.myLegal() || []).length);
  }

  // The engine's move for the position shown (1 s in a worker of this page), drawn as an
  // arrow over the board until the position changes.
  async askHint() {
    if (this.hintBusy) return;
    const v = this.view, n = v.n;
    this.hintBusy = true;
    this.renderActions();
    try {
      if (!this.hintEngine) this.hintEngine = new EngineClient();
      const eng = this.hintEngine;
      const r = await eng.request('load', { game: v.game, rules: rulesOf(v), position: v.start || 'startpos',
        moves: v.moves.map((m) => m.move) });
      const { result } = await eng.request('search', { movetime: 1000 });
      if (!result.best) throw new Error('no move');
      const after = await eng.request('play', { move: result.best });
      const ends = moveEnds(v.game, result.best, r.state.position, after.state.position);
      const t = after.texts || {};
      const text = t.tsa || t.words || result.best;
      if (this.view.n === n) {
        this.hintMove = Object.assign({ move: result.best }, ends);
        this.flash('');
        this.hintText = `Hint: ${text}`;
        this.renderBoard();
        this.renderBanner();
      }
    } catch (e) {
      this.flash(`No hint: ${e.message}`);
    } finally {
      this.hintBusy = false;
      this.renderActions();
    }
  }

  resignButton() {
    if (this.confirmResign) {
      return h('span', { class: 'confirm' }, 'Really resign? ',
        this.button('Yes, resign', () => { this.confirmResign = false; this.resign(); }, 'danger'),
        this.button('No', () => { this.confirmResign = false; this.renderActions(); }));
    }
    return this.button('Resign', () => { this.confirmResign = true; this.renderActions(); }, 'quiet');
  }

  // Grav in the banner: the question on a stone that awaits your answer (Grav! or
  // Accept), the bonus turns to declare, the stone to remove after a correct call, your
  // turn, or whom the game waits for.
  gravPrompt(legal) {
    const v = this.view, gv = v.grav, you = v.you;
    if (you && you.stale) return [];     // this seat's part is on its way
    const by = (verb) => legal.filter((m) => m.split(' ')[1] === verb);
    const me = you ? v.seats[you.seat].side : '';
    const pend = gv.pending;
    const key = legal.filter((m) => !/ (place|resign)/.test(m)).join();
    if (by('accept').length || by('grav').length) {
      return [{ kind: 'question', cls: 'your-move', key,
        text: `${me}: ${v.seats[pend.seat].side} placed ${pend.point}${pend.bonus ? ' (a bonus stone)' : ''}. Does it break a rule?` +
          (by('place').length ? ' (Placing your own stone, or passing, accepts it.)' : ''),
        actions: [by('grav').length ? this.button('Grav!', () => this.submit(by('grav')[0]), 'grav-call') : null,
          by('accept').length ? this.button('Accept', () => this.submit(by('accept')[0]), 'primary') : null].filter(Boolean) }];
    }
    if (by('declare').length) {
      const ks = by('declare').map((m) => Number(m.split(' ')[2])).sort((a, b) => a - b);
      return [{ kind: 'question', cls: 'your-move declare', key,
        text: `${me}: your stone completed ${gv.declare_max} symmetric shape${gv.declare_max === 1 ? '' : 's'}. How many bonus turns do you declare? (Each must be a placement.)`,
        actions: ks.map((k) => this.button(`Declare ${k}`, () => this.submit(by('declare').find((m) => Number(m.split(' ')[2]) === k)), k ? 'primary' : '')) }];
    }
    if (by('remove').length) {
      const sel = h('select', { 'aria-label': 'stone to remove' }, by('remove').map((m) => h('option', { value: m }, m.split(' ')[2])));
      return [{ kind: 'turn', cls: 'your-move', key,
        text: `${me}: your call was right! Click one of ${v.seats[gv.victim].side}'s stones (ringed in red) to remove it.`,
        actions: [sel, this.button('Remove', () => this.submit(sel.value), 'primary')] }];
    }
    if (by('place').length || by('pass').length) {
      const bonus = gv.phase === 'bonus';
      return [{ kind: 'turn', cls: 'your-move', key,
        text: bonus ? `${me}: bonus turn${gv.owed > 1 ? ` (${gv.owed} owed)` : ''} — click a point to place a stone (no pass).`
          : `${me}: your turn — click a point to place a stone, or pass.`,
        actions: by('pass').length ? [this.button('Pass', () => this.submit(by('pass')[0]))] : [] }];
    }
    if (v.to_move !== null && v.to_move !== undefined) {
      const who = v.seats[v.to_move].side;
      const what = { window: `to answer ${pend ? pend.point : 'the stone'}`, declare: 'to declare bonus turns', remove: 'to remove a stone', bonus: 'to place a bonus stone' }[gv.phase] || 'to play';
      return [{ kind: 'wait', text: `Waiting for ${who} ${what}…` }];
    }
    return [];
  }

  // Grav in the side panel: the private hints' switch on your turn, resignation.
  gravActions(legal) {
    const v = this.view, out = [];
    const you = v.you;
    if (you && you.stale) return out;     // this seat's part is on its way
    if (you && you.can_hint) {
      const cb = h('input', { type: 'checkbox', onchange: (e) => { this.hintMode = e.target.checked; this.renderBoard(); } });
      cb.checked = this.hintMode;
      out.push(h('div', { class: 'row' }, h('label', { class: 'hint-toggle', title: 'private: only you see the answer' }, cb,
        ' Check points first (private hint): clicks ask instead of placing')));
    }
    if (you && legal.some((m) => m.split(' ')[1] === 'resign')) out.push(h('div', { class: 'row' }, this.resignButton()));
    return out;
  }

  token() {
    const s = this.view && this.view.you ? this.view.you.seat : this.actingSeat();
    return this.tokens[s];
  }

  async submit(move) {
    if (this.busy) return;
    this.busy = true;
    this.message = '';
    try {
      const v = await api(`/api/games/${this.id}/move`, { token: this.token(), move, n: this.view.n + 1 });
      this.setReply(v);
    } catch (e) {
      if (e.code === 'out_of_date' || e.code === 'not_your_turn') {
        this.flash('Another move came first; the game was reloaded.');
        this.scheduleRefresh(0);
      } else this.flash(e.message);
      this.render();
    } finally {
      this.busy = false;
    }
  }

  // The view an action's reply carries. The WebSocket's events may have come first and
  // gone further (the server tells watchers before it answers, and an AI may have moved):
  // a reply older than what is shown is not shown.
  setReply(v) {
    if (this.view && (v.n < this.view.n || (v.n === this.view.n && v.status !== this.view.status &&
        isOver(this.view)))) {
      this.refreshYou();
      return;
    }
    this.setView(v);
    if (this.actingSeat(v) !== (v.you && v.you.seat)) this.refreshYou();
  }

  async hint(pt) {
    try {
      const r = await api(`/api/games/${this.id}/hint`, { token: this.token(), point: pt });
      this.board.setHint(pt, r);
      this.hintText = r.violates ? `Private hint: a stone on ${pt} would break the ${r.rules.join(' and ')} rule${r.rules.length > 1 ? 's' : ''}.`
        : `Private hint: a stone on ${pt} breaks no rule.`;
      this.renderBanner();
    } catch (e) { this.flash(e.message); }
  }

  async draw(action) {
    try {
      this.setReply(await api(`/api/games/${this.id}/draw`, { token: this.token(), action }));
    } catch (e) { this.flash(e.message); }
  }

  async resign() {
    try {
      this.setReply(await api(`/api/games/${this.id}/resign`, { token: this.token() }));
    } catch (e) { this.flash(e.message); this.renderActions(); }   // the question is over
  }

  // ---- Grav parameters ------------------------------------------------------------------

  renderParams() {
    const v = this.view, p = this.el.params;
    if (v.game !== 'grav' || !v.grav) { p.hidden = true; return; }
    const gv = (this.replayN !== null && this.positions && this.positions[this.replayN].grav) || v.grav;
    const { a, b, c, d, e } = gv.params;
    const opt = v.options || {};
    p.hidden = false;
    put(p, h('h3', {}, `Parameters (${gv.size}×${gv.size}, ${gv.players} players)`),
      h('dl', { class: 'params-list' },
        h('dt', {}, `a = ${a}`), h('dd', {}, `at most ${a} stones on consecutive points at equal spacing along a line (${opt.consecutive === 'own' ? 'your own stones' : 'every colour counts'})`),
        h('dt', {}, `b = ${b}, c = ${c}`), h('dd', {}, `at most ${c} stones in any ${b}×${b} square`),
        h('dt', {}, `d = ${d}, e = ${e}`), h('dd', {}, `a stone goes at taxicab distance ${d}..${e} from the reference stone (the last stone still on the board)`)),
      h('p', { class: 'muted small' }, `seed ${gv.seed} · phase ${gv.phase} · turn ${gv.turns} of ${gv.max_turns}` +
        (gv.owed ? ` · ${gv.owed} bonus turn(s) owed` : '') + (opt.referee === 'strict' ? ' · strict referee' : '') +
        (gv.hints ? ' · hints on' : ' · hints off')));
  }

  // ---- moves and replay -----------------------------------------------------------------

  renderMoves() {
    const v = this.view;
    this.moveList.render(v, this.replayN === null ? v.n : this.replayN, this.replayN !== null);
  }

  renderReplay() {
    const v = this.view;
    const cur = this.replayN === null ? v.n : this.replayN;
    const b = (label, aria, to, disabled) => h('button', { type: 'button', 'aria-label': aria, title: aria, disabled: disabled || undefined,
      onclick: () => this.goto(to) }, label);
    const slider = h('input', { type: 'range', min: 0, max: v.n, value: cur, 'aria-label': 'move number',
      oninput: (e) => this.goto(Number(e.target.value)) });
    put(this.el.replay, 
      b('|◀', 'start (Home)', 0, cur === 0), b('◀', 'previous move (←)', cur - 1, cur === 0),
      h('span', { class: 'ply' }, `${cur} / ${v.n}`),
      b('▶', 'next move (→)', cur + 1, cur >= v.n), b('▶|', 'last move (End)', v.n, cur >= v.n),
      slider,
      this.replayN !== null && !isOver(v) ? this.button('Back to the live game', () => this.goto(null), 'primary') : null);
  }

  async loadPositions() {
    this.positions = await allPositions(this.id);
  }

  async goto(n) {
    const v = this.view;
    if (n === null || n >= v.n) {
      this.replayN = null;          // the live (or final) position
      this.render();
      return;
    }
    n = Math.max(0, n);
    if (!this.positions || this.positions.length - 1 < v.n) {
      try { await this.loadPositions(); } catch (e) { this.flash(e.message); return; }
    }
    this.replayN = Math.min(n, this.positions.length - 1);
    this.render();
  }

  onKey(e) {
    if (!this.view || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.closest('input, select, textarea') || t.closest('svg.board'))) return;
    const cur = this.replayN === null ? this.view.n : this.replayN;
    let to;
    if (e.key === 'ArrowLeft') to = cur - 1;
    else if (e.key === 'ArrowRight') to = cur + 1;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = this.view.n;
    else if (e.key === 'Escape' && this.choice) { this.resolveChoice(null); return; }
    else return;
    e.preventDefault();
    if (to < 0 || to > this.view.n) return;
    this.goto(to);
  }

  // ---- links and downloads --------------------------------------------------------------

  renderShare() {
    const v = this.view;
    const base = location.origin;
    const out = [h('h3', {}, 'Share and download')];
    const copyRow = (label, url) => {
      const input = h('input', { type: 'text', readonly: true, value: url, 'aria-label': label, class: 'link',
        onfocus: (e) => e.target.select() });
      const btn = this.button('Copy', async () => {
        try { await navigator.clipboard.writeText(url); btn.textContent = 'Copied'; } catch (e) { input.select(); btn.textContent = 'Select + copy'; }
        setTimeout(() => { btn.textContent = 'Copy'; }, 1500);
      });
      return h('div', { class: 'link-row' }, h('label', {}, label), input, btn);
    };
    out.push(copyRow('Watch link (anyone)', `${base}/play/${v.id}`));
    // The analysis board, for watchers and finished games (not for a seat of a live game)
    const playing = v.status !== 'finished' && v.status !== 'abandoned' && this.heldSeats().length;
    if (!playing) out.push(h('p', {}, h('a', { href: `/play/${v.id}/analysis`, 'data-link': '', class: 'analysis-link button' }, 'Analysis board')));
    for (const inv of seats.invites(v.id)) {
      const st = v.seats[inv.seat];
      if (st && !st.joined) out.push(copyRow(`Join link for ${st.side} — send it to your friend`, base + inv.link));
    }
    const meta = this.meta && this.meta.games.find((g) => g.name === v.game);
    const fmts = meta ? meta.record_formats : [];
    out.push(h('p', { class: 'downloads' }, 'Record: ', ...fmts.map((f) =>
      h('a', { href: `/api/games/${v.id}/record?format=${f}`, download: '', class: 'download', 'data-format': f }, f.toUpperCase()))));
    const opts = Object.entries(v.options || {}).filter(([k]) => v.game !== 'grav' || !'abcde'.includes(k) || k.length > 1);
    out.push(h('details', {}, h('summary', {}, 'Options of this game'),
      h('p', { class: 'small' }, opts.map(([k, val]) => `${k}=${val}`).join(', ') || 'defaults'),
      v.clock ? h('p', { class: 'small' }, `Clock: ${v.clock.initial_ms / 60000} min + ${v.clock.increment_ms / 1000} s per move`) : h('p', { class: 'small' }, 'No clock'),
      v.start ? h('p', { class: 'small mono' }, `Start: ${v.start}`) : null,
      h('p', { class: 'small mono' }, `Position: ${v.position}`)));
    put(this.el.share, ...out);
  }
}

// Is the game's other side a computer (an AI seat of the server or a browser seat)?
function againstComputer(v, mySeat) {
  return (v.seats || []).some((st) => st.seat !== mySeat && (st.type === 'ai' || st.type === 'browser'));
}

// The seed of a computer's move in this page (its level's search draws from it): the game
// and the move's number, as the server's AI seats do.
function botSeed(id, n) {
  let x = 0;
  for (const c of id) x = (x * 31 + c.charCodeAt(0)) % 1000003;
  return (x * 1009 + n) % 2147483647 + 1;
}

// The pieces (Chu, Exaç) or stones (Grav) on the board of a view.
function pieceCount(v) {
  if (v.game === 'grav') return v.grav ? v.grav.board.filter((x) => x).length : 0;
  const board = (v.position || '').split(' ')[0];
  return (board.match(v.game === 'exac' ? /[FS]/g : /[a-zA-Z]/g) || []).length;
}

export { moveSquares, sideToMove, PLAYERS };
