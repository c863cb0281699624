// Piece help: move diagrams drawn from what the server says about each game's pieces
// (GET /api/meta's "pieces", read from the rules cores: the page knows no move itself),
// and the popover a board shows over a piece on hover, long press (touch) or keyboard
// focus. The Pieces page (pieces.js) draws the same diagrams.
import { h, s, put } from './util.js';

let byGame = {};

// Keeps each game's "pieces" from /api/meta (app.js calls it once the meta is read).
export function setPieceMeta(meta) {
  byGame = {};
  for (const g of (meta && meta.games) || []) if (g.pieces) byGame[g.name] = g.pieces;
}

export function pieceData(game) { return byGame[game] || null; }

// ---- Chu Shogi: a kind's moves on a 5x5 grid ------------------------------------------

// A Chu kind and the entry of one of its SFEN codes ("r", "+g"): {kind, code} or null.
export function chuKind(code) {
  const d = pieceData('chu');
  if (!d) return null;
  for (const kind of d.kinds) {
    const c = kind.codes.find((x) => x.sfen === code);
    if (c) return { kind, code: c };
  }
  return null;
}

export function chuKindBySfen(sfen) {
  const d = pieceData('chu');
  return d ? d.kinds.find((k) => k.sfen === sfen) || null : null;
}

const DIRS = { '0,1': 'forward', '1,1': 'diagonally forward right', '1,0': 'right', '1,-1': 'diagonally back right',
  '0,-1': 'back', '-1,-1': 'diagonally back left', '-1,0': 'left', '-1,1': 'diagonally forward left' };
const ORTHO = ['0,1', '1,0', '0,-1', '-1,0'], DIAG = ['1,1', '1,-1', '-1,-1', '-1,1'];
const unit = (m) => `${Math.sign(m.dx)},${Math.sign(m.dy)}`;

// Directions in words, grouped: "in all eight directions", "orthogonally", "diagonally forward".
function dirWords(keys) {
  const set = new Set(keys);
  const has = (list) => list.every((k) => set.has(k));
  const parts = [];
  if (set.size === 8) return 'in all eight directions';
  if (has(ORTHO)) { parts.push('orthogonally'); ORTHO.forEach((k) => set.delete(k)); }
  if (has(DIAG)) { parts.push('diagonally'); DIAG.forEach((k) => set.delete(k)); }
  if (set.has('1,1') && set.has('-1,1')) { parts.push('diagonally forward'); set.delete('1,1'); set.delete('-1,1'); }
  if (set.has('1,-1') && set.has('-1,-1')) { parts.push('diagonally back'); set.delete('1,-1'); set.delete('-1,-1'); }
  if (set.has('1,0') && set.has('-1,0')) { parts.push('sideways'); set.delete('1,0'); set.delete('-1,0'); }
  if (set.has('0,1') && set.has('0,-1')) { parts.push('forward and back'); set.delete('0,1'); set.delete('0,-1'); }
  for (const k of Object.keys(DIRS)) if (set.has(k)) parts.push(DIRS[k]);
  return parts.join(', ');
}

// The kind's moves in words, one line each (from its "moves" and "area").
export function chuMoveLines(kind) {
  const out = [];
  const of = (what) => kind.moves.filter((m) => m.move === what).map(unit);
  if (kind.area) {
    out.push('Lion: moves twice a turn as a King. It jumps to any square two away, or steps, ' +
      'then steps again: capturing on both steps, capturing next to itself without moving (igui), ' +
      'or stepping out and back to pass.');
    return out;
  }
  const steps = of('step'), slides = of('slide'), jumps = of('jump'), lion = of('lion');
  if (slides.length) out.push(`Slides ${dirWords(slides)}, any distance.`);
  if (steps.length) out.push(`Steps one square ${dirWords(steps)}.`);
  if (jumps.length) out.push(`Jumps two squares ${dirWords(jumps)}, over anything in between.`);
  if (lion.length) out.push(`Lion power ${dirWords(lion)}: one or two steps (the second a jump), ` +
    'or capture on the first and go on, or come back (igui).');
  if (kind.royal) out.push('Royal: losing the last royal piece loses the game.');
  return out;
}

