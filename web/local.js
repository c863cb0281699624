// Games against the computer in this browser. The lobby's panel (localPanel) makes one on
// the server when it answers: a game with a browser seat (docs/api.md), recorded there and
// played on the game page (game.js), whose engine worker plays the computer's seat. When
// the server cannot be reached it makes a local game instead (/play/local/ID): the AI runs
// in the engine's worker (web/engine/, WebAssembly) at the level chosen, the game is kept
// in this browser's localStorage (never sent to the server), and it goes on with the
// network cut once the page is loaded. Local games are Chu Shogi and Exaç. The lobby lists
// them (localPanel) and their page offers the record as a text file: Chu as a USI move
// list, Exaç as its numbered moves.
import { h, put, gameTitle, api, seats, ApiError } from './util.js';
import { ChuBoard } from './chu.js';
import { ExacBoard } from './exac.js';
import { MoveList } from './movelist.js';
import { Banner } from './banner.js';
import { EngineClient } from '/static/engine/client.js';
import { exacLegal, moveEnds, showArrow } from './analysis.js';

const KEY = 'gv.local.';
const SIDES = { chu: ['Sente ☗', 'Gote ☖'], exac: ['First', 'Second'] };
export const LOCAL_GAMES = ['chu', 'exac'];
// The games of the panel: on the server, Grav too.
const PANEL_GAMES = ['chu', 'exac', 'grav'];

export const localGames = {
  get(id) {
    try { return JSON.parse(localStorage.getItem(KEY + id)); } catch (e) { return null; }
  },
  save(g) {
    g.updated = Date.now();
    localStorage.setItem(KEY + g.id, JSON.stringify(g));
  },
  all() {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith(KEY)) { const g = this.get(k.slice(KEY.length)); if (g) out.push(g); }
    }
    return out.sort((a, b) => b.updated - a.updated);
  },
  remove(id) { localStorage.removeItem(KEY + id); },
};

// A new local game: {id, game, level, you (0: you move first, 1: the computer does), seed}.
export function newLocalGame(game, level, you) {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const g = { id, game, level, you, seed: Math.floor(Math.random() * 1e9) + 1, moves: [], status: 'live',
    result: null, created: Date.now() };
  localGames.save(g);
  return g;
}

// The game's record as text: Chu as a USI position command (`position startpos moves ...`),
// Exaç as numbered moves; a header of comment lines first.
export function localRecord(g) {
  const side = SIDES[g.game];
  const head = [`# Gravülien: ${gameTitle(g.game)}, you (${side[g.you]}) against the computer at level ${g.level}`,
    `# played ${new Date(g.created).toISOString()} in the browser; result: ${resultWords(g) || 'unfinished'}`];
  if (g.game === 'chu') return `${head.join('\n')}\nposition startpos moves ${g.moves.map((m) => m.move).join(' ')}\n`;
  const lines = [];
  for (let i = 0; i < g.moves.length; i += 2) {
    lines.push(`${i / 2 + 1}. ${g.moves[i].move}${g.moves[i + 1] ? ` ${g.moves[i + 1].move}` : ''}`);
  }
  return `${head.join('\n')}\n${lines.join('\n')}\n`;
}

function resultWords(g) {
  const r = g.result;
  if (!r) return '';
  if (r.status === 'draw') return `draw (${r.reason})`;
  return `${SIDES[g.game][r.winner]} wins (${r.reason})`;
}

// A game on the server against the computer of this browser: the creator's seat and a
// browser seat at that level (you: 0 moves first), both tokens kept here as the lobby keeps
// its seats. Resolves to the game's id; throws ApiError.
async function newServerGame(game, level, you) {
  const seatsReq = [{ type: 'human', you: true }, { type: 'browser', level }];
  if (you === 1) seatsReq.reverse();
  const v = await api('/api/games', { game, seats: seatsReq });
  for (const t of v.tokens || []) if (t.you) seats.add(v.id, t.seat, t.token);
  seats.setInvites(v.id, []);
  return v.id;
}

// Did the server not answer (offline, unreachable, or a proxy's error in its place)?
const unreachable = (e) => !(e instanceof ApiError) || e.status === 0 || e.status >= 500;

