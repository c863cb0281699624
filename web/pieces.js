// The Pieces page (/pieces): every Chu Shogi piece with its kanji, TSA abbreviation, name,
// move diagram and promotion, and Exaç's roles by square. Everything it shows comes from
// GET /api/meta's "pieces" (the rules cores' own tables); the diagrams are piecehelp.js's.
import { h, s, put, gameTitle } from './util.js';
import { chuGlyph } from './chu.js';
import { exacDiagram, exacRC, FILES } from './exac.js';
import { pieceData, chuDiagram, chuLegend, chuMoveLines, chuKindBySfen, chuKind, gridDiagram } from './piecehelp.js';

// A piece as the board draws it: a wedge with its kanji (red when promoted).
function glyph(code, size = 46) {
  const svg = s('svg', { viewBox: '0 0 100 100', width: size, height: size, class: 'board chu glyph', 'aria-hidden': 'true' });
  const g = s('g', { class: `piece side0${code[0] === '+' ? ' promo' : ''}` });
  g.append(s('polygon', { points: '50,7 78,19 88,93 12,93 22,19', class: 'wedge' }));
  g.append(s('text', { x: 50, y: 71, class: 'kanji' }, chuGlyph(code)));
  svg.append(g);
  return svg;
}

const anchor = (sfen) => `chu-${sfen.replace('+', 'p')}`;

function kindLink(kind) {
  return h('a', { href: `#${anchor(kind.sfen)}`, class: 'kind-link' }, `${kind.name} (${kind.abbr})`);
}

function chuCardFull(kind) {
  const to = kind.promotes_to ? chuKindBySfen(kind.promotes_to) : null;
  const others = kind.codes.filter((c) => c.promoted_from);
  const promo = [];
  if (to) promo.push(h('span', {}, 'Promotes to ', glyph(to.sfen, 24), ' ', kindLink(to), '.'));
  else if (kind.promoted_only) {
    const from = kind.codes.map((c) => c.promoted_from && chuKindBySfen(c.promoted_from)).filter(Boolean);
    promo.push(h('span', {}, 'Only by promotion of the ', ...from.map(kindLink), '; never promotes again.'));
  } else promo.push(h('span', {}, 'Does not promote.'));
  for (const c of others) {
    if (kind.promoted_only) continue;
    const from = chuKind(c.promoted_from);
    if (from) promo.push(h('span', { class: 'small muted' }, ` A promoted ${from.kind.name} (${c.abbr}, `,
      h('span', { lang: 'ja' }, c.kanji), ') moves as this piece and never promotes again.'));
  }
  return h('article', { class: 'pp-card panel', id: anchor(kind.sfen), 'data-kind': kind.sfen },
    h('div', { class: 'pp-title' }, glyph(kind.sfen),
      h('div', {}, h('h3', {}, kind.name), h('div', { class: 'pp-names' },
        h('span', { class: 'pc-kanji', lang: 'ja' }, kind.kanji), ' · ',
        h('span', { class: 'pc-abbr', title: 'TSA abbreviation' }, kind.abbr), ' · ',
        h('span', { class: 'muted', title: 'SFEN letter' }, kind.sfen)))),
    h('div', { class: 'pp-body' }, chuDiagram(kind, 22),
      h('ul', { class: 'pc-lines' }, chuMoveLines(kind).map((l) => h('li', {}, l)))),
    h('p', { class: 'pc-promo' }, promo));
}

function chuSection(d) {
  const base = d.kinds.filter((k) => !k.promoted_only), promoted = d.kinds.filter((k) => k.promoted_only);
  return h('section', { class: 'pp-game', id: 'chu' },
    h('h2', {}, `${gameTitle('chu')}: ${d.kinds.length} kinds of piece`),
    h('p', {}, 'Each diagram shows a Sente piece in the centre, moving up the board (forward). ' +
      'Hover, long-press or focus a piece on a game\'s board to see its own.'),
    chuLegend(),
    h('h3', { class: 'pp-sub' }, `On the board at the start (${base.length})`),
    h('div', { class: 'pp-grid' }, base.map(chuCardFull)),
    h('h3', { class: 'pp-sub' }, `Only by promotion (${promoted.length})`),
    h('div', { class: 'pp-grid' }, promoted.map(chuCardFull)));
}