// A kind's move diagram: a 5x5 grid, the piece (a wedge pointing forward) in the centre.
// Steps are dots, jumps rings, slides arrows to the grid's edge, lion power red diamonds
// (filled: the first step; hollow: the square two away).
export function chuDiagram(kind, cell = 24, label = '') {
  const R = 2, n = 2 * R + 1, W = n * cell;
  const X = (dx) => (R + dx) * cell + cell / 2, Y = (dy) => (R - dy) * cell + cell / 2;
  const svg = s('svg', { viewBox: `-1 -1 ${W + 2} ${W + 2}`, width: W + 2, height: W + 2, class: 'move-diagram',
    role: 'img', 'aria-label': label || `${kind.name}: ${chuMoveLines(kind).join(' ')}` });
  const rays = new Set();
  for (const m of kind.moves) {
    if (m.move !== 'slide') continue;
    for (let k = 1; k <= R; k++) rays.add(`${m.dx * k},${m.dy * k}`);
  }
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const dx = c - R, dy = R - r;
      let cls = 'cell';
      if (!dx && !dy) cls += ' centre';
      else if (rays.has(`${dx},${dy}`)) cls += ' ray';
      svg.append(s('rect', { x: c * cell, y: r * cell, width: cell, height: cell, class: cls }));
    }
  }
  const cx = X(0), cy = Y(0), u = cell / 24;
  svg.append(s('polygon', { class: 'me', points: [[0, -8], [6, -5], [8, 8], [-8, 8], [-6, -5]]
    .map(([x, y]) => `${cx + x * u},${cy + y * u}`).join(' ') }));
  const diamond = (dx, dy, cls) => {
    const x = X(dx), y = Y(dy), d = cell * 0.3;
    svg.append(s('polygon', { class: cls, points: `${x},${y - d} ${x + d},${y} ${x},${y + d} ${x - d},${y}` }));
  };
  for (const m of kind.moves) {
    if (m.move === 'step') svg.append(s('circle', { cx: X(m.dx), cy: Y(m.dy), r: cell * 0.2, class: 'step' }));
    else if (m.move === 'jump') svg.append(s('circle', { cx: X(m.dx), cy: Y(m.dy), r: cell * 0.24, class: 'jump' }));
    else if (m.move === 'slide') {
      // from the piece's square to the grid's edge, an arrowhead at the end
      const ux = Math.sign(m.dx), uy = -Math.sign(m.dy);
      const x1 = cx + ux * cell * 0.5, y1 = cy + uy * cell * 0.5;
      const x2 = cx + ux * (W / 2 - 2), y2 = cy + uy * (W / 2 - 2);
      const len = Math.hypot(x2 - x1, y2 - y1), ax = (x2 - x1) / len, ay = (y2 - y1) / len;
      const hl = cell * 0.38, hw = cell * 0.2;
      svg.append(s('line', { x1, y1, x2: x2 - ax * hl * 0.8, y2: y2 - ay * hl * 0.8, class: 'slide' }));
      svg.append(s('polygon', { class: 'arrow', points: `${x2},${y2} ${x2 - ax * hl - ay * hw},${y2 - ay * hl + ax * hw} ` +
        `${x2 - ax * hl + ay * hw},${y2 - ay * hl - ax * hw}` }));
    } else if (m.move === 'lion' && !kind.area) {
      diamond(m.dx, m.dy, 'lion1');
      diamond(2 * m.dx, 2 * m.dy, 'lion2');
    }
  }
  if (kind.area) {
    for (let dy = -kind.area; dy <= kind.area; dy++) {
      for (let dx = -kind.area; dx <= kind.area; dx++) {
        const d = Math.max(Math.abs(dx), Math.abs(dy));
        if (d) diamond(dx, dy, d === 1 ? 'lion1' : 'lion2');
      }
    }
  }
  return svg;
}

// The symbols of the diagrams, explained.
export function chuLegend() {
  const item = (kind, text) => h('span', { class: 'legend-item' },
    chuDiagram(kind, 11, ''), text);
  const one = (move, dx = 0, dy = 1) => ({ name: '', moves: [{ dx, dy, move }] });
  return h('p', { class: 'diagram-legend small' },
    item(one('step'), 'one step'), item(one('jump', 0, 2), 'jump (over anything)'),
    item(one('slide'), 'slide, any distance'), item(one('lion'), 'lion power: one or two steps, igui'));
}

