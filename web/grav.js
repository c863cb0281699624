// The Grav board: N x N points (files a b c ..., or g n m s d v z on 7x7; ranks 1..N from
// the top), stones of up to six players in a colour-blind-safe palette, each with its own
// shape and number. Marks: the last stone, the reference stone, the points at distance
// d..e from the reference (the distance band), the pending stone. What may be done comes
// from you.legal_moves ("2 place d4", "2 remove c3", ...).
import { s, gridNav, put } from './util.js';

const CELL = 100, M = 44;
// Okabe-Ito colours, one shape each (the number is written on the stone too)
export const PLAYERS = [
  { color: '#0072B2', ink: '#fff', shape: 'circle', name: 'blue circle' },
  { color: '#E69F00', ink: '#000', shape: 'square', name: 'orange square' },
  { color: '#009E73', ink: '#fff', shape: 'triangle', name: 'green triangle' },
  { color: '#CC79A7', ink: '#000', shape: 'diamond', name: 'pink diamond' },
  { color: '#D55E00', ink: '#fff', shape: 'hexagon', name: 'vermillion hexagon' },
  { color: '#56B4E9', ink: '#000', shape: 'down', name: 'sky-blue down-triangle' },
];

export function gravFiles(n) { return n === 7 ? 'gnmsdvz' : 'abcdefghijklmnopqrstuvw'.slice(0, n); }
export function pointName(n, row, col) { return `${gravFiles(n)[col]}${row + 1}`; }
export function parsePoint(n, name) {
  const m = /^([a-z])(\d{1,2})$/.exec(name || '');
  if (!m) return null;
  const col = gravFiles(n).indexOf(m[1]), row = Number(m[2]) - 1;
  return col < 0 || row < 0 || row >= n ? null : [row, col];
}

// A stone's shape centred on (cx, cy) with radius r.
export function stoneShape(seat, cx, cy, r, extra = {}) {
  const pl = PLAYERS[seat % PLAYERS.length];
  const attrs = { fill: pl.color, class: 'stone-shape', ...extra };
  const poly = (pts) => s('polygon', { ...attrs, points: pts.map(([x, y]) => `${(cx + x * r).toFixed(1)},${(cy + y * r).toFixed(1)}`).join(' ') });
  switch (pl.shape) {
    case 'square': return s('rect', { ...attrs, x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, rx: r * 0.15 });
    case 'triangle': return poly([[0, -1.05], [0.95, 0.7], [-0.95, 0.7]]);
    case 'down': return poly([[0, 1.05], [0.95, -0.7], [-0.95, -0.7]]);
    case 'diamond': return poly([[0, -1.05], [1.05, 0], [0, 1.05], [-1.05, 0]]);
    case 'hexagon': return poly([[0, -1], [0.87, -0.5], [0.87, 0.5], [0, 1], [-0.87, 0.5], [-0.87, -0.5]]);
    default: return s('circle', { ...attrs, cx, cy, r: r * 0.95 });
  }
}

// A small legend icon for a seat (inline SVG).
export function stoneIcon(seat, size = 18) {
  const pl = PLAYERS[seat % PLAYERS.length];
  const svg = s('svg', { viewBox: '0 0 40 40', width: size, height: size, class: 'stone-icon', 'aria-hidden': 'true' });
  svg.append(stoneShape(seat, 20, 20, 18, { stroke: '#222', 'stroke-width': 2 }));
  svg.append(s('text', { x: 20, y: 26, 'font-size': 17, fill: pl.ink, 'text-anchor': 'middle', 'font-weight': 700 }, String(seat + 1)));
  return svg;
}

export class GravBoard {
  constructor(container, hooks) {
    this.container = container;
    this.hooks = hooks;          // submit(move), hint(point), info(text)
    this.n = 0;
    this.showBand = true;
    this.hints = new Map();      // point -> {violates, rules} (private to the placer)
    this.data = null;
  }

  setShowBand(v) { this.showBand = v; if (this.data) this.draw(); }
  setFlipped() {}              // Grav has no sides

