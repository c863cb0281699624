// The Chu Shogi board: 12x12 SVG, pieces as wedges pointing toward the opponent with
// kanji (or TSA abbreviations), promoted pieces in red. Squares in USI: files 12..1 from
// Sente's left, ranks a..l from the top. Heisei Chu adds each side's reserve beside the
// board (the near player's on the right, the far player's on the left); a reserve piece
// is dropped by clicking it, then a marked square, or by dragging it there. Every legal
// move comes from the server (you.legal_moves, drops as L*5e or L*5e+); a click or a drag
// only picks among them (drag.js: a piece dragged to a square is that square clicked).
import { s, gridNav, put } from './util.js';
import { attachPopover, hidePopover, chuCard, pieceData } from './piecehelp.js';
import { attachDrag, slide, cellCorner } from './drag.js';

const LETTERS = '?lfcsgkeabtxomvrhdqnpi';
const KANJI = [null, '香', '豹', '銅', '銀', '金', '王', '象', '反', '角', '虎', '鳳', '麒', '横', '竪',
  '飛', '馬', '龍', '奔', '獅', '歩', '仲'];
// Promoted pieces show the piece they become (as the terminal board does).
const KANJI_P = { 1: '駒', 2: '角', 3: '横', 4: '竪', 5: '飛', 7: '太', 8: '鯨', 9: '馬', 10: '鹿',
  11: '奔', 12: '獅', 13: '猪', 14: '牛', 15: '龍', 16: '鷹', 17: '鷲', 20: 'と', 21: '象' };
const ABBR = ['?', 'L', 'FL', 'C', 'S', 'G', 'K', 'DE', 'RC', 'B', 'BT', 'Ph', 'Ky', 'SM', 'VM', 'R',
  'DH', 'DK', 'FK', 'Ln', 'P', 'GB'];
const NAMES = [null, 'Lance', 'Ferocious Leopard', 'Copper General', 'Silver General',
  'Gold General', 'King', 'Drunk Elephant', 'Reverse Chariot', 'Bishop', 'Blind Tiger',
  'Phoenix', 'Kirin', 'Side Mover', 'Vertical Mover', 'Rook', 'Dragon Horse', 'Dragon King',
  'Free King', 'Lion', 'Pawn', 'Go-Between'];
const NAMES_P = { 1: 'White Horse', 2: 'Bishop', 3: 'Side Mover', 4: 'Vertical Mover', 5: 'Rook',
  7: 'Prince', 8: 'Whale', 9: 'Dragon Horse', 10: 'Flying Stag', 11: 'Free King', 12: 'Lion',
  13: 'Free Boar', 14: 'Flying Ox', 15: 'Dragon King', 16: 'Horned Falcon', 17: 'Soaring Eagle',
  20: 'Gold General (Tokin)', 21: 'Drunk Elephant' };

const N = 12, CELL = 100, M = 44;   // margin for coordinates
const RANKS = 'abcdefghijkl';
// Heisei Chu's reserve: the USI letters in SFEN order, and the board letter of each.
export const RESERVE = 'LCSMVAOX';
const RESERVE_BOARD = { L: 'l', C: 'c', S: 's', M: 'm', V: 'v', A: 'a', O: 'o', X: 'x' };
const STW = 160;                    // width of a reserve column
const SQ_ONE = /^\d{1,2}[a-l]$/;

export function chuSquare(row, col) { return `${N - col}${RANKS[row]}`; }

// The one character a board shows for a piece's SFEN code ("r", "+r"), as a board draws it.
export function chuGlyph(code) {
  const promo = code[0] === '+', t = LETTERS.indexOf(code[promo ? 1 : 0]);
  return (promo ? KANJI_P[t] : KANJI[t]) || '?';
}

// The SFEN code of a piece {t, promo} ("r", "+r").
const codeOf = (p) => (p.promo ? '+' : '') + LETTERS[p.t];

export function pieceName(p) {
  if (!p) return '';
  return (p.promo ? `promoted ${NAMES[p.t]} (${NAMES_P[p.t]})` : NAMES[p.t]);
}