// The lobby's panel: a new game against the computer in this browser (recorded by the
// server when it answers, else local), and the local games.
export function localPanel(navigate) {
  const game = h('select', { 'aria-label': 'game', class: 'local-game' },
    PANEL_GAMES.map((n) => h('option', { value: n }, gameTitle(n))));
  const level = h('select', { 'aria-label': 'level', class: 'local-level' },
    Array.from({ length: 10 }, (_, i) => h('option', { value: i + 1 }, `Level ${i + 1}`)));
  level.value = '3';
  const side = h('select', { 'aria-label': 'your side', class: 'local-side' },
    h('option', { value: 0 }, 'You move first'), h('option', { value: 1 }, 'The computer moves first'));
  const start = h('button', { type: 'submit', class: 'primary local-start' }, 'Play');
  const note = h('p', { class: 'small local-note', role: 'status', hidden: true });
  const playLocal = (why) => {
    if (!LOCAL_GAMES.includes(game.value)) {
      note.textContent = `${why} ${gameTitle(game.value)} against the computer needs the server; Chu Shogi and Exaç can be played here without it.`;
      note.hidden = false;
      return;
    }
    const g = newLocalGame(game.value, Number(level.value), Number(side.value));
    navigate(`/play/local/${g.id}`);
  };
  const form = h('form', { class: 'local-new', onsubmit: async (e) => {
    e.preventDefault();
    note.hidden = true;
    if (!navigator.onLine) { playLocal('Offline:'); return; }
    start.disabled = true;
    try {
      const id = await newServerGame(game.value, Number(level.value), Number(side.value));
      navigate(`/play/${id}`);
    } catch (err) {
      if (unreachable(err)) playLocal('The server cannot be reached:');
      else { note.textContent = err.message; note.hidden = false; }
    } finally {
      start.disabled = false;
    }
  } }, game, level, side, start);
  const list = localGames.all();
  return h('div', { class: 'panel local-panel' },
    h('h3', {}, 'Play the computer (in your browser)'),
    h('p', { class: 'small muted local-help' }, 'The engine runs in this page. Online, the server records the game ' +
      '(unrated, marked as played by your browser); offline, the game is kept in this browser only (Chu Shogi and Exaç) ' +
      'and goes on without a network.'),
    form, note,
    list.length ? h('ul', { class: 'local-list' }, list.map((g) => h('li', {},
      h('a', { href: `/play/local/${g.id}`, 'data-link': '', class: 'local-link' },
        `${gameTitle(g.game)} · level ${g.level} · ${g.moves.length} moves · ${g.status === 'live' ? 'in progress' : resultWords(g)}`)))) : null);
}

export class LocalGamePage {
  constructor(root, id) {
    this.root = root;
    this.g = localGames.get(id);
    this.closed = false;
    if (!this.g) {
      put(root, h('section', { class: 'panel error-page' }, h('h2', {}, 'No such local game'),
        h('p', {}, 'Local games are kept in the browser that played them.'),
        h('p', {}, h('a', { href: '/', 'data-link': '' }, 'Back to the lobby'))));
      return;
    }
    this.engine = new EngineClient();
    this.hint = null;
    window.gvLocalPage = this;     // for the browser test (its legal moves)
    this.build();
    this.load().catch((e) => this.say(`The engine cannot run: ${e.message}`));
  }

  destroy() {
    this.closed = true;
    if (this.engine) this.engine.close();
  }

  say(text) { this.message = text; this.renderBanner(); }

  build() {
    const g = this.g;
    document.title = `${gameTitle(g.game)} (local) — Gravülien`;
    this.banner = new Banner();
    this.boardWrap = h('div', { class: 'board-wrap' });
    this.moveList = new MoveList(() => {});
    this.actions = h('div', { class: 'actions panel' });
    this.players = h('div', { class: 'players panel' });
    put(this.root, h('section', { class: 'game local' },
      h('div', { class: 'game-head' }, h('h2', { class: 'game-title' }, `${gameTitle(g.game)} · against the computer (level ${g.level}) · in this browser`)),
      h('div', { class: 'game-body' },
        h('div', { class: 'board-col' }, this.banner.el, this.boardWrap),
        h('aside', { class: 'side' }, this.players, this.actions, h('div', { class: 'panel moves-panel' }, this.moveList.el)))));
    const hooks = { submit: (m) => this.humanMove(m), choose: (p, o) => Promise.resolve(o.length ? o[0].value : null),
      info: () => {}, prompt: () => {}, answer: () => {}, hint: () => {}, selection: () => {} };
    this.board = g.game === 'chu' ? new ChuBoard(this.boardWrap, hooks) : new ExacBoard(this.boardWrap, hooks);
    if (g.you === 1) this.board.setFlipped(true);
  }

  async load() {
    const g = this.g;
    const r = await this.engine.request('load', { game: g.game, moves: g.moves.map((m) => m.move) });
    await this.setState(r.state);
  }

