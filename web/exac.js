// The Exaç board: 7x7 SVG with the Gravülien coordinates (files g n m s d v z, ranks 1..7
// from the top; First starts at the bottom). A piece's roles, boost and reach come from
// the server (view.exac.pieces); its legal moves from you.moves [{move, from, to,
// exposes_yachi}]: the server marks a move after which the opponent can capture one of
// the mover's Yachis, and with the warning on, the board asks before playing it. A piece
// moves by a click on it then on its destination, or by a drag (drag.js). The view's
// "checks" are the Yachis the other side can capture now (capturing a Yachi wins): the
// board marks them in red.
import { h, s, gridNav, put } from './util.js';
import { attachPopover, hidePopover, gridDiagram, pieceData } from './piecehelp.js';
import { attachDrag, slide, cellCorner } from './drag.js';
import { checkGlow } from './chu.js';

export const FILES = 'gnmsdvz';
const N = 7, CELL = 100, M = 40;
const ROLE_LETTER = { Yachi: 'A', Perits: 'P', Adrib: 'H', Potersin: 'T', Lapah: 'L' };
const ROLE_HELP = {
  Polus: 'one step forward (two when boosted and the first is empty)',
  Yachi: 'one orthogonal step; capturing a Yachi wins',
  Perits: 'slides away from its edge (boosted: one step along the edge)',
  Adrib: 'knight leaps toward each orthogonal friend',
  Potersin: 'one step any way (boosted: the 12 non-diagonal squares two away)',
  Lapah: 'rook slides and diagonal steps (boosted: a queen)',
};

export function exacSquare(row, col) { return `${FILES[col]}${row + 1}`; }

// position text -> 7x7 of 0 | 1 (First) | 2 (Second), row 0 = rank 1
export function parseExac(pos) {
  const ranks = (pos || '').trim().split(/\s+/)[0].split('/');
  const out = [];
  for (let r = 0; r < N; r++) {
    const row = [];
    for (const ch of ranks[r] || '') {
      if (/[0-9]/.test(ch)) for (let k = 0; k < Number(ch); k++) row.push(0);
      else row.push(ch === 'F' ? 1 : ch === 'S' ? 2 : 0);
    }
    while (row.length < N) row.push(0);
    out.push(row.slice(0, N));
  }
  return out;
}

export function describePiece(p) {
  if (!p) return '';
  const side = p.side ? 'Second' : 'First';
  const roles = p.roles.map((r) => `${r} (${ROLE_HELP[r] || ''})`).join('; ');
  return `${p.square}: ${side}'s piece${p.boosted ? ', boosted by a friendly Yachi' : ''}. ` +
    `Roles: ${roles}. Reaches: ${p.reach.length ? p.reach.join(' ') : 'nothing'}.`;
}

// 'm4' -> [row, col] (row 0 = rank 1, col 0 = file g).
export function exacRC(name) { return [Number(name.slice(1)) - 1, FILES.indexOf(name[0])]; }

// What the server says about a role (GET /api/meta's pieces.roles), or null.
export function exacRole(name) {
  const d = pieceData('exac');
  return (d && d.roles.find((r) => r.name === name)) || null;
}

// One role of a piece as a diagram of the whole board: the piece (ringed), its friends
// and enemies, friendly Yachis (dashed), the squares the role gives it (dots) and those
// only the boost gives (stars). o: {square, side, base, boost, friends, enemies, yachis:
// square names; flipped; cell; label}. The opponent's camp is shaded.
export function exacDiagram(o) {
  const f = (name) => { const [r, c] = exacRC(name); return o.flipped ? [N - 1 - r, N - 1 - c] : [r, c]; };
  const list = (a) => (a || []).map(f);
  const campRows = o.side === 0 ? [0, 1, 2] : [4, 5, 6];
  return gridDiagram({ n: N, cell: o.cell || 16, at: f(o.square), side: o.side, friends: list(o.friends),
    enemies: list(o.enemies), yachis: list(o.yachis), base: list(o.base), boost: list(o.boost), label: o.label,
    shade: (r) => campRows.includes(o.flipped ? N - 1 - r : r) });
}

