// The analysis board (/play/ID/analysis: a game of the server; /play/analysis/GAME: a
// fresh board of GAME with its default options): the engine compiled to WebAssembly (web/engine/)
// analyses the position shown in this browser, never on the server. It shows the
// evaluation (a bar and a number, from the first player's side), the best lines (1 to 3)
// in the game's notation, their depth and speed; moves tried on the board make a variation
// kept in this page only (Grav's positions in it drawn from the engine's own view of them,
// gv_wasm_view, as the server would draw them); a finished game gets an evaluation graph computed in a second
// worker. Also the arrow (showArrow) the game page draws for a hint.
import { h, s, api, put, gameTitle, prefs, seats, allPositions } from './util.js';
import { ChuBoard } from './chu.js';
import { ExacBoard, parseExac, FILES as EXAC_FILES } from './exac.js';
import { GravBoard } from './grav.js';
import { MoveList, chuNotation } from './movelist.js';
import { EngineClient } from '/static/engine/client.js';

const GAMES = ['chu', 'exac', 'grav'];       // those with a fresh board
const isOver = (v) => v.status === 'finished' || v.status === 'abandoned';

// The rule options of a view as the worker's `rules` ("k=v,...").
export function rulesOf(v) {
  return Object.entries((v && v.options) || {}).map(([k, val]) => `${k}=${val}`).join(',');
}

// An engine score (for the side to move) as the first player's: {cp, mate, text, frac}
// where frac (0..1) is the bar's share of the first player. Grav's MCTS score is the
// mover's expected share of the stones x 1000.
export function evalFor(game, info, toMove) {
  if (game === 'grav') {
    const share = Math.max(0, Math.min(1000, info.score)) / 1000;
    return { text: `P${toMove + 1} ${Math.round(share * 100)}%`, frac: toMove === 0 ? share : 1 - share };
  }
  const sign = toMove === 1 ? -1 : 1;
  if (info.mate !== undefined && info.mate !== null) {
    const m = info.mate * sign;
    return { mate: m, text: `#${m}`, frac: m > 0 ? 1 : 0, cp: m > 0 ? 10000 : -10000 };
  }
  const cp = info.score * sign;
  const text = `${cp > 0 ? '+' : ''}${(cp / 100).toFixed(2)}`;
  return { cp, text, frac: 1 / (1 + Math.exp(-cp / 400)) };
}

// The squares a move goes from and to, for an arrow: Chu's USI squares; Exaç's from the
// positions before and after it (its notation names the destination only); Grav's point.
export function moveEnds(game, move, before, after) {
  if (game === 'chu') {
    const sq = (move || '').match(/\d{1,2}[a-l]/g) || [];
    if (/\*/.test(move)) return { to: sq[0] };
    return { from: sq[0], to: sq[sq.length - 1] };
  }
  if (game === 'grav') {
    const t = (move || '').split(' ');
    return t[1] === 'place' || t[1] === 'remove' ? { to: t[2] } : {};
  }
  const a = parseExac(before), b = parseExac(after);
  let from = null, to = null;
  for (let r = 0; r < 7; r++) {
    for (let c = 0; c < 7; c++) {
      const sq = `${EXAC_FILES[c]}${r + 1}`;
      if (a[r][c] && !b[r][c]) from = sq;
      else if (b[r][c] && a[r][c] !== b[r][c]) to = sq;
    }
  }
  return { from, to };
}