  async setState(st) {
    const g = this.g;
    this.state = st;
    if (st.status !== 'ongoing' && g.status === 'live') {
      g.status = 'finished';
      g.result = { status: st.status, winner: st.winner, reason: st.reason };
      localGames.save(g);
    }
    this.legal = null;
    if (g.status === 'live' && st.toMove === g.you) {
      this.legal = g.game === 'exac' ? await exacLegal(this.engine) : st.moves;
    }
    this.render();
    if (g.status === 'live' && st.toMove !== g.you) this.aiMove();
  }

  async aiMove() {
    const g = this.g;
    this.thinking = true;
    this.renderBanner();
    try {
      const { result } = await this.engine.request('aiMove', { level: g.level, seed: g.seed + g.moves.length, movetime: 1000 });
      if (this.closed) return;
      await this.play(result.best, 1 - g.you);
    } catch (e) {
      if (!this.closed) this.say(`The computer cannot move: ${e.message}`);
    } finally {
      this.thinking = false;
    }
  }

  async play(move, seat) {
    const r = await this.engine.request('play', { move });
    const g = this.g;
    g.moves.push({ n: g.moves.length + 1, seat, move, texts: r.texts || {} });
    this.hint = null;
    localGames.save(g);
    await this.setState(r.state);
  }

  async humanMove(move) {
    if (this.thinking || !this.legal) return;
    this.legal = null;
    try { await this.play(move, this.g.you); } catch (e) { this.say(e.message); }
  }

  async askHint() {
    if (!this.legal || this.thinking) return;
    this.thinking = true;
    try {
      const before = this.state.position;
      const { result } = await this.engine.request('search', { movetime: 1000 });
      const after = await this.engine.request('play', { move: result.best });
      await this.engine.request('undo');
      this.hint = Object.assign({ move: result.best }, moveEnds(this.g.game, result.best, before, after.state.position));
      this.message = `Hint: ${(after.texts && after.texts.tsa) || result.best}`;
    } catch (e) {
      this.message = `No hint: ${e.message}`;
    } finally {
      this.thinking = false;
      this.render();
    }
  }

  resign() {
    const g = this.g;
    if (g.status !== 'live') return;
    g.status = 'finished';
    g.result = { status: 'win', winner: 1 - g.you, reason: 'resignation' };
    localGames.save(g);
    this.legal = null;
    this.render();
  }

  download() {
    const g = this.g;
    const blob = new Blob([localRecord(g)], { type: 'text/plain' });
    const a = h('a', { href: URL.createObjectURL(blob), download: `gravulien-${g.game}-${g.id}.txt` });
    document.body.append(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  renderBanner() {
    const g = this.g, lines = [];
    if (this.message) lines.push({ kind: 'step', cls: 'hint', text: this.message });
    if (g.status !== 'live') lines.push({ kind: 'result', cls: 'result', text: `Game over: ${resultWords(g)}.` });
    else if (this.thinking && this.state && this.state.toMove !== g.you) lines.push({ kind: 'wait', text: 'The computer is thinking…' });
    else if (this.legal) lines.push({ kind: 'turn', cls: 'your-move', text: 'Your move: click a piece, then its destination.' });
    this.banner.show(lines);
  }

  render() {
    const g = this.g, st = this.state;
    if (!st) return;
    const last = g.moves.length ? g.moves[g.moves.length - 1].move : null;
    this.board.update(g.game === 'chu' ? { position: st.position, legal: this.legal, last } : { position: st.position, legal: this.legal });
    showArrow(this.board, this.hint);
    this.boardWrap.classList.toggle('my-turn', !!(this.legal && this.legal.length));
    this.moveList.render({ game: g.game, moves: g.moves }, g.moves.length, false);
    const side = SIDES[g.game];
    put(this.players, h('ul', {}, [0, 1].map((i) => h('li', { class: 'player' + (g.status === 'live' && st.toMove === i ? ' to-move' : '') },
      h('span', { class: 'side-name' }, side[i]), h('span', { class: 'who' }, i === g.you ? 'you' : `computer (level ${g.level})`)))));
    const b = (label, fn, cls = '') => h('button', { type: 'button', class: cls, onclick: fn }, label);
    put(this.actions, h('div', { class: 'row' },
      g.status === 'live' ? b('Hint', () => this.askHint(), 'hint-button') : null,
      g.status === 'live' ? b('Resign', () => this.resign(), 'quiet resign') : null,
      b('Download the record', () => this.download(), 'download-local')),
    h('p', { class: 'small muted' }, 'Kept in this browser only (not on the server).'));
    this.renderBanner();
  }
}