// SFEN board -> 12x12 array of {t, promo, side} | null (row 0 = rank a, col 0 = file 12).
export function parseSfen(sfen) {
  const rows = [];
  const board = (sfen || '').trim().split(/\s+/)[0].split('/');
  for (let r = 0; r < N; r++) {
    const row = [];
    const txt = board[r] || '';
    for (let i = 0; i < txt.length; i++) {
      let ch = txt[i];
      if (/[0-9]/.test(ch)) {
        let n = Number(ch);
        if (/[0-9]/.test(txt[i + 1] || '')) n = n * 10 + Number(txt[++i]);
        for (let k = 0; k < n; k++) row.push(null);
        continue;
      }
      let promo = false;
      if (ch === '+') { promo = true; ch = txt[++i]; }
      const t = LETTERS.indexOf(ch.toLowerCase());
      row.push({ t: t > 0 ? t : 0, promo, side: ch === ch.toLowerCase() ? 1 : 0 });
    }
    while (row.length < N) row.push(null);
    rows.push(row.slice(0, N));
  }
  return rows;
}

export function sideToMove(sfen) {
  const f = (sfen || '').trim().split(/\s+/);
  return f[1] === 'w' ? 1 : 0;
}

// A reserve field ("2L2C2S2M2V2AOX2l2c2s2m2v2aox", '-' when empty) -> [{L: 2, ...}, {...}]
// (index 0 Sente, upper case; 1 Gote), or null when the field is not a reserve.
export function parseReserve(field) {
  const out = [{}, {}];
  if (field === '-') return out;
  const re = /(\d*)([A-Za-z])/gy;
  let m, at = 0;
  while (at < field.length && (m = re.exec(field)) !== null) {
    const up = m[2].toUpperCase();
    if (!RESERVE.includes(up)) return null;
    const side = m[2] === up ? 0 : 1;
    out[side][up] = (out[side][up] || 0) + (m[1] ? Number(m[1]) : 1);
    at = re.lastIndex;
  }
  return at === field.length ? out : null;
}

// The fields after the board. Standard Chu: "<board> <side> <counter-strike square|-> <n>";
// Heisei Chu: "<board> <side> <reserve|-> [<counter-strike square>] <n>". heisei: whether
// the game is Heisei Chu (its options say); undefined: told by the fields (a fifth field
// means Heisei; "2l" alone reads as a square, so say it when it is known).
export function parseChuSfen(sfen, heisei) {
  const f = (sfen || '').trim().split(/\s+/);
  const out = { board: parseSfen(sfen), side: f[1] === 'w' ? 1 : 0, reserve: null, cs: null, heisei: !!heisei };
  if (heisei === undefined) out.heisei = f.length >= 5 || (f[2] !== undefined && f[2] !== '-' && !SQ_ONE.test(f[2]));
  if (out.heisei) {
    out.reserve = parseReserve(f[2] || '-') || [{}, {}];
    if (f.length >= 5 && SQ_ONE.test(f[3])) out.cs = f[3];
  } else if (f[2] && SQ_ONE.test(f[2])) out.cs = f[2];
  return out;
}

const SQ_RE = /\d{1,2}[a-l]/g;
const DROP_RE = /^([A-Z])\*(\d{1,2}[a-l])(\+?)$/;
export function moveSquares(move) { return (move || '').match(SQ_RE) || []; }
// Are squares a and b ("7i", "11h") a king's step apart?
function kingStep(a, b) {
  const fa = parseInt(a, 10), fb = parseInt(b, 10);
  const ra = a.charCodeAt(a.length - 1), rb = b.charCodeAt(b.length - 1);
  return a !== b && Math.abs(fa - fb) <= 1 && Math.abs(ra - rb) <= 1;
}
// A drop in USI ("L*5e", "S*5c+") -> {letter, to, promo}, or null.
export function parseDrop(move) {
  const m = DROP_RE.exec(move || '');
  return m ? { letter: m[1], to: m[2], promo: m[3] === '+' } : null;
}

