// The move list: numbered, the move shown highlighted, a click replays the position after
// it. Every text in it was written by the server's rules cores (the move's "move" and its
// "texts", docs/api.md): Chu Shogi in TSA notation (P-8f, Lnx3hx2i), in Japanese
// (☗７八歩兵) or in USI (7i7h), picked in a selector this browser remembers; Exaç in its
// own notation, with a legend of its signs; Grav in words ("P2 places d4").
import { h, put, prefs } from './util.js';
import { moveLabel } from './chu.js';
import { stoneIcon } from './grav.js';

export const CHU_NOTATIONS = [
  { key: 'tsa', label: 'TSA (P-7h)', title: 'TSA notation, as the English literature writes Chu Shogi' },
  { key: 'kif', label: '日本語 (☗７八歩兵)', title: 'Japanese, in the words of a KIF record' },
  { key: 'usi', label: 'USI (7i7h)', title: 'USI squares, as engines and lishogi write moves' },
];
const CHU_PREF = 'chuNotation';

const EXAC_LEGEND = [
  ['H P T L A', 'the role that moves (none: the Polus)'],
  ['*', 'only a boosted piece makes this move'],
  ['x', 'captures'],
  ['+', 'one step from victory: the mover then threatens a winning move'],
  ['#', 'wins the game'],
];

// The notation the Chu move list shows: the one remembered, else TSA.
export function chuNotation() {
  const k = prefs.get(CHU_PREF, 'tsa');
  return CHU_NOTATIONS.some((n) => n.key === k) ? k : 'tsa';
}

// The text of move m (a move of the view's "moves") in notation key (Chu), with the other
// forms for its tooltip.
function chuText(m, key) {
  const t = m.texts || {};
  const usi = moveLabel(m.move).text;
  const text = key === 'usi' ? usi : t[key] || usi;
  const all = [t.tsa, t.kif, usi].filter((x) => x && x !== text);
  return { text, also: all.join(' · ') };
}

export class MoveList {
  // goto(n): show the position after move n.
  constructor(goto) {
    this.goto = goto;
    this.ol = h('ol', { class: 'moves', 'aria-label': 'moves' });
    this.tools = h('div', { class: 'moves-tools' });
    this.legend = h('div', { class: 'moves-legend small', hidden: true });   // Exaç's signs
    this.el = h('div', { class: 'movelist' },
      h('div', { class: 'moves-head' }, h('h3', {}, 'Moves'), this.tools), this.ol, this.legend);
    this.game = null;
    this.shown = 0;
    this.last = null;
    this.buttons = [];
  }

  // Builds the parts that depend on the game only (the selector, the legend), once.
  setGame(game) {
    if (this.game === game) return;
    this.game = game;
    this.shown = 0;
    if (game === 'chu') {
      const sel = h('select', { class: 'notation', 'aria-label': 'notation of the moves',
        title: 'how the moves are written', onchange: (e) => {
          prefs.set(CHU_PREF, e.target.value);
          this.shown = 0;               // every move is written again
          if (this.view) this.render(this.view, this.cur, this.replaying);
        } }, CHU_NOTATIONS.map((n) => h('option', { value: n.key, title: n.title }, n.label)));
      sel.value = chuNotation();
      put(this.tools, sel);
    } else put(this.tools);
    if (game === 'exac') {
      this.legend.hidden = false;
      put(this.legend, h('dl', { 'aria-label': "the signs of Exaç's notation" },
        EXAC_LEGEND.map(([sign, what]) => [h('dt', { class: 'mono' }, sign), h('dd', {}, what)])));
    } else {
      this.legend.hidden = true;
      put(this.legend);
    }
  }

  // v: the game's view; cur: the move number shown (v.n when live); replaying: a position
  // other than the live one is shown. The list grows by the new moves only (a long Grav
  // game has thousands); it is built again when what it shows is not the start of v.moves.
  render(v, cur, replaying) {
    this.setGame(v.game);
    this.view = v;
    this.cur = cur;
    this.replaying = replaying;
    const ol = this.ol;
    const notation = v.game === 'chu' ? chuNotation() : null;
    // When the second seat moved first (Chu handicap: Gote; a set-up position), the list
    // starts with "1. …" and the first move sits in the second seat's column.
    const lead = v.game !== 'grav' && v.moves.length && v.moves[0].seat !== 0 ? 1 : 0;
    const item = (m) => {
      let label = m.move, title = '';
      if (v.game === 'grav') {
        const t = m.move.split(' ');
        label = (m.texts && m.texts.words) || `P${t[0]} ${t.slice(1).join(' ')}`;
      } else if (v.game === 'chu') {
        const c = chuText(m, notation), d = moveLabel(m.move);
        label = c.text;
        title = [d.title, c.also].filter(Boolean).join('; ');
      }
      // Pairs: the first seat's move on the left, numbered, the second seat's on the right.
      const p = m.n + lead;
      const prefix = v.game === 'grav' ? `${m.n}.` : (p % 2 ? `${(p + 1) / 2}.` : '');
      const b = h('button', { type: 'button', class: 'mv', 'data-move': m.move, 'data-n': m.n,
        onclick: () => this.goto(m.n), title: `${title ? `${title}; ` : ''}position after move ${m.n}` }, label);
      if (notation === 'kif') b.lang = 'ja';
      const icon = v.game === 'grav' ? stoneIcon(m.seat, 12) : null;
      this.buttons.push(b);
      return h('li', { class: 'seat' + m.seat }, h('span', { class: 'mvnum' }, prefix), icon, b);
    };
    const k = this.shown, last = this.last;
    const prefixOk = k > 0 && k <= v.moves.length && v.moves[k - 1].n === last.n &&
      v.moves[k - 1].move === last.move;
    const atBottom = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 30;
    if (!prefixOk) {
      this.buttons = [];
      put(ol, ...(lead ? [h('li', { class: 'seat0 skipped' }, h('span', { class: 'mvnum' }, '1.'),
        h('span', { class: 'mv-skipped', title: 'the other side moved first' }, '…'))] : []),
        ...v.moves.map(item));
      if (!v.moves.length) ol.append(h('li', { class: 'muted' }, 'No moves yet.'));
    } else if (v.moves.length > k) {
      ol.append(...v.moves.slice(k).map(item));
    }
    this.shown = v.moves.length;
    this.last = v.moves.length ? v.moves[v.moves.length - 1] : null;
    ol.classList.toggle('pairs', v.game !== 'grav');
    ol.classList.toggle('words', v.game === 'grav');
    const prev = ol.querySelector('.current');
    const c = cur > 0 ? this.buttons[cur - 1] : null;
    if (prev !== c) {
      if (prev) prev.classList.remove('current');
      if (c) c.classList.add('current');
    }
    if (replaying && c) c.scrollIntoView({ block: 'nearest' });
    else if (atBottom || !replaying) ol.scrollTop = ol.scrollHeight;
  }
}