// Exaç: which roles each square gives a lone piece (First's and Second's), then each role.
function squareMap(d, side) {
  const texts = [];
  const letter = { Perits: 'P', Lapah: 'L' };
  for (const sq of d.squares) {
    const t = sq[side ? 'second' : 'first'].map((r) => letter[r] || '').join('');
    if (t) texts.push({ at: exacRC(sq.square), text: t });
  }
  const campRows = side === 0 ? [0, 1, 2] : [4, 5, 6];
  const svg = gridDiagram({ n: 7, cell: 26, texts, shade: (r) => campRows.includes(r),
    label: `the roles a lone ${side ? 'Second' : 'First'} piece has on each square` });
  // files and ranks around it
  const wrap = h('div', { class: 'pp-map' }, h('div', { class: 'pp-files' }, FILES.split('').map((f) => h('span', {}, f))),
    h('div', { class: 'pp-map-row' }, h('div', { class: 'pp-ranks' }, [1, 2, 3, 4, 5, 6, 7].map((r) => h('span', {}, r))), svg));
  return h('figure', { class: 'pp-squares', 'data-side': side }, wrap,
    h('figcaption', { class: 'small' }, side ? 'Second (moves down)' : 'First (moves up)'));
}

function exacRoleCard(r) {
  const figs = r.examples.map((e) => h('figure', { class: 'role-fig' },
    exacDiagram({ square: e.square, side: 0, base: e.base, boost: e.boost, friends: e.friends, yachis: e.yachis,
      cell: 18, label: `${r.name} on ${e.square}${e.boosted ? ', boosted' : ''}: ${e.base.concat(e.boost).join(' ')}` }),
    h('figcaption', { class: 'small' }, e.boosted ? `boosted (the Yachi on ${e.yachis.join(', ')})` : `on ${e.square}`)));
  return h('article', { class: 'pp-card panel pp-role', id: `exac-${r.name.toLowerCase()}`, 'data-role': r.name },
    h('h3', {}, r.name, ' ', r.letter ? h('span', { class: 'pc-abbr', title: 'its letter on the board and in moves' }, r.letter)
      : h('span', { class: 'muted small' }, '(no letter)')),
    h('dl', { class: 'pp-role-text' },
      h('dt', {}, 'When'), h('dd', {}, r.condition),
      h('dt', {}, 'Moves'), h('dd', {}, r.moves),
      h('dt', {}, 'Boosted'), h('dd', {}, r.boosted)),
    h('div', { class: 'pc-diagrams roles' }, figs));
}

function exacSection(d) {
  return h('section', { class: 'pp-game', id: 'exac' },
    h('h2', {}, `${gameTitle('exac')}: roles by square`),
    h('p', {}, d.about),
    h('p', {}, d.boost),
    h('div', { class: 'pp-squares-row' },
      h('div', { class: 'pp-squares-text' },
        h('h3', {}, 'What the square alone gives'),
        h('p', { class: 'small' }, 'Every piece is a Polus. On an edge it is also a Perits (P); in the ' +
          'opponent\'s camp, the shaded three ranks, a Lapah (L). The other roles come from its neighbours: ' +
          'Yachi, Adrib and Potersin.')),
      squareMap(d, 0), squareMap(d, 1)),
    h('p', { class: 'small muted' }, 'In the diagrams below First\'s piece (ringed) moves up; dots are the ' +
      'squares the role gives it, stars those only a boost gives, discs its friends, a dashed ring a Yachi.'),
    h('div', { class: 'pp-grid roles' }, d.roles.map(exacRoleCard)));
}

export class PiecesPage {
  constructor(root, meta) {
    this.root = root;
    const chu = pieceData('chu'), exac = pieceData('exac');
    const toc = [];
    if (chu) toc.push(h('a', { href: '#chu' }, gameTitle('chu')));
    if (exac) toc.push(h('a', { href: '#exac' }, gameTitle('exac')));
    put(root, h('section', { class: 'pieces-page' },
      h('h2', { class: 'pp-head' }, 'Pieces'),
      h('nav', { class: 'pp-toc', 'aria-label': 'games' }, toc),
      chu ? chuSection(chu) : null,
      exac ? exacSection(exac) : null,
      !chu && !exac ? h('p', { class: 'muted' }, 'This server describes no pieces.') : null));
  }
}