// A move as the move list shows it: board moves in USI; drops with the piece's TSA
// abbreviation ("RC*5c+"); title: the same in words.
export function moveLabel(move) {
  const d = parseDrop(move);
  if (!d) return { text: move, title: '' };
  const t = LETTERS.indexOf(RESERVE_BOARD[d.letter] || '?');
  return { text: `${ABBR[t] || d.letter}*${d.to}${d.promo ? '+' : ''}`,
    title: `${NAMES[t] || d.letter} dropped on ${d.to}${d.promo ? `, promoted (${NAMES_P[t]})` : ''}` };
}

export class ChuBoard {
  constructor(container, hooks) {
    this.container = container;
    // submit(move), choose(prompt, options) -> Promise, answer(value) (answers the choice
    // asked), prompt(text) (the next step of a move under way, '' for none)
    this.hooks = hooks;
    this.flipped = false;
    this.style = 'kanji';
    this.data = null;
    this.sel = null;             // selected origin square
    this.step = null;            // first step of a two-step move
    this.drop = null;            // selected reserve piece (its USI letter)
    this.heisei = false;         // reserve columns beside the board
    this.build();
  }

  setFlipped(f) { this.flipped = f; this.build(); if (this.data) this.update(this.data); }
  setStyle(st) { this.style = st; if (this.data) this.update(this.data); }

  // display (r, c) <-> board (row, col)
  toBoard(r, c) { return this.flipped ? [N - 1 - r, N - 1 - c] : [r, c]; }

  build() {
    const size = N * CELL + 2 * M;
    const side = this.heisei ? STW : 0;
    const svg = s('svg', { viewBox: `${-M - side} ${-M} ${size + 2 * side} ${size}`,
      class: 'board chu' + (this.heisei ? ' heisei' : ''), role: 'grid', 'aria-label': 'Chu Shogi board' });
    svg.append(s('rect', { x: -M, y: -M, width: size, height: size, class: 'frame' }));
    svg.append(s('rect', { x: 0, y: 0, width: N * CELL, height: N * CELL, class: 'wood' }));
    // coordinates: files on top and bottom, ranks left and right
    for (let i = 0; i < N; i++) {
      const [row, col] = this.toBoard(i, i);
      const file = String(N - col), rank = RANKS[row];
      svg.append(s('text', { x: i * CELL + CELL / 2, y: -12, class: 'coord' }, file));
      svg.append(s('text', { x: i * CELL + CELL / 2, y: N * CELL + 34, class: 'coord' }, file));
      svg.append(s('text', { x: -22, y: i * CELL + CELL / 2 + 10, class: 'coord' }, rank));
      svg.append(s('text', { x: N * CELL + 22, y: i * CELL + CELL / 2 + 10, class: 'coord' }, rank));
    }
    this.cells = new Map();
    for (let r = 0; r < N; r++) {
      for (let c = 0; c < N; c++) {
        const [row, col] = this.toBoard(r, c);
        const name = chuSquare(row, col);
        const g = s('g', { class: 'sq', 'data-rc': `${r},${c}`, 'data-sq': name,
          tabindex: '-1', role: 'gridcell', transform: `translate(${c * CELL},${r * CELL})` });
        g.append(s('rect', { width: CELL, height: CELL, class: 'bg' }));
        g.append(s('g', { class: 'content' }));
        svg.append(g);
        this.cells.set(name, g);
      }
    }
    // grid lines and the promotion zones' star points
    const lines = s('g', { class: 'lines' });
    for (let i = 0; i <= N; i++) {
      lines.append(s('line', { x1: 0, y1: i * CELL, x2: N * CELL, y2: i * CELL }));
      lines.append(s('line', { x1: i * CELL, y1: 0, x2: i * CELL, y2: N * CELL }));
    }
    for (const [x, y] of [[4, 4], [8, 4], [4, 8], [8, 8]])
      lines.append(s('circle', { cx: x * CELL, cy: y * CELL, r: 7, class: 'star' }));
    svg.insertBefore(lines, svg.querySelector('.sq'));
    svg.prepend(checkGlow());
    gridNav(svg, N, N, (el) => this.click(el.dataset.sq));
    attachDrag(svg, { grab: (el) => this.grab(el), release: (el) => this.release(el), origin: (el) => this.dragOrigin(el) });
    hidePopover();
    attachPopover(svg, (el) => this.pieceHelp(el), '[data-sq], .stand-piece');
    this.stands = this.heisei ? [this.buildStand(svg, 0), this.buildStand(svg, 1)] : null;
    this.svg = svg;
    this.container.classList.toggle('heisei', this.heisei);
    put(this.container, svg);
  }