// The popover's content for a piece of the view (view.exac.pieces: roles, boosted, by_role
// and boost_by_role, the squares each role gives it), on board (parseExac's), with the
// Yachis among pieces.
export function exacCard(p, board, pieces, flipped) {
  const friends = [], enemies = [], yachis = [];
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      const v = board[r][c], name = exacSquare(r, c);
      if (!v || name === p.square) continue;
      (v === p.side + 1 ? friends : enemies).push(name);
      const q = pieces.get(name);
      if (v === p.side + 1 && q && q.roles.includes('Yachi')) yachis.push(name);
    }
  }
  const side = p.side ? 'Second' : 'First';
  const figs = [], lines = [];
  for (const [role, base] of Object.entries(p.by_role)) {
    const br = { role, base, boost: (p.boost_by_role && p.boost_by_role[role]) || [] };
    const meta = exacRole(br.role);
    const letter = ROLE_LETTER[br.role];
    const name = `${br.role}${letter ? ` (${letter})` : ''}`;
    const label = `${br.role}: ${br.base.concat(br.boost).join(' ') || 'no square'}`;
    figs.push(h('figure', { class: 'role-fig', 'data-role': br.role },
      exacDiagram({ square: p.square, side: p.side, base: br.base, boost: br.boost, friends, enemies, yachis, flipped, label }),
      h('figcaption', {}, h('strong', {}, name))));
    const words = [meta ? meta.moves : ROLE_HELP[br.role]];
    if (p.boosted && meta && br.boost.length) words.push(`boosted, ${meta.boosted}`);
    lines.push(h('li', {}, h('strong', {}, br.role), `: ${words.join('; ')}.`));
  }
  return h('div', { class: 'pc-card exac-card' },
    h('div', { class: 'pc-head' }, h('strong', { class: 'pc-name' }, `${side}'s piece on ${p.square}`),
      p.boosted ? h('span', { class: 'pc-boost' }, '★ boosted by a friendly Yachi') : null),
    h('p', { class: 'small pc-sub' }, `Its roles here: ${p.roles.join(', ')}. Dots: where each role moves it` +
      (p.boosted ? '; stars: only because it is boosted.' : '.')),
    h('div', { class: 'pc-diagrams roles' }, figs),
    h('ul', { class: 'pc-lines' }, lines));
}

export class ExacBoard {
  constructor(container, hooks) {
    this.container = container;
    this.hooks = hooks;          // submit(move), info(text)
    this.flipped = false;
    this.showRoles = true;
    this.warnYachi = false;      // ask before a move that leaves a Yachi en prise
    this.warned = null;          // the move the last warning was about
    this.sel = null;
    this.focusSq = null;         // piece whose reach is shown (hover/tap)
    this.data = null;
    this.build();
  }

  setFlipped(f) { this.flipped = f; this.build(); if (this.data) this.update(this.data); }
  setShowRoles(v) { this.showRoles = v; if (this.data) this.draw(); }
  setWarnYachi(v) { if (this.warnYachi !== v) { this.warnYachi = v; this.warned = null; if (this.data) this.draw(); } }
  toBoard(r, c) { return this.flipped ? [N - 1 - r, N - 1 - c] : [r, c]; }

