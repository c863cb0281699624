// Gravülien's web page: a tiny router between the lobby (/), a game (/play/ID), the
// analysis board (/play/ID/analysis for a game, /play/analysis/GAME for a fresh board of
// GAME: under /play/, which the server answers with this page), a game against the
// computer in this browser (/play/local/ID), a player (/@/NAME) and the pieces' help
// (/pieces).
import { h, api, put } from './util.js';
import { Lobby } from './lobby.js';
import { GamePage } from './game.js';
import { PiecesPage } from './pieces.js';
import { PlayerPage } from './player.js';
import { AnalysisPage } from './analysis.js';
import { LocalGamePage } from './local.js';
import { setPieceMeta, hidePopover } from './piecehelp.js';

const root = document.getElementById('app');
let page = null;
let meta = null;

async function route() {
  if (page && page.destroy) page.destroy();
  page = null;
  hidePopover();
  // a game against the computer in this browser needs nothing of the server
  const local = /^\/play\/local\/([a-z0-9]{1,40})\/?$/.exec(location.pathname);
  if (local) {
    page = new LocalGamePage(root, local[1]);
    window.scrollTo(0, 0);
    return;
  }
  if (!meta) {
    try {
      meta = await api('/api/meta');
      setPieceMeta(meta);
    } catch (e) {
      put(root, h('p', { class: 'message' }, `The server cannot be reached: ${e.message}`));
      return;
    }
  }
  let a;
  const m = /^\/play\/([A-Za-z0-9]{1,40})\/?$/.exec(location.pathname);
  if (m) {
    // A join link holds its seat and token in the fragment (#seat=S&token=T), which the
    // browser never sends; an older link in the query. Either is taken, then the address
    // bar shows the game's plain address.
    const params = new URLSearchParams(location.search);
    for (const [k, v] of new URLSearchParams(location.hash.slice(1))) params.set(k, v);
    if (params.has('token')) history.replaceState(null, '', `/play/${m[1]}`);
    page = new GamePage(root, m[1], params, meta);
  } else if (/^\/@\/[A-Za-z0-9_-]{1,40}\/?$/.test(location.pathname)) {
    page = new PlayerPage(root, location.pathname.split('/')[2]);
  } else if ((a = /^\/play\/(?:analysis\/(chu|exac|grav)|([A-Za-z0-9]{1,40})\/analysis)\/?$/.exec(location.pathname))) {
    page = new AnalysisPage(root, a[1] || a[2], meta);
  } else if (/^\/pieces$/.test(location.pathname)) {
    document.title = 'Pieces — Gravülien';
    page = new PiecesPage(root, meta);
  } else {
    document.title = 'Gravülien';
    page = new Lobby(root, meta, navigate);
  }
  // a link to a part of a page (/pieces#exac) scrolls to it
  const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target) target.scrollIntoView();
  else window.scrollTo(0, 0);
}

export function navigate(path) {
  history.pushState(null, '', path);
  route();
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-link]');
  if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', route);
route();

// The offline copy of the page (sw.js): for the whole site when the server allows it
// (Service-Worker-Allowed: /); refused otherwise, and the page works online as before.
// The header is looked at first: the browser logs a refused registration as an error.
if ('serviceWorker' in navigator) {
  fetch('/static/sw.js').then((r) => {
    if (r.ok && r.headers.get('service-worker-allowed') === '/') return navigator.serviceWorker.register('/static/sw.js', { scope: '/' });
    return null;
  }).catch(() => {});
}