  // A side's reserve column: the near player's on the right, filled from the bottom; the
  // far player's on the left, from the top. One slot per kind held, its count beside it.
  buildStand(svg, side) {
    const near = (side === 1) === this.flipped;
    const x = near ? N * CELL + M + 6 : -M - STW;
    const g = s('g', { class: `stand side${side}${near ? ' near' : ' far'}`, role: 'group',
      'aria-label': `${side ? 'Gote' : 'Sente'}'s reserve` });
    g.append(s('rect', { x, y: -M, width: STW - 6, height: N * CELL + 2 * M, rx: 10, class: 'stand-bg' }));
    g.append(s('text', { x: x + (STW - 6) / 2, y: near ? N * CELL + 30 : -8, class: 'stand-title' },
      side ? '☖ reserve' : '☗ reserve'));
    const slots = s('g', { class: 'slots' });
    g.append(slots);
    svg.append(g);
    return { side, near, x, slots, key: null };
  }

  // data: {position, legal: [usi] | null, last: move text | null, checks: [square] (a
  // royal in check, the view's "checks"), animate: the last move was just made (slide it)}
  // data.heisei: the game is Heisei Chu (its variant option)
  update(data) {
    const prevLegal = this.data && this.data.legal;
    this.data = data;
    this.pos = parseChuSfen(data.position, data.heisei);
    this.board = this.pos.board;
    if (this.pos.heisei !== this.heisei) { this.heisei = this.pos.heisei; this.build(); }
    if (!data.legal || (prevLegal && prevLegal.join() !== data.legal.join())) {
      this.sel = null;
      this.step = null;
      this.drop = null;
    }
    this.legal = [];
    this.drops = [];
    for (const m of data.legal || []) {
      const d = parseDrop(m);
      if (d) this.drops.push({ m, letter: d.letter, to: d.to, promo: d.promo });
      else this.legal.push({ m, sq: moveSquares(m), promo: m.endsWith('+') });
    }
    this.draw();
    if (data.animate && data.last && data.last !== this.dragged && !parseDrop(data.last)) {
      const sqs = moveSquares(data.last), from = this.cells.get(sqs[0]), to = this.cells.get(sqs[sqs.length - 1]);
      if (from && to && from !== to) slide(this.svg, to, cellCorner(from), cellCorner(to));
    }
    data.animate = false;       // drawn again (flip, labels): no second slide
    if (data.last !== (this.shownLast || null)) this.dragged = null;
    this.shownLast = data.last || null;
  }

  // The help shown over a square's piece or a reserve piece (piecehelp.js), or null.
  pieceHelp(el) {
    if (!this.board) return null;
    const p = el.dataset.sq ? this.pieceAt(el.dataset.sq)
      : { t: LETTERS.indexOf(RESERVE_BOARD[el.dataset.piece]), promo: false, side: Number(el.dataset.side) };
    return p && p.t > 0 ? chuCard(codeOf(p), (p.side === 1) !== this.flipped) : null;
  }

  pieceAt(name) {
    const m = /^(\d{1,2})([a-l])$/.exec(name);
    if (!m) return null;
    return this.board[RANKS.indexOf(m[2])][N - Number(m[1])];
  }