// What a Chu piece with this SFEN code is and does: the popover's content. down: the
// piece points down the board (Gote's, or Sente's on a flipped board): the diagrams turn
// with it.
export function chuCard(sfen, down = false) {
  const found = chuKind(sfen);
  if (!found) return null;
  const { kind, code } = found;
  const promoted = code.promoted_from ? chuKind(code.promoted_from) : null;
  const to = !code.promoted_from && kind.promotes_to ? chuKindBySfen(kind.promotes_to) : null;
  const turn = (svg) => { if (down) svg.classList.add('down'); return svg; };
  const figures = [h('figure', {}, turn(chuDiagram(kind, 22)), h('figcaption', {}, down ? 'moves (as it points)' : 'moves'))];
  if (to) {
    figures.push(h('span', { class: 'promo-arrow', 'aria-hidden': 'true' }, '⇒'));
    figures.push(h('figure', { class: 'promoted' }, turn(chuDiagram(to, 22)), h('figcaption', {}, `promoted: ${to.name}`)));
  }
  let promo;
  if (promoted) promo = `A promoted ${promoted.kind.name} (${code.abbr}): it moves as a ${kind.name} and never promotes again.`;
  else if (to) promo = `Promotes to ${to.name} ${to.kanji} (${to.abbr}).`;
  else if (kind.promoted_only) promo = 'Met only by promotion; it never promotes again.';
  else promo = 'Does not promote.';
  return h('div', { class: 'pc-card chu-card', 'data-kind': kind.sfen },
    h('div', { class: 'pc-head' }, h('strong', { class: 'pc-name' }, kind.name),
      h('span', { class: 'pc-kanji', lang: 'ja' }, code.kanji || kind.kanji),
      h('span', { class: 'pc-abbr', title: 'as TSA writes it' }, code.abbr)),
    h('div', { class: 'pc-diagrams' }, figures),
    h('ul', { class: 'pc-lines' }, chuMoveLines(kind).map((l) => h('li', {}, l))),
    h('p', { class: 'pc-promo' }, promo));
}

// ---- a grid of squares: Exaç's roles ---------------------------------------------------

// An n x n diagram of whole-board squares. spec: {n, cell, at: [r, c] (the piece),
// friends, enemies, yachis, base, boost: lists of [r, c]; side: 0 | 1 (the piece's colour);
// texts: [{at, text}]; shade(r, c): a shaded square; label}. Base destinations are dots,
// boosted-only ones stars, Yachis (among the friends) marked A in a dashed ring.
export function gridDiagram(spec) {
  const { n, cell = 16 } = spec, W = n * cell;
  const key = (rc) => `${rc[0]},${rc[1]}`;
  const base = new Set((spec.base || []).map(key)), boost = new Set((spec.boost || []).map(key));
  const svg = s('svg', { viewBox: `-1 -1 ${W + 2} ${W + 2}`, width: W + 2, height: W + 2,
    class: 'move-diagram grid-diagram', role: 'img', 'aria-label': spec.label || '' });
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const k = `${r},${c}`;
      const cls = 'cell' + (spec.shade && spec.shade(r, c) ? ' camp' : '') + (base.has(k) || boost.has(k) ? ' ray' : '');
      svg.append(s('rect', { x: c * cell, y: r * cell, width: cell, height: cell, class: cls }));
    }
  }
  const disc = (rc, cls, rad = 0.36) => svg.append(s('circle', { cx: rc[1] * cell + cell / 2, cy: rc[0] * cell + cell / 2,
    r: cell * rad, class: cls }));
  for (const rc of spec.friends || []) disc(rc, `stone side${spec.side || 0}`);
  for (const rc of spec.enemies || []) disc(rc, `stone side${1 - (spec.side || 0)}`);
  for (const rc of spec.yachis || []) {
    disc(rc, 'yachi-ring', 0.3);
    svg.append(s('text', { x: rc[1] * cell + cell / 2, y: rc[0] * cell + cell * 0.7, class: 'yachi-letter',
      'font-size': cell * 0.5 }, 'A'));
  }
  if (spec.at) {
    disc(spec.at, `stone me side${spec.side || 0}`, 0.4);
  }
  for (const k of base) disc(k.split(',').map(Number), 'step', 0.2);
  for (const k of boost) {
    const [r, c] = k.split(',').map(Number);
    svg.append(s('text', { x: c * cell + cell / 2, y: r * cell + cell * 0.78, class: 'boost-mark',
      'font-size': cell * 0.8 }, '★'));
  }
  for (const t of spec.texts || []) {
    svg.append(s('text', { x: t.at[1] * cell + cell / 2, y: t.at[0] * cell + cell * 0.68, class: 'cell-text',
      'font-size': cell * (t.text.length > 1 ? 0.42 : 0.55) }, t.text));
  }
  return svg;
}

// ---- the popover ------------------------------------------------------------------------

let pop = null, shownFor = null, timer = null;