  build(n) {
    this.n = n;
    const size = n * CELL + 2 * M;
    const svg = s('svg', { viewBox: `${-M} ${-M} ${size} ${size}`, class: 'board grav',
      role: 'grid', 'aria-label': `Grav board ${n} by ${n}` });
    svg.append(s('rect', { x: -M, y: -M, width: size, height: size, class: 'frame' }));
    const files = gravFiles(n);
    const fs = n > 13 ? 30 : 34;
    for (let i = 0; i < n; i++) {
      svg.append(s('text', { x: i * CELL + 50, y: -10, class: 'coord', 'font-size': fs }, files[i]));
      svg.append(s('text', { x: i * CELL + 50, y: n * CELL + 32, class: 'coord', 'font-size': fs }, files[i]));
      svg.append(s('text', { x: -22, y: i * CELL + 60, class: 'coord', 'font-size': fs }, String(i + 1)));
      svg.append(s('text', { x: n * CELL + 22, y: i * CELL + 60, class: 'coord', 'font-size': fs }, String(i + 1)));
    }
    const lines = s('g', { class: 'lines' });
    for (let i = 0; i < n; i++) {
      lines.append(s('line', { x1: 50, y1: i * CELL + 50, x2: n * CELL - 50, y2: i * CELL + 50 }));
      lines.append(s('line', { x1: i * CELL + 50, y1: 50, x2: i * CELL + 50, y2: n * CELL - 50 }));
    }
    svg.append(lines);
    this.cells = new Map();
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const name = pointName(n, r, c);
        const g = s('g', { class: 'sq', 'data-rc': `${r},${c}`, 'data-sq': name, tabindex: '-1',
          role: 'gridcell', transform: `translate(${c * CELL},${r * CELL})` });
        g.append(s('rect', { width: CELL, height: CELL, class: 'bg' }));
        g.append(s('g', { class: 'content' }));
        svg.append(g);
        this.cells.set(name, g);
      }
    }
    gridNav(svg, n, n, (el) => this.click(el.dataset.sq));
    this.svg = svg;
    put(this.container, svg);
  }

  // data: {grav: view.grav, legal: [texts] | null, hintMode: bool}
  update(data) {
    const gv = data.grav;
    if (!gv) return;
    if (gv.size !== this.n) this.build(gv.size);
    if (this.data && this.data.grav && (this.data.grav.turns !== gv.turns ||
        JSON.stringify(this.data.grav.board) !== JSON.stringify(gv.board))) this.hints.clear();
    this.data = data;
    this.legal = data.legal || [];
    this.place = new Set();
    this.remove = new Set();
    for (const m of this.legal) {
      const t = m.split(' ');
      if (t[1] === 'place') this.place.add(t[2]);
      if (t[1] === 'remove') this.remove.add(t[2]);
    }
    this.draw();
  }

  setHint(point, res) { this.hints.set(point, res); this.draw(); }

  draw() {
    const gv = this.data.grav, n = this.n;
    const ref = parsePoint(n, gv.reference);
    const { d, e } = gv.params;
    const pending = gv.pending && gv.pending.point;
    for (const [name, g] of this.cells) {
      const [row, col] = parsePoint(n, name);
      const v = gv.board[row * n + col];
      const content = g.querySelector('.content');
      const dist = ref ? Math.abs(row - ref[0]) + Math.abs(col - ref[1]) : -1;
      const key = [v, name === pending, name === gv.last, name === gv.reference, this.showBand && dist >= d && dist <= e,
        this.remove.has(name), this.place.has(name), JSON.stringify(this.hints.get(name) || null)].join('|');
      if (g._key === key) continue;
      g._key = key;
      put(content);
      const cls = ['sq'];
      let label = name;
      if (v) {
        const seat = v - 1, pl = PLAYERS[seat % 6];
        const st = s('g', { class: `stone${name === pending ? ' pending' : ''}` });
        st.append(stoneShape(seat, 50, 50, 40));
        st.append(s('text', { x: 50, y: 63, class: 'num', fill: pl.ink }, String(v)));
        content.append(st);
        label += `, player ${v} (${pl.name})`;
      }
      if (name === gv.last) {
        content.append(s('circle', { cx: 50, cy: 50, r: 47, class: 'last-ring' }));
        label += ', last stone';
      }
      if (name === gv.reference && gv.reference !== gv.last) {
        content.append(s('rect', { x: 4, y: 4, width: 92, height: 92, class: 'ref-ring' }));
        label += ', reference stone';
      }
      if (name === pending) label += ', awaiting answers';
      if (!v && ref && this.showBand) {
        if (dist >= d && dist <= e) {
          content.append(s('path', { d: 'M41 50H59M50 41V59', class: 'band' }));
          cls.push('inband');
          label += ', in the distance band';
        }
      }
      if (this.remove.has(name)) {
        cls.push('target');
        content.append(s('circle', { cx: 50, cy: 50, r: 46, class: 'remove-ring' }));
        label += ', may be removed';
      }
      if (this.place.has(name)) cls.push('placeable');
      const hint = this.hints.get(name);
      if (hint) {
        content.append(s('text', { x: 50, y: 66, class: `hint ${hint.violates ? 'bad' : 'good'}` }, hint.violates ? '✗' : '✓'));
        label += hint.violates ? `, would break: ${hint.rules.join(', ')}` : ', breaks no rule';
      }
      content.append(s('title', {}, label));
      g.setAttribute('aria-label', label);
      g.setAttribute('class', cls.join(' '));
    }
  }

  click(pt) {
    if (!this.data) return;
    if (this.data.hintMode && this.place.has(pt)) {
      this.hooks.hint(pt);
      return;
    }
    const m = this.legal.find((x) => {
      const t = x.split(' ');
      return (t[1] === 'place' || t[1] === 'remove') && t[2] === pt;
    });
    if (m) this.hooks.submit(m);
  }
}