  draw() {
    const last = new Set(moveSquares(this.data.last));
    const checks = new Set(this.data.checks || []);
    const marks = this.marks();
    const cs = this.pos.cs;
    for (const [name, g] of this.cells) {
      const p = this.pieceAt(name);
      const mk0 = marks.get(name);
      const key = [p ? `${p.t}${p.promo}${p.side}` : '', !!mk0, this.style, this.flipped].join('|');
      const content = g.querySelector('.content');
      const same = g._key === key;
      g._key = key;
      if (!same) put(content);
      const cls = ['sq'];
      if (last.has(name)) cls.push('last');
      if (name === this.sel) cls.push('sel');
      if (name === this.step) cls.push('step');
      if (name === cs) cls.push('cs');
      if (checks.has(name) && p) cls.push('check');
      if (p && !same) content.append(this.pieceSvg(p));
      const mk = marks.get(name);
      if (mk) cls.push('target');
      if (mk && !same) {
        content.append(p ? s('rect', { x: 6, y: 6, width: CELL - 12, height: CELL - 12, rx: 10,
          class: 'cap-mark' }) : s('circle', { cx: 50, cy: 50, r: 14, class: 'dot' }));
      }
      g.setAttribute('class', cls.join(' '));
      let label = name + (p ? `, ${p.side ? 'Gote' : 'Sente'} ${pieceName(p)}` : ', empty');
      if (last.has(name)) label += ', the last move';
      if (checks.has(name) && p) label += ', in check';
      if (name === cs) label += ', the counter-strike square';
      if (mk) label += ', a legal destination';
      g.setAttribute('aria-label', label);
      // a piece's name and moves are in its popover (piecehelp.js) when the server gave them
      const title = p ? `${name}: ${p.side ? 'Gote ☖' : 'Sente ☗'} ${pieceName(p)}` : name;
      if (!same && !(p && pieceData('chu'))) content.append(s('title', {}, title));
    }
    if (this.stands) for (const st of this.stands) this.drawStand(st);
  }

  drawStand(st) {
    const held = (this.pos.reserve || [{}, {}])[st.side];
    const kinds = RESERVE.split('').filter((l) => held[l] > 0);
    const canDrop = new Set(this.drops.map((d) => d.letter));
    const mine = this.pos.side === st.side && canDrop.size > 0;
    const key = [kinds.map((l) => l + held[l]).join(), mine ? [...canDrop].join('') : '',
      this.drop && mine ? this.drop : '', this.style].join('|');
    if (st.key === key) return;
    st.key = key;
    put(st.slots);
    kinds.forEach((l, k) => {
      const y = st.near ? (N - 1 - k) * CELL : k * CELL;
      const t = LETTERS.indexOf(RESERVE_BOARD[l]);
      const p = { t, promo: false, side: st.side };
      const n = held[l];
      const active = mine && canDrop.has(l);
      const name = `${st.side ? 'Gote' : 'Sente'}'s ${NAMES[t]}`;
      const g = s('g', { class: 'stand-piece' + (active ? ' can-drop' : '') + (active && this.drop === l ? ' sel' : ''),
        transform: `translate(${st.x + 2},${y})`, 'data-side': st.side, 'data-piece': l, 'data-count': n,
        tabindex: active ? '0' : '-1', role: 'button',
        'aria-label': `${name} in reserve, ${n}${active ? ': click to drop it' : ''}` });
      g.append(s('rect', { width: CELL, height: CELL, rx: 8, class: 'bg' }));
      g.append(this.pieceSvg(p));
      g.append(s('text', { x: CELL + 25, y: CELL / 2 + 12, class: 'count' }, `×${n}`));
      if (!pieceData('chu')) g.append(s('title', {}, `${name}: ${n} in reserve`));
      const act = (e) => { e.preventDefault(); e.stopPropagation(); this.clickStand(st.side, l); };
      g.addEventListener('click', act);
      g.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') act(e); });
      st.slots.append(g);
    });
  }

  // A reserve piece clicked: it is picked (its drops marked) or put back.
  clickStand(side, letter) {
    if (!this.data || !this.data.legal || this.pos.side !== side) return;
    if (this.drop === letter || !this.drops.some((d) => d.letter === letter)) {
      this.drop = null;
      this.info('');
    } else {
      this.drop = letter;
      this.sel = null;
      this.step = null;
      this.info(`Drop: click a marked square for the ${NAMES[LETTERS.indexOf(RESERVE_BOARD[letter])]}, or the piece again to put it back.`);
    }
    this.hooks.selection && this.hooks.selection(null);
    const focused = document.activeElement && document.activeElement.closest &&
      document.activeElement.closest('.stand-piece');
    this.draw();
    // the reserve is drawn again: the keyboard stays on the piece
    if (focused) {
      const again = this.svg.querySelector(`.stand-piece[data-side="${side}"][data-piece="${letter}"]`);
      if (again) again.focus();
    }
  }