  build() {
    const size = N * CELL + 2 * M;
    const svg = s('svg', { viewBox: `${-M} ${-M} ${size} ${size}`, class: 'board exac',
      role: 'grid', 'aria-label': 'Exaç board' });
    svg.append(s('rect', { x: -M, y: -M, width: size, height: size, class: 'frame' }));
    for (let i = 0; i < N; i++) {
      const [row, col] = this.toBoard(i, i);
      svg.append(s('text', { x: i * CELL + CELL / 2, y: -12, class: 'coord' }, FILES[col]));
      svg.append(s('text', { x: i * CELL + CELL / 2, y: N * CELL + 30, class: 'coord' }, FILES[col]));
      svg.append(s('text', { x: -20, y: i * CELL + CELL / 2 + 9, class: 'coord' }, String(row + 1)));
      svg.append(s('text', { x: N * CELL + 20, y: i * CELL + CELL / 2 + 9, class: 'coord' }, String(row + 1)));
    }
    this.cells = new Map();
    for (let r = 0; r < N; r++) {
      for (let c = 0; c < N; c++) {
        const [row, col] = this.toBoard(r, c);
        const name = exacSquare(row, col);
        // camps: Second's = ranks 1-3, First's = ranks 5-7
        const camp = row <= 2 ? ' camp2' : row >= 4 ? ' camp1' : '';
        const g = s('g', { class: 'sq', 'data-rc': `${r},${c}`, 'data-sq': name, tabindex: '-1',
          role: 'gridcell', transform: `translate(${c * CELL},${r * CELL})` });
        g.append(s('rect', { width: CELL, height: CELL, class: `bg${camp}${(row + col) % 2 ? ' dark' : ''}` }));
        g.append(s('g', { class: 'content' }));
        g.addEventListener('mouseenter', () => this.hover(name));
        g.addEventListener('mouseleave', () => this.hover(null));
        g.addEventListener('focus', () => this.hover(name));
        svg.append(g);
        this.cells.set(name, g);
      }
    }
    svg.append(s('line', { x1: 0, y1: 3 * CELL, x2: N * CELL, y2: 3 * CELL, class: 'campline' }));
    svg.append(s('line', { x1: 0, y1: 4 * CELL, x2: N * CELL, y2: 4 * CELL, class: 'campline' }));
    svg.prepend(checkGlow());
    gridNav(svg, N, N, (el) => this.click(el.dataset.sq));
    attachDrag(svg, { grab: (el) => this.grab(el), release: (el) => this.release(el),
      origin: (el) => el.querySelector('.content') });
    hidePopover();
    attachPopover(svg, (el) => this.pieceHelp(el));
    this.svg = svg;
    put(this.container, svg);
  }

  // data: {position, exac: {pieces, last_move}, legal: [{move, from, to}] | null, checks:
  // [square], animate: the last move was just made (slide it)}
  update(data) {
    const prev = this.data && this.data.legal;
    this.data = data;
    this.board = parseExac(data.position);
    this.pieces = new Map(((data.exac && data.exac.pieces) || []).map((p) => [p.square, p]));
    if (!data.legal || (prev && JSON.stringify(prev) !== JSON.stringify(data.legal))) this.sel = null;
    this.legal = data.legal || [];
    this.draw();
    const lm = data.exac && data.exac.last_move;
    const key = lm ? `${lm.from}-${lm.to}` : null;
    if (data.animate && lm && key !== this.dragged) {
      const from = this.cells.get(lm.from), to = this.cells.get(lm.to);
      if (from && to) slide(this.svg, to, cellCorner(from), cellCorner(to));
    }
    data.animate = false;       // drawn again (flip, labels): no second slide
    if (key !== (this.shownLast || null)) this.dragged = null;
    this.shownLast = key;
  }

  // Drag and drop (drag.js): a drag picks the piece as a click does; released over one of
  // its destinations it is that square clicked (the Yachi warning included), over its own
  // square it stays picked, anywhere else the move is dropped.
  grab(el) {
    const sq = el.dataset.sq;
    if (!sq || !this.legal.some((m) => m.from === sq)) return null;
    hidePopover();
    this.sel = sq;
    this.focusSq = null;
    this.draw();
    const [row, col] = exacRC(sq);
    return this.stoneSvg(this.board[row][col], this.pieces.get(sq));
  }

  release(el) {
    const sq = el && el.dataset.sq;
    if (sq && sq === this.sel) return;
    if (sq && this.sel && this.legal.some((m) => m.from === this.sel && m.to === sq)) {
      this.viaDrag = true;
      try { this.click(sq); } finally { this.viaDrag = false; }
      return;
    }
    this.sel = null;
    this.draw();
  }

  // A piece as the board draws it: a disc (First light, Second dark), a dashed ring when
  // it is a Yachi, its role letters, a star when boosted.
  stoneSvg(v, p) {
    const pc = s('g', { class: `stone side${v - 1}${p && p.boosted ? ' boosted' : ''}` });
    pc.append(s('circle', { cx: 50, cy: 50, r: 38, class: 'disc' }));
    if (p && p.roles.includes('Yachi')) pc.append(s('circle', { cx: 50, cy: 50, r: 30, class: 'yachi' }));
    if (this.showRoles && p) {
      const letters = p.roles.map((r) => ROLE_LETTER[r]).filter(Boolean).join('');
      if (letters) pc.append(s('text', { x: 50, y: letters.length > 3 ? 57 : 60,
        class: `roles${letters.length > 3 ? ' small' : ''}` }, letters));
    }
    if (p && p.boosted) pc.append(s('text', { x: 82, y: 28, class: 'boost' }, '★'));
    return pc;
  }