// An arrow (or a ring, for a move with no origin) over board (a ChuBoard, ExacBoard or
// GravBoard: their `cells` by square name and `svg`); null removes it.
export function showArrow(board, ends, cls = 'hint-arrow') {
  if (!board || !board.svg) return;
  for (const old of board.svg.querySelectorAll(`.${cls}`)) old.remove();
  if (!ends || !ends.to) return;
  const center = (name) => {
    const g = board.cells && board.cells.get(name);
    if (!g) return null;
    const m = /translate\(([-\d.]+),\s*([-\d.]+)\)/.exec(g.getAttribute('transform') || '');
    const r = g.querySelector('rect, circle');
    const w = r && r.getAttribute('width') ? Number(r.getAttribute('width')) : 0;
    return m ? { x: Number(m[1]) + w / 2, y: Number(m[2]) + w / 2, w: w || 40 } : null;
  };
  const to = center(ends.to), from = ends.from ? center(ends.from) : null;
  if (!to) return;
  const g = s('g', { class: cls, 'pointer-events': 'none', 'data-from': ends.from || '', 'data-to': ends.to });
  if (from && (from.x !== to.x || from.y !== to.y)) {
    const dx = to.x - from.x, dy = to.y - from.y, len = Math.hypot(dx, dy);
    const ux = dx / len, uy = dy / len, head = to.w * 0.35, wd = to.w * 0.12;
    const ex = to.x - ux * head, ey = to.y - uy * head;
    g.append(s('line', { x1: from.x, y1: from.y, x2: ex, y2: ey, 'stroke-width': wd, class: 'shaft' }));
    g.append(s('polygon', { class: 'head', points: [[to.x, to.y], [ex - uy * head * 0.6, ey + ux * head * 0.6],
      [ex + uy * head * 0.6, ey - ux * head * 0.6]].map((p) => p.join(',')).join(' ') }));
  } else {
    g.append(s('circle', { cx: to.x, cy: to.y, r: to.w * 0.42, class: 'ring', 'stroke-width': to.w * 0.1 }));
  }
  board.svg.append(g);
}

// Exaç's legal moves as its board takes them ({move, from, to}), from the worker loaded
// with the position.
export async function exacLegal(engine) {
  const r = await engine.request('legalPositions');
  return r.moves.map((m) => Object.assign({ move: m.move }, moveEnds('exac', m.move, r.position, m.position)));
}

export class AnalysisPage {
  // target: a game's id, or a game's name (a fresh board).
  constructor(root, target, meta) {
    this.root = root;
    this.meta = meta;
    this.fresh = GAMES.includes(target);
    this.id = this.fresh ? null : target;
    this.game = this.fresh ? target : null;
    this.main = [];               // the game's moves [{n, seat, move, texts}]
    this.positions = null;        // the server's positions of the game (Exaç and Grav views)
    this.cur = 0;                 // plies of the main line shown, or where the variation starts
    this.vari = [];               // the variation: moves tried on the board after cur
    this.varN = 0;                // how many of them are shown
    this.multipv = 1;
    this.running = false;
    this.lines = [];
    this.seq = 0;
    this.closed = false;
    this.engine = new EngineClient();
    this.build();
    this.start().catch((e) => this.fail(e));
  }

  fail(e) {
    put(this.el.status, h('span', { class: 'message' }, `The analysis cannot run: ${e.message}`));
  }

  // In place of the board: why it does not open here, and the way back to the game.
  refuse(title, text) {
    put(this.root, h('section', { class: 'panel error-page' }, h('h2', {}, title), h('p', {}, text),
      h('p', {}, h('a', { href: `/play/${this.id}`, 'data-link': '' }, 'Back to the game'))));
    this.closed = true;
    this.engine.close();
  }

  destroy() {
    this.closed = true;
    this.keyOff && this.keyOff();
    this.engine.close();
    if (this.graphEngine) this.graphEngine.close();
  }

  async start() {
    if (this.fresh) {
      this.view = { game: this.game, options: {}, start: '', moves: [], n: 0, status: 'analysis' };
    } else {
      this.view = await api(`/api/games/${this.id}`);
      if (this.closed) return;
      if (!isOver(this.view) && Object.keys(seats.all(this.id)).length) {
        this.refuse('Not during your own game', 'The analysis board opens for watchers and for finished games.');
        return;
      }
      // The game may hold a fact nobody may be told yet, which the engine would tell (Grav:
      // whether the stone awaiting its answers breaks a rule): the view says why.
      if (this.view.status === 'live' && this.view.analysis_closed) {
        this.refuse('Not in this position', `${this.view.analysis_closed} Open the analysis board again after the next move.`);
        return;
      }
      this.game = this.view.game;
      this.main = this.view.moves.slice();
      if (this.game !== 'chu') this.positions = await allPositions(this.id);
      this.cur = this.main.length;
    }
    document.title = `Analysis · ${gameTitle(this.game)} — Gravülien`;
    this.makeBoard();
    const back = this.id ? h('a', { href: `/play/${this.id}`, 'data-link': '' }, 'Back to the game') : null;
    put(this.el.title, `Analysis · ${gameTitle(this.game)}${this.id ? ` · ${this.id}` : ''} `, back);
    const k = (e) => this.onKey(e);
    document.addEventListener('keydown', k);
    this.keyOff = () => document.removeEventListener('keydown', k);
    if (!this.fresh && isOver(this.view) && this.main.length) this.buildGraph();
    await this.show();
    this.setRunning(true);
  }