  pieceSvg(p) {
    const down = (p.side === 1) !== this.flipped;
    const g = s('g', { class: `piece side${p.side}${p.promo ? ' promo' : ''}`,
      transform: down ? 'rotate(180 50 50)' : '' });
    g.append(s('polygon', { points: '50,7 78,19 88,93 12,93 22,19', class: 'wedge' }));
    if (this.style === 'abbrev') {
      const txt = (p.promo ? '+' : '') + ABBR[p.t];
      // abbreviations stay upright to be readable; the wedge shows the side
      g.append(s('text', { x: 50, y: 66, class: `abbr${txt.length > 2 ? ' long' : ''}`,
        transform: down ? 'rotate(180 50 55)' : '' }, txt));
    } else {
      const k = p.promo ? KANJI_P[p.t] : KANJI[p.t];
      g.append(s('text', { x: 50, y: 71, class: 'kanji' }, k || '?'));
    }
    return g;
  }

  // squares to highlight: first steps from the selection, or second steps
  marks() {
    const out = new Map();
    if (this.drop) {
      for (const d of this.drops) if (d.letter === this.drop) out.set(d.to, true);
      return out;
    }
    if (!this.sel) return out;
    // Through an empty first square, a second step ends where a one-move jump of the same
    // piece does (the rules core lists it as that jump): those squares are marked too, and
    // a click on one plays the jump (click()).
    const through = this.step && !this.pieceAt(this.step);
    for (const mv of this.legal) {
      if (mv.sq[0] !== this.sel) continue;
      if (!this.step) out.set(mv.sq[1], true);
      else if (mv.sq[1] === this.step && mv.sq.length === 3) out.set(mv.sq[2], true);
      else if (mv.sq[1] === this.step && mv.sq.length === 2) out.set(this.step, true);
      else if (through && mv.sq.length === 2 && kingStep(mv.sq[1], this.step)) out.set(mv.sq[1], true);
    }
    return out;
  }

  movesFrom(sq) { return this.legal.filter((mv) => mv.sq[0] === sq); }

  async choosePromotion(cands, drop = false) {
    const plain = cands.find((c) => !c.promo), promo = cands.find((c) => c.promo);
    if (plain && promo) {
      const to = drop ? promo.to : promo.sq[promo.sq.length - 1];
      const p = drop ? { t: LETTERS.indexOf(RESERVE_BOARD[promo.letter]), promo: false, side: this.pos.side }
        : this.pieceAt(promo.sq[0]);
      const name = p ? NAMES[p.t] : 'piece';
      if (p) this.showPromotion(to, p, promo.m, plain.m);
      const v = await this.hooks.choose(drop ? `Drop the ${name} on ${to} promoted? Click the piece you want on the board, or:`
        : `Promote the ${name} on ${to}? Click the piece you want on the board, or:`,
      [{ label: 'Promote', value: promo.m }, { label: 'Do not promote', value: plain.m }]);
      this.hidePromotion();
      return v;
    }
    return (promo || plain || {}).m || null;
  }

