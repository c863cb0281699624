// The service worker: keeps the page's files and the engine (web/engine/) in a cache of its
// own, so that a page loaded once opens again without a network (games against the
// computer in the browser, the analysis board of a fresh position). Online it asks the
// network first and refreshes its copy; offline it answers from the copy, and any page
// address (/, /play/...) with the page itself.
//
// A service worker controls the pages under its own folder unless the server allows a
// wider scope: app.js registers this one for "/", which the browser accepts only when the
// server sends `Service-Worker-Allowed: /` with this file. Without that header the
// registration is refused and the page works as before (online only).
const CACHE = 'gravulien-v1';
const FILES = ['/', '/static/style.css', '/static/icon.svg', '/static/app.js', '/static/util.js',
  '/static/lobby.js', '/static/game.js', '/static/chu.js', '/static/exac.js', '/static/grav.js',
  '/static/banner.js', '/static/movelist.js', '/static/drag.js', '/static/piecehelp.js',
  '/static/pieces.js', '/static/sound.js', '/static/analysis.js', '/static/local.js', '/static/player.js',
  '/static/engine/client.js', '/static/engine/worker.js', '/static/engine/gravulien.js',
  '/static/engine/gravulien.wasm', '/static/sw.js'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys().then((ks) => Promise.all(ks.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== location.origin || url.pathname.startsWith('/api/') ||
      url.pathname === '/ws') return;
  const key = e.request.mode === 'navigate' ? '/' : url.pathname;
  e.respondWith(fetch(e.request).then((res) => {
    if (res.ok && (FILES.includes(key))) {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put(key, copy));
    }
    return res;
  }).catch(() => caches.match(key).then((hit) => hit || Response.error())));
});