  build() {
    const el = this.el = {};
    el.title = h('h2', { class: 'game-title' }, 'Analysis');
    el.bar = h('div', { class: 'eval-bar', role: 'img', 'aria-label': 'evaluation' }, h('div', { class: 'eval-fill' }));
    el.boardWrap = h('div', { class: 'board-wrap analysis-board' });
    el.status = h('div', { class: 'info', 'aria-live': 'polite' });
    el.actions = h('div', { class: 'row grav-actions', hidden: true });
    el.evalNum = h('span', { class: 'eval-num', id: 'eval-num' }, '…');
    el.depth = h('span', { class: 'eval-depth small muted', id: 'eval-depth' });
    el.toggle = h('button', { type: 'button', class: 'primary engine-toggle', onclick: () => this.setRunning(!this.running) }, 'Stop');
    el.multipv = h('select', { 'aria-label': 'lines', class: 'multipv', onchange: (e) => { this.multipv = Number(e.target.value); this.restart(); } },
      [1, 2, 3].map((n) => h('option', { value: n }, `${n} line${n > 1 ? 's' : ''}`)));
    el.lines = h('ol', { class: 'pv-lines', 'aria-label': 'best lines' });
    el.note = h('p', { class: 'small muted engine-note' });
    el.vari = h('div', { class: 'variation small' });
    this.moveList = new MoveList((n) => this.goto(n));
    el.nav = h('div', { class: 'replay', role: 'toolbar', 'aria-label': 'moves' });
    el.graph = h('div', { class: 'eval-graph panel', hidden: true });
    put(this.root, h('section', { class: 'game analysis' },
      h('div', { class: 'game-head' }, el.title),
      h('div', { class: 'game-body' },
        h('div', { class: 'board-col' }, h('div', { class: 'analysis-row' }, el.bar, el.boardWrap), el.status, el.actions, el.graph),
        h('aside', { class: 'side' },
          h('div', { class: 'panel engine-panel' },
            h('div', { class: 'engine-head' }, el.evalNum, el.depth, el.multipv, el.toggle),
            el.lines, el.note),
          h('div', { class: 'panel moves-panel' }, el.vari, this.moveList.el, el.nav)))));
  }

  makeBoard() {
    const hooks = {
      submit: (m) => this.tryMove(m),
      choose: (prompt, options) => Promise.resolve(options.length ? options[0].value : null),
      info: (t) => { this.el.status.textContent = t; },
      prompt: () => {}, answer: () => {}, hint: () => {}, selection: () => {},
    };
    const B = { chu: ChuBoard, exac: ExacBoard, grav: GravBoard }[this.game];
    this.board = new B(this.el.boardWrap, hooks);
    if (this.game === 'chu') this.board.setStyle(prefs.get('chuStyle', 'kanji'));
  }

  // The moves from the start to the position shown.
  lineMoves() {
    return this.main.slice(0, this.cur).map((m) => m.move).concat(this.vari.slice(0, this.varN).map((m) => m.move));
  }

  // The position shown: loaded in the worker, drawn, then analysed (when running).
  async show() {
    const seq = ++this.seq;
    // a search under way would hold the worker until its iteration ends: replace it
    if (this.searching) { this.searching = false; await this.engine.stopNow(); }
    if (seq !== this.seq) return;
    const r = await this.engine.request('load', { game: this.game, rules: rulesOf(this.view),
      position: this.view.start || 'startpos', moves: this.lineMoves() });
    if (seq !== this.seq) return;
    if (this.multipv > 1) await this.engine.request('setOption', { name: 'multipv', value: this.multipv });
    this.state = r.state;
    this.exacMoves = this.game === 'exac' && r.state.status === 'ongoing' ? await exacLegal(this.engine) : null;
    // Grav in a variation or on a fresh board: the engine's view of its position (the
    // server has none)
    this.gravView = this.game === 'grav' && (this.varN > 0 || !this.positions)
      ? (await this.engine.request('view')).view.grav : null;
    if (seq !== this.seq) return;
    this.lines = [];
    this.renderBoard();
    this.renderMoves();
    this.renderLines();
    if (this.graphSvg) this.drawGraph(this.graphSvg.parentNode);
    if (this.running) this.analyse(seq);
  }