  // The promotion question on the board: the piece promoted on its destination, and as it
  // is on the square next to it; a click on either answers (hooks.answer), a click beside
  // them takes the move back.
  showPromotion(to, p, promoMove, plainMove) {
    this.hidePromotion();
    const cell = this.cells.get(to);
    if (!cell || !this.hooks.answer) return;
    const [r, c] = cell.dataset.rc.split(',').map(Number);
    const layer = s('g', { class: 'promo-choice' });
    const veil = s('rect', { x: -M, y: -M, width: N * CELL + 2 * M, height: N * CELL + 2 * M, class: 'promo-veil' });
    veil.addEventListener('click', (e) => { e.stopPropagation(); this.hooks.answer(null); });
    layer.append(veil);
    const option = (row, piece, move, label) => {
      const g = s('g', { class: 'promo-option' + (piece.promo ? ' promoted' : ''), transform: `translate(${c * CELL},${row * CELL})`,
        role: 'button', tabindex: '0', 'aria-label': label, 'data-move': move });
      g.append(s('rect', { x: 3, y: 3, width: CELL - 6, height: CELL - 6, rx: 14, class: 'promo-bg' }));
      g.append(this.pieceSvg(piece));
      g.append(s('title', {}, label));
      const act = (e) => { e.preventDefault(); e.stopPropagation(); this.hooks.answer(move); };
      g.addEventListener('click', act);
      g.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') act(e); });
      return g;
    };
    layer.append(option(r, { ...p, promo: true }, promoMove, `Promote: ${NAMES_P[p.t]}`),
      option(r < N - 1 ? r + 1 : r - 1, { ...p, promo: false }, plainMove, `Do not promote: stay a ${NAMES[p.t]}`));
    this.svg.append(layer);
    this.promoLayer = layer;
  }

  hidePromotion() {
    if (this.promoLayer) this.promoLayer.remove();
    this.promoLayer = null;
  }

  async play(cands, drop = false) {
    const dragged = this.viaDrag;
    const m = await this.choosePromotion(cands, drop);
    if (m && dragged) this.dragged = m;
    this.sel = null;
    this.step = null;
    this.drop = null;
    this.draw();
    if (m) this.hooks.submit(m);
  }

  info(text) { if (this.hooks.prompt) this.hooks.prompt(text); }

  // A pass with the selected piece (the server accepts any empty neighbour as the middle).
  passMove() {
    if (!this.sel) return null;
    return this.movesFrom(this.sel).find((mv) => mv.sq.length === 3 && mv.sq[2] === mv.sq[0] &&
      !this.pieceAt(mv.sq[1])) || null;
  }

  // Picks the piece on sq (it has legal moves): its destinations are marked.
  select(sq) {
    this.sel = sq;
    this.step = null;
    this.drop = null;
    this.info(this.passMove() ? 'Pick a destination (a Lion may also pass: its origin after a step back).' : '');
    this.hooks.selection && this.hooks.selection(this.passMove() ? this.passMove().m : null);
  }

  // Drag and drop (drag.js). A drag picks what it starts on as a click does and shows the
  // piece under the pointer; released over a marked square it is that square clicked (a
  // Lion's first step then waits for the second, by a click or another drag from the
  // piece or its first square). Released where nothing is marked, or outside the board,
  // the move is dropped; released over the square it came from, the piece stays picked.
  grab(el) {
    if (!this.data || !this.data.legal || !this.data.legal.length || this.promoLayer) return null;
    hidePopover();
    if (el.classList.contains('stand-piece')) {
      const side = Number(el.dataset.side), letter = el.dataset.piece;
      if (this.pos.side !== side || !this.drops.some((d) => d.letter === letter)) return null;
      this.sel = null;
      this.step = null;
      this.drop = letter;
      this.dragFrom = null;
      this.info('');
      this.hooks.selection && this.hooks.selection(null);
      this.draw();
      return this.pieceSvg({ t: LETTERS.indexOf(RESERVE_BOARD[letter]), promo: false, side });
    }
    const sq = el.dataset.sq;
    if (this.sel && this.step && (sq === this.sel || sq === this.step)) {
      this.dragFrom = sq;           // the second step of a two-step move
      return this.pieceSvg(this.pieceAt(this.sel));
    }
    if (!this.movesFrom(sq).length) return null;
    this.select(sq);
    this.dragFrom = sq;
    this.draw();
    return this.pieceSvg(this.pieceAt(sq));
  }

  // What fades while the piece is away: the reserve piece, or the piece on its square.
  dragOrigin(el) {
    if (el.classList.contains('stand-piece')) {
      // the reserve was drawn again when the piece was picked: its piece as it is now
      return this.svg.querySelector(`.stand-piece[data-side="${el.dataset.side}"][data-piece="${el.dataset.piece}"]`);
    }
    const cell = this.cells.get(this.sel || el.dataset.sq);
    return cell ? cell.querySelector('.content') : null;
  }