function popEl() {
  if (!pop) {
    pop = h('div', { id: 'piece-pop', class: 'piece-pop', role: 'tooltip', hidden: true });
    document.body.append(pop);
  }
  return pop;
}

export function hidePopover() {
  clearTimeout(timer);
  if (shownFor) shownFor.removeAttribute('aria-describedby');
  shownFor = null;
  if (pop) { pop.hidden = true; put(pop); }
}

function place(cellEl) {
  const r = cellEl.getBoundingClientRect(), p = pop.getBoundingClientRect();
  const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight, gap = 8;
  let x = r.right + gap;
  if (x + p.width > vw - 4) x = r.left - gap - p.width;
  if (x < 4) x = Math.max(4, Math.min(vw - p.width - 4, r.left + r.width / 2 - p.width / 2));
  let y = r.top + r.height / 2 - p.height / 2;
  if (x === r.right + gap || x === r.left - gap - p.width) y = Math.max(4, Math.min(vh - p.height - 4, y));
  else y = r.bottom + gap + p.height < vh ? r.bottom + gap : Math.max(4, r.top - gap - p.height);
  pop.style.left = `${Math.round(x)}px`;
  pop.style.top = `${Math.round(y)}px`;
}

function show(cellEl, contentFor) {
  clearTimeout(timer);
  const content = contentFor(cellEl);
  if (!content) { hidePopover(); return; }
  const el = popEl();
  if (shownFor && shownFor !== cellEl) shownFor.removeAttribute('aria-describedby');
  put(el, content);
  el.hidden = false;
  shownFor = cellEl;
  cellEl.setAttribute('aria-describedby', 'piece-pop');
  place(cellEl);
}

// Shows contentFor(element) (a node, or null for none) over the elements of a board that
// match selector (its squares): after a short hover, at once on keyboard focus, after a long press on a
// touch screen (the tap that ends it does not click). Escape or leaving hides it.
export function attachPopover(svg, contentFor, selector = '[data-sq]') {
  const cellOf = (e) => e.target && e.target.closest && e.target.closest(selector);
  let press = null, swallow = false;
  svg.addEventListener('pointerover', (e) => {
    if (e.pointerType === 'touch') return;
    const c = cellOf(e);
    if (!c || c === shownFor) return;
    clearTimeout(timer);
    timer = setTimeout(() => { if (c.isConnected) show(c, contentFor); }, 180);
  });
  svg.addEventListener('pointerout', (e) => {
    if (e.pointerType === 'touch') return;
    const to = e.relatedTarget && e.relatedTarget.closest ? e.relatedTarget.closest(selector) : null;
    if (to && to === cellOf(e)) return;
    clearTimeout(timer);
    if (shownFor && (!to || to !== shownFor) && shownFor !== document.activeElement) hidePopover();
  });
  svg.addEventListener('focusin', (e) => {
    const c = cellOf(e);
    if (c && e.target.matches(':focus-visible')) show(c, contentFor);
  });
  svg.addEventListener('focusout', () => { if (shownFor && svg.contains(shownFor)) hidePopover(); });
  svg.addEventListener('keydown', (e) => { if (e.key === 'Escape' && shownFor) { hidePopover(); e.stopPropagation(); } });
  svg.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'touch') return;
    const c = cellOf(e);
    swallow = false;        // a long press that became a drag made no tap to swallow
    if (shownFor) hidePopover();
    if (!c) return;
    press = { x: e.clientX, y: e.clientY };
    clearTimeout(timer);
    timer = setTimeout(() => { if (c.isConnected) { show(c, contentFor); swallow = !!shownFor; } }, 450);
  });
  const endPress = () => { if (press) { press = null; if (!shownFor) clearTimeout(timer); } };
  svg.addEventListener('pointerup', endPress);
  svg.addEventListener('pointercancel', () => { press = null; clearTimeout(timer); });
  svg.addEventListener('pointermove', (e) => {
    if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 10) { press = null; clearTimeout(timer); }
  });
  // the tap that ends a long press shows the help, it does not play
  svg.addEventListener('click', (e) => { if (swallow) { swallow = false; e.stopPropagation(); e.preventDefault(); } }, true);
  svg.addEventListener('contextmenu', (e) => { if (shownFor || press) e.preventDefault(); });
}

// A tap or click elsewhere, scrolling, or leaving the page hides it.
if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', (e) => {
    if (shownFor && !(e.target.closest && e.target.closest('svg.board'))) hidePopover();
  });
  window.addEventListener('scroll', () => { if (shownFor) hidePopover(); }, { passive: true });
}
