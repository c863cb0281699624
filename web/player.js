// A player's page (/@/NAME), from GET /api/player/NAME only: the ratings per game and
// speed, a chart of the rating history (SVG), and the player's games, newest first, a page
// at a time, each linking to its replay.
import { h, s, api, put, gameTitle, fmtDate } from './util.js';

const SPEEDS = { correspondence: 'correspondence', fast: 'fast', slow: 'slow' };
// A rating is provisional ("?") while its deviation is above this (the server says so too).
const PROVISIONAL_RD = 110;

function ratingText(r, rd) {
  return `${Math.round(r)}${rd > PROVISIONAL_RD ? '?' : ''}`;
}

export class PlayerPage {
  constructor(root, name) {
    this.root = root;
    this.name = name;
    this.page = 0;
    document.title = `${name} — Gravülien`;
    put(root, h('p', { class: 'muted' }, 'Loading…'));
    this.load();
  }

  async load() {
    let p;
    try {
      p = await api(`/api/player/${encodeURIComponent(this.name)}?page=${this.page}`);
    } catch (e) {
      put(this.root, h('section', { class: 'player-page' }, h('h1', {}, this.name),
        h('p', { class: 'message' }, e.status === 404 ? 'There is no such player.' : e.message)));
      return;
    }
    document.title = `${p.name} — Gravülien`;
    put(this.root, h('section', { class: 'player-page' },
      h('h1', {}, p.name),
      h('p', { class: 'muted' }, `Playing since ${fmtDate(p.created)}`),
      this.ratings(p), this.chart(p), this.games(p)));
  }

  ratings(p) {
    if (!p.ratings.length) return h('p', { class: 'muted' }, 'No rated game yet.');
    return h('table', { class: 'ratings' },
      h('caption', {}, 'Ratings (Glicko-2; "?" while provisional)'),
      h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Speed'), h('th', {}, 'Rating'),
        h('th', {}, 'Deviation'), h('th', {}, 'Games'))),
      h('tbody', {}, p.ratings.map((r) => h('tr', {},
        h('td', {}, gameTitle(r.game)), h('td', {}, SPEEDS[r.speed] || r.speed),
        h('td', { class: 'num' }, ratingText(r.rating, r.rd)), h('td', { class: 'num' }, Math.round(r.rd)),
        h('td', { class: 'num' }, r.games)))));
  }

  // The history: one line per game and speed, rating against time (points at each game).
  chart(p) {
    if (!p.history.length) return null;
    const W = 600, H = 220, L = 44, R = 10, T = 10, B = 24;
    const series = new Map();
    for (const x of p.history) {
      const k = `${x.game}/${x.speed}`;
      if (!series.has(k)) series.set(k, []);
      series.get(k).push(x);
    }
    const t0 = p.history[0].at, t1 = p.history[p.history.length - 1].at;
    let lo = Math.min(...p.history.map((x) => Math.min(x.rating, x.before)));
    let hi = Math.max(...p.history.map((x) => Math.max(x.rating, x.before)));
    lo = Math.floor((lo - 20) / 50) * 50;
    hi = Math.ceil((hi + 20) / 50) * 50;
    const X = (t) => L + (t1 > t0 ? (t - t0) / (t1 - t0) : 0.5) * (W - L - R);
    const Y = (r) => T + (hi - r) / (hi - lo) * (H - T - B);
    const grid = [];
    const step = Math.max(50, Math.ceil((hi - lo) / 4 / 50) * 50);
    for (let r = lo; r <= hi; r += step) {
      grid.push(s('line', { x1: L, x2: W - R, y1: Y(r), y2: Y(r), class: 'grid' }),
        s('text', { x: L - 4, y: Y(r) + 4, class: 'axis', 'text-anchor': 'end' }, String(r)));
    }
    const lines = [];
    let i = 0;
    for (const [k, pts] of series) {
      const cls = `series s${i++ % 6}`;
      const d = pts.map((x, j) => `${j ? 'L' : 'M'}${X(x.at).toFixed(1)},${Y(x.rating).toFixed(1)}`).join(' ');
      lines.push(s('path', { d, class: cls }),
        pts.map((x) => s('circle', { cx: X(x.at), cy: Y(x.rating), r: 3, class: cls },
          s('title', {}, `${gameTitle(x.game)} ${x.speed}: ${ratingText(x.rating, x.rd)} after ${x.score === 1 ? 'a win' : x.score === 0 ? 'a loss' : 'a draw'} against ${x.opponent}`))));
    }
    const legend = [...series.keys()].map((k, j) => {
      const [g, sp] = k.split('/');
      return h('span', { class: `legend s${j % 6}` }, `${gameTitle(g)} ${sp}`);
    });
    return h('figure', { class: 'rating-chart' },
      s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'rating history' }, grid, lines),
      h('figcaption', {}, legend));
  }

  games(p) {
    const rows = p.games.map((g) => {
      const who = g.seats.map((x) => x.account
        ? h('a', { href: `/@/${x.account}`, 'data-link': '' }, x.name) : x.name)
        .flatMap((e, j) => (j ? [' vs ', e] : [e]));
      let res = '';
      const winner = g.result && g.result.status === 'win' ? g.seats[g.result.winner] : null;
      if (g.result) res = g.result.status === 'draw' ? `draw (${g.result.reason})` : `${winner ? winner.name : 'seat ' + (g.result.winner + 1)} won (${g.result.reason})`;
      return h('li', { class: 'game-row' },
        h('a', { href: `/play/${g.id}`, 'data-link': '', class: 'game-link' }, gameTitle(g.game)),
        h('span', { class: 'who' }, who),
        g.rated ? h('span', { class: 'rated-tag' }, 'rated') : null,
        h('span', { class: 'n' }, `${g.n} move${g.n === 1 ? '' : 's'}`),
        res ? h('span', { class: 'res' }, res) : h('span', { class: 'res' }, g.status),
        h('span', { class: 'date muted' }, fmtDate(g.created)),
        h('a', { href: `/play/${g.id}`, 'data-link': '', class: 'verb' }, g.status === 'finished' ? 'Replay' : 'Open'));
    });
    const pager = h('div', { class: 'pager' },
      this.page > 0 ? h('button', { type: 'button', class: 'quiet', onclick: () => { this.page--; this.load(); } }, '← Newer') : null,
      p.next !== null ? h('button', { type: 'button', class: 'quiet', onclick: () => { this.page = p.next; this.load(); } }, 'Older →') : null);
    return h('section', { class: 'list panel' }, h('h2', {}, 'Games'),
      rows.length ? h('ul', {}, rows) : h('p', { class: 'muted' }, 'No games here.'), pager);
  }
}