  release(el) {
    const sq = el && el.dataset.sq;
    const cancel = () => {
      this.sel = null;
      this.step = null;
      this.drop = null;
      this.info('');
      this.hooks.selection && this.hooks.selection(null);
      this.draw();
    };
    if (!sq || !this.data || !this.data.legal) { cancel(); return; }
    if (this.drop) {
      if (this.drops.some((d) => d.letter === this.drop && d.to === sq)) this.clickDragged(sq);
      else cancel();
      return;
    }
    if (!this.sel) return;
    if (sq === this.dragFrom) { this.draw(); return; }
    if (!this.marks().has(sq)) { cancel(); return; }
    this.clickDragged(sq);
  }

  // A square reached by a drag: a click there, and the move it plays does not slide.
  clickDragged(sq) {
    this.viaDrag = true;
    try { this.click(sq); } finally { this.viaDrag = false; }
  }

  click(sq) {
    if (!this.data || !this.data.legal || !this.data.legal.length) return;
    if (this.drop) {
      const cands = this.drops.filter((d) => d.letter === this.drop && d.to === sq);
      this.info('');
      if (cands.length) return this.play(cands, true);
      this.drop = null;
      if (!this.movesFrom(sq).length) { this.draw(); return; }
    }
    const from = this.sel;
    if (!from) {
      if (this.movesFrom(sq).length) this.select(sq);
      this.draw();
      return;
    }
    const mine = this.movesFrom(from);
    if (!this.step) {
      if (sq === from) { this.sel = null; this.draw(); this.info(''); this.hooks.selection && this.hooks.selection(null); return; }
      const direct = mine.filter((mv) => mv.sq.length === 2 && mv.sq[1] === sq);
      const doubles = mine.filter((mv) => mv.sq.length === 3 && mv.sq[1] === sq);
      if (doubles.length) {
        this.step = sq;
        const p = this.pieceAt(from);
        this.info(`${p && p.promo ? NAMES_P[p.t] : p ? NAMES[p.t] : 'Lion'}: second step from ${sq} — click a square next to it` +
          ` (${from} to go back)` + (direct.length ? `, or ${sq} again to stop there.` : '.'));
        this.draw();
        return;
      }
      if (direct.length) { this.hooks.selection && this.hooks.selection(null); this.play(direct); return; }
      if (this.movesFrom(sq).length) { this.sel = sq; this.draw(); return; }
      this.sel = null;
      this.draw();
      this.hooks.selection && this.hooks.selection(null);
      return;
    }
    // second step
    const st = this.step;
    const direct = mine.filter((mv) => mv.sq.length === 2 && mv.sq[1] === st);
    const third = mine.filter((mv) => mv.sq.length === 3 && mv.sq[1] === st && mv.sq[2] === sq);
    this.info('');
    this.hooks.selection && this.hooks.selection(null);
    if (sq === st && direct.length) return this.play(direct);
    if (third.length) return this.play(third);
    // a jump typed as two steps through an empty square is the jump itself
    const jump = mine.filter((mv) => mv.sq.length === 2 && mv.sq[1] === sq);
    if (jump.length && !this.pieceAt(st)) return this.play(jump);
    this.sel = null;
    this.step = null;
    this.draw();
  }
}

// The red glow under a piece in check (svg.board .sq.check .bg).
export function checkGlow() {
  const defs = s('defs', {});
  const g = s('radialGradient', { id: 'gv-check-glow' });
  g.append(s('stop', { offset: '0%', 'stop-color': '#ff0000', 'stop-opacity': '1' }),
    s('stop', { offset: '50%', 'stop-color': '#e70000', 'stop-opacity': '1' }),
    s('stop', { offset: '80%', 'stop-color': '#b00000', 'stop-opacity': '.55' }),
    s('stop', { offset: '100%', 'stop-color': '#9e0000', 'stop-opacity': '0' }));
  defs.append(g);
  return defs;
}