  renderBoard() {
    const st = this.state, inVar = this.varN > 0;
    const last = inVar ? this.vari[this.varN - 1].move : this.cur > 0 ? this.main[this.cur - 1].move : null;
    // Variations are played on the board: Chu's legal moves are the worker's USI texts,
    // Exaç's have their squares from the positions after them, Grav's are every player's
    // actions in the engine's state ("2 place d4", "3 grav", ...; resigning aside).
    const ongoing = st.status === 'ongoing';
    const legal = this.game === 'chu' ? (ongoing ? st.moves : null)
      : this.game === 'grav' ? (ongoing ? st.moves.filter((m) => !/ resign$/.test(m)) : null) : this.exacMoves;
    let data;
    if (this.game === 'chu') {
      data = { position: st.position, legal, last, heisei: (this.view.options || {}).variant === 'heisei' };
    } else if (this.game === 'exac') {
      const pos = !inVar && this.positions && this.positions[this.cur];
      data = { position: st.position, exac: pos ? pos.exac : null, legal };
    } else {
      // the game's positions from the server; the variation's from the engine
      const pos = !inVar && this.positions && this.positions[this.cur];
      const gv = inVar || !this.positions ? this.gravView : pos ? pos.grav : null;
      data = gv ? { grav: gv, legal } : null;
    }
    if (data) this.board.update(data);
    if (this.game === 'grav') this.renderGravActions(legal || []);
    showArrow(this.board, null, 'pv-arrow');
    const over = st.status !== 'ongoing';
    this.el.status.textContent = over ? `Game over: ${st.status === 'draw' ? 'draw' : `${this.sideName(st.winner)} wins`} (${st.reason}).` : '';
  }

  // Grav's actions that are not a click on a point, as buttons under the board: a call of
  // "Grav!" on the pending stone or its acceptance (by any player whose action it is), a
  // pass, the bonus turns to declare. Each starts or extends the variation.
  renderGravActions(legal) {
    const label = (m) => {
      const t = m.split(' ');
      const what = { grav: 'Grav!', accept: 'Accept', pass: 'Pass', declare: `Declare ${t[2]}` }[t[1]];
      return what ? `P${t[0]}: ${what}` : null;
    };
    const buttons = legal.filter((m) => label(m)).map((m) => h('button', { type: 'button', class: 'grav-action',
      'data-move': m, onclick: () => this.tryMove(m) }, label(m)));
    this.el.actions.hidden = !buttons.length;
    put(this.el.actions, buttons.length ? [h('span', { class: 'small muted' }, 'Try: '), ...buttons] : null);
  }

  sideName(i) {
    if (this.game === 'chu') return i ? 'Gote' : 'Sente';
    if (this.game === 'exac') return i ? 'Second' : 'First';
    return `P${i + 1}`;
  }

  renderMoves() {
    const moves = this.main.slice(0, this.vari.length ? this.cur : this.main.length)
      .concat(this.vari.map((m, i) => Object.assign({}, m, { n: this.cur + i + 1 })));
    const shown = this.cur + this.varN;
    this.moveList.render({ game: this.game, moves }, shown, true);
    for (const b of this.moveList.ol.querySelectorAll('button.mv')) {
      b.classList.toggle('var', Number(b.dataset.n) > this.cur && this.vari.length > 0);
    }
    put(this.el.vari, this.vari.length
      ? [h('span', {}, `Variation from move ${this.cur} (this page only) `), h('button', { type: 'button', class: 'quiet back-main', onclick: () => this.backToMain() }, 'Back to the game')]
      : null);
    const total = moves.length;
    const b = (label, aria, to, disabled) => h('button', { type: 'button', 'aria-label': aria, title: aria, disabled: disabled || undefined,
      onclick: () => this.goto(to) }, label);
    put(this.el.nav, b('|◀', 'start (Home)', 0, shown === 0), b('◀', 'previous move (←)', shown - 1, shown === 0),
      h('span', { class: 'ply' }, `${shown} / ${total}`),
      b('▶', 'next move (→)', shown + 1, shown >= total), b('▶|', 'last move (End)', total, shown >= total));
  }