  // The popover over a piece: each of its roles on its square as a diagram (piecehelp.js).
  pieceHelp(el) {
    const p = this.pieces && this.pieces.get(el.dataset.sq);
    return p && p.by_role ? exacCard(p, this.board, this.pieces, this.flipped) : null;
  }

  hover(sq) {
    this.focusSq = sq && this.pieces && this.pieces.get(sq) ? sq : null;
    if (this.hooks.info) this.hooks.info(this.focusSq ? describePiece(this.pieces.get(this.focusSq)) : '');
    this.draw();
  }

  draw() {
    if (!this.data) return;
    const lm = this.data.exac && this.data.exac.last_move;
    const mine = this.sel ? this.legal.filter((m) => m.from === this.sel) : [];
    const targets = new Set(mine.map((m) => m.to));
    const risky = new Set(this.warnYachi ? mine.filter((m) => m.exposes_yachi).map((m) => m.to) : []);
    const focus = this.focusSq && this.pieces.get(this.focusSq);
    const reach = new Set(focus && !this.sel ? focus.reach : []);
    const checks = new Set(this.data.checks || []);
    for (const [name, g] of this.cells) {
      const row = Number(name.slice(1)) - 1, col = FILES.indexOf(name[0]);
      const v = this.board[row][col];
      const p = this.pieces.get(name);
      const cls = ['sq'];
      if (lm && (lm.from === name || lm.to === name)) cls.push('last');
      if (name === this.sel) cls.push('sel');
      if (targets.has(name)) cls.push('target');
      if (risky.has(name)) cls.push('risky');
      if (reach.has(name)) cls.push('reach');
      if (checks.has(name) && v) cls.push('check');
      g.setAttribute('class', cls.join(' '));
      // rebuild a square only when it changed (a node replaced under the pointer loses its click)
      const key = [v, p ? JSON.stringify(p) : '', targets.has(name), reach.has(name), this.showRoles,
        cls.includes('last'), cls.includes('check')].join('|');
      if (g._key === key) continue;
      g._key = key;
      const content = g.querySelector('.content');
      put(content);
      if (v) content.append(this.stoneSvg(v, p));
      if (targets.has(name)) content.append(v ? s('rect', { x: 5, y: 5, width: 90, height: 90, rx: 12, class: 'cap-mark' })
        : s('circle', { cx: 50, cy: 50, r: 13, class: 'dot' }));
      else if (reach.has(name)) content.append(s('circle', { cx: 50, cy: 50, r: 8, class: 'reach-dot' }));
      let desc = p ? describePiece(p) : `${name}, empty`;
      if (lm && (lm.from === name || lm.to === name)) desc += ' Part of the last move.';
      if (checks.has(name) && v) desc += ' This Yachi can be captured now (capturing it wins).';
      // a piece's roles are in its popover when the server gave them by role
      if (!(p && p.by_role)) content.append(s('title', {}, desc));
      g.setAttribute('aria-label', targets.has(name)
        ? `${desc} A legal destination.${risky.has(name) ? ' Your Yachi can be taken after it.' : ''}` : desc);
    }
  }

  click(sq) {
    // a tap shows the piece's roles (touch has no hover)
    if (this.pieces && this.pieces.get(sq) && this.hooks.info) this.hooks.info(describePiece(this.pieces.get(sq)));
    if (!this.legal.length) { this.hover(sq); return; }
    if (this.sel) {
      const mv = this.legal.find((m) => m.from === this.sel && m.to === sq);
      if (mv && this.warnYachi && mv.exposes_yachi && this.warned !== mv.move) {
        // warn first; the same move again plays it
        this.warned = mv.move;
        if (this.hooks.info) this.hooks.info(`Careful: after ${mv.move} your Yachi can be taken. Click ${sq} again to play it anyway.`);
        return;
      }
      if (mv) {
        this.warned = null;
        this.sel = null;
        if (this.viaDrag) this.dragged = `${mv.from}-${mv.to}`;
        this.draw();
        this.hooks.submit(mv.move);
        return;
      }
      if (sq === this.sel) { this.sel = null; this.draw(); return; }
    }
    this.sel = this.legal.some((m) => m.from === sq) ? sq : null;
    this.draw();
  }
}