  // Shows the position after n moves of the list shown (the main line, or the main line
  // to the variation's start then the variation).
  goto(n) {
    const total = (this.vari.length ? this.cur : this.main.length) + this.vari.length;
    n = Math.max(0, Math.min(n, total));
    if (this.vari.length && n > this.cur) this.varN = n - this.cur;
    else if (this.vari.length && n === this.cur) this.varN = 0;
    else { this.vari = []; this.varN = 0; this.cur = n; }
    this.show().catch((e) => this.fail(e));
  }

  backToMain() {
    this.vari = [];
    this.varN = 0;
    this.show().catch((e) => this.fail(e));
  }

  // A move made on the board: the next move of the line when it is that, else a new
  // variation from here (the moves after it are dropped). Never sent to the server.
  async tryMove(move) {
    if (!this.vari.length && this.cur < this.main.length && this.main[this.cur].move === move) { this.goto(this.cur + 1); return; }
    if (this.vari.length && this.varN < this.vari.length && this.vari[this.varN].move === move) { this.goto(this.cur + this.varN + 1); return; }
    const seq = ++this.seq;
    if (this.searching) { this.searching = false; await this.engine.stopNow(); }
    // a Grav move names its player ("2 grav" may come from a player not to move)
    const seat = this.game === 'grav' ? Number(move.split(' ')[0]) - 1 : this.state.toMove;
    const r = await this.engine.request('play', { move });
    if (seq !== this.seq) return;
    this.vari = this.vari.slice(0, this.varN).concat([{ move, seat, texts: r.texts || {} }]);
    this.varN = this.vari.length;
    this.show().catch((e) => this.fail(e));
  }

  setRunning(on) {
    this.running = on;
    this.el.toggle.textContent = on ? 'Stop' : 'Analyse';
    this.el.toggle.classList.toggle('primary', !on);
    if (on) this.restart();
    else { this.seq++; if (this.searching) this.engine.stop().catch(() => {}); }
  }

  restart() { this.show().catch((e) => this.fail(e)); }

  async analyse(seq) {
    if (this.state.status !== 'ongoing') { this.el.evalNum.textContent = '—'; return; }
    const toMove = this.state.toMove;
    this.lines = [];
    this.searching = true;
    try {
      const r = await this.engine.request('search', { infinite: true }, (info) => {
        if (seq !== this.seq) return;
        const k = (info.multipv || 1) - 1;
        this.lines[k] = info;
        if (k === 0) this.showEval(info, toMove);
        this.renderLines();
      });
      if (seq === this.seq && r && r.result) this.el.depth.textContent += ' · stopped';
    } catch (e) {
      if (seq === this.seq && e.message !== 'stopped') this.fail(e);
    } finally {
      if (seq === this.seq || !this.running) this.searching = false;
    }
  }

  showEval(info, toMove) {
    const e = evalFor(this.game, info, toMove);
    this.el.evalNum.textContent = e.text;
    this.el.evalNum.dataset.cp = e.cp !== undefined ? e.cp : '';
    this.el.bar.firstChild.style.height = `${Math.round(e.frac * 1000) / 10}%`;
    this.el.bar.setAttribute('aria-label', `evaluation ${e.text}`);
    const nps = info.nps >= 1000 ? `${Math.round(info.nps / 1000)} k` : `${info.nps}`;
    this.el.depth.textContent = `depth ${info.depth} · ${nps}${this.game === 'grav' ? ' playouts' : ' nodes'}/s`;
    this.el.depth.dataset.depth = info.depth;
    const best = (info.pv || '').split(' ')[0];
    this.el.depth.dataset[`best${info.depth}`] = best;     // the best move at each depth
    if (best && this.game !== 'exac') showArrow(this.board, moveEnds(this.game, best), 'pv-arrow');
    const ex = best && this.exacMoves && this.exacMoves.find((m) => m.move === best);
    if (ex) showArrow(this.board, ex, 'pv-arrow');
  }

  // A line's moves in the notation the move list shows (Chu: TSA, Japanese or USI; the
  // others their own).
  pvText(info) {
    if (this.game === 'chu') {
      const key = chuNotation();
      const t = info.pvTexts && info.pvTexts[key];
      if (t && t.length) return t.join(' ');
      return info.pv;
    }
    if (this.game === 'grav' && info.pvTexts && info.pvTexts.words) return info.pvTexts.words.join('; ');
    return info.pv;
  }

  renderLines() {
    const toMove = this.state ? this.state.toMove : 0;
    put(this.el.lines, this.lines.filter(Boolean).map((info, i) => {
      const e = evalFor(this.game, info, toMove);
      return h('li', { class: 'pv-line', 'data-pv': info.pv, 'data-multipv': i + 1 },
        h('span', { class: 'pv-eval' }, e.text), ' ', h('span', { class: 'pv-moves', lang: this.game === 'chu' && chuNotation() === 'kif' ? 'ja' : undefined }, this.pvText(info)));
    }));
    this.el.note.textContent = this.running ? 'The engine runs in this browser (WebAssembly); nothing is sent to the server.'
      : 'The engine is stopped.';
  }

  onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && t.closest && t.closest('input, select, textarea, svg.board')) return;
    const cur = this.cur + this.varN;
    if (e.key === 'ArrowLeft') this.goto(cur - 1);
    else if (e.key === 'ArrowRight') this.goto(cur + 1);
    else if (e.key === 'Home') this.goto(0);
    else if (e.key === 'End') this.goto(1e9);
    else return;
    e.preventDefault();
  }

  // ---- the evaluation graph of a finished game: every position searched in a second
  // worker (alpha-beta: to a fixed depth; Grav: a fixed number of playouts).

  async buildGraph() {
    const g = this.el.graph;
    g.hidden = false;
    const total = this.main.length;
    const bar = h('progress', { max: total + 1, value: 0, class: 'graph-progress', 'aria-label': 'evaluation graph progress' });
    const svgBox = h('div', { class: 'graph-box' });
    put(g, h('h3', {}, 'Evaluation over the game'), bar, svgBox);
    this.graphEngine = new EngineClient();
    const eng = this.graphEngine;
    const limit = this.game === 'grav' ? { nodes: 400 } : { depth: this.game === 'chu' ? 3 : 6 };
    this.graphLimit = limit;
    this.graph = [];
    const moves = this.main.map((m) => m.move);
    try {
      await eng.request('load', { game: this.game, rules: rulesOf(this.view), position: this.view.start || 'startpos' });
      for (let i = 0; i <= total; i++) {
        if (this.closed) return;
        if (i > 0) await eng.request('play', { move: moves[i - 1] });
        const st = (await eng.request('state')).state;
        let e = { frac: st.status === 'win' ? (st.winner === 0 ? 1 : 0) : 0.5 };
        if (st.status === 'ongoing') {
          await eng.request('setOption', { name: 'level', value: 10 });
          const r = await eng.request('search', Object.assign({ reports: false }, limit));
          e = evalFor(this.game, Object.assign({}, r.result), st.toMove);
        }
        this.graph.push(e);
        bar.value = i + 1;
        this.drawGraph(svgBox);
      }
      bar.hidden = true;
      g.dataset.done = 'true';
    } catch (e) {
      if (!this.closed) put(svgBox, h('p', { class: 'message' }, `The graph stopped: ${e.message}`));
    }
  }

  drawGraph(box) {
    const W = 600, H = 120, n = this.main.length;
    const x = (i) => (n ? (i / n) * W : 0), y = (f) => H - f * H;
    const pts = this.graph.map((e, i) => `${x(i).toFixed(1)},${y(e.frac).toFixed(1)}`);
    const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'graph', role: 'img', 'aria-label': 'evaluation over the game; click to go to a move' });
    svg.append(s('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-bg' }));
    if (pts.length) svg.append(s('polygon', { class: 'graph-area', points: `0,${H} ${pts.join(' ')} ${x(this.graph.length - 1).toFixed(1)},${H}` }));
    svg.append(s('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-mid' }));
    if (pts.length) svg.append(s('polyline', { class: 'graph-line', points: pts.join(' ') }));
    const cx = x(this.cur);
    svg.append(s('line', { x1: cx, y1: 0, x2: cx, y2: H, class: 'graph-cur' }));
    svg.addEventListener('click', (ev) => {
      const r = svg.getBoundingClientRect();
      const ply = Math.round(((ev.clientX - r.left) / r.width) * n);
      this.vari = [];
      this.varN = 0;
      this.goto(ply);
    });
    put(box, svg);
    this.graphSvg = svg;
  }
}
