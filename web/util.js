// Small helpers shared by every part of the page: DOM and SVG builders, the API client,
// what the browser remembers (seat tokens, name, preferences).

export const SVGNS = 'http://www.w3.org/2000/svg';

function fill(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.setAttribute('class', v);
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// h('div', {class: 'x', onclick: f}, 'text', child, ...) -> HTML element
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

// Replaces node's children, skipping null/undefined/false (replaceChildren would print them).
export function put(node, ...kids) {
  node.replaceChildren(...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false));
  return node;
}

// s('rect', {x: 0, ...}) -> SVG element
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVGNS, tag), attrs, children);
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}



// GET when body is undefined, POST otherwise (or the method given). Resolves to the JSON
// reply; throws ApiError. A seat's token goes in an Authorization header (never in a URL,
// which proxies log). A request that changes something carries the session's CSRF token
// (X-CSRF-Token), which the server asks of every such request made with the session's
// cookie.
export async function api(path, body, token, method) {
  method = method || (body === undefined ? 'GET' : 'POST');
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (token) init.headers.authorization = `Bearer ${token}`;
  if (method !== 'GET' && !token) {
    const s = await session();
    if (s) init.headers['x-csrf-token'] = s.csrf;
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'network', 'the server cannot be reached');
  }
  let json = null;
  try {
    json = await res.json();
  } catch (e) {
    json = null;
  }
  if (!res.ok) {
    throw new ApiError(res.status, json && json.code || 'http',
      json && json.error || `the server answered ${res.status}`);
  }
  return json;
}

// Every position of game id (GET /api/games/ID/positions, paged by the server: 200 a
// reply), read until there is no next page.
export async function allPositions(id) {
  let all = [], from = 0;
  while (from !== null) {
    const r = await api(`/api/games/${id}/positions?from=${from}`);
    all = all.concat(r.positions);
    from = r.next;
  }
  return all;
}

// localStorage can be unavailable (private mode, file://): degrade to memory.
const memory = {};
function lsGet(k) {
  try { return localStorage.getItem(k); } catch (e) { return memory[k] ?? null; }
}
function lsSet(k, v) {
  try { localStorage.setItem(k, v); } catch (e) { memory[k] = v; }
}

export const prefs = {
  get(k, dflt) {
    const v = lsGet('gv.' + k);
    if (v === null) return dflt;
    try { return JSON.parse(v); } catch (e) { return dflt; }
  },
  set(k, v) { lsSet('gv.' + k, JSON.stringify(v)); },
};

// The account logged in here ({name, csrf, expires} from GET /api/session, or null), asked
// of the server once a page load (session(true): again), and only when this browser has
// logged in since it last logged out (the cookie itself is out of the page's reach).
let sessionAsked = null;
export function session(again) {
  if (!sessionAsked || again) {
    sessionAsked = !prefs.get('account', false) ? Promise.resolve(null)
      : fetch('/api/session').then((r) => (r.ok ? r.json() : null)).catch(() => null)
        .then((x) => { if (!x) prefs.set('account', false); return x; });
  }
  return sessionAsked;
}
export function setSession(x) {
  prefs.set('account', !!x);
  sessionAsked = Promise.resolve(x);
}

// The seats this browser holds per game: {seat: token}, plus links of seats meant for
// friends (so the creator can share them again).
export const seats = {
  all(id) { return prefs.get('seats.' + id, {}); },
  add(id, seat, token) {
    const o = seats.all(id);
    o[seat] = token;
    prefs.set('seats.' + id, o);
  },
  invites(id) { return prefs.get('invites.' + id, []); },
  setInvites(id, list) { prefs.set('invites.' + id, list); },
};

export function fmtClock(ms) {
  if (ms === null || ms === undefined) return '';
  const neg = ms < 0;
  ms = Math.max(0, ms);
  const total = Math.floor(ms / 1000);
  const hh = Math.floor(total / 3600), mm = Math.floor(total / 60) % 60, ss = total % 60;
  const pad = (n) => String(n).padStart(2, '0');
  let t = hh ? `${hh}:${pad(mm)}:${pad(ss)}` : `${mm}:${pad(ss)}`;
  if (!hh && total < 10) t += '.' + Math.floor((ms % 1000) / 100);
  return neg ? '0:00' : t;
}

export function gameTitle(name) {
  return { chu: 'Chu Shogi', exac: 'Exaç', grav: 'Grav' }[name] || name;
}

export function fmtDate(ms) {
  if (!ms) return '';
  const d = new Date(ms);
  return d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

// Keyboard navigation over a grid of SVG squares: one square is in the tab order
// (roving tabindex); arrows move, Enter or Space activates. cells: Map "r,c" -> element
// (display coordinates); activate(el) is called on click, Enter and Space.
export function gridNav(svg, rows, cols, activate) {
  const cell = (r, c) => svg.querySelector(`[data-rc="${r},${c}"]`);
  const first = cell(0, 0);
  if (first) first.setAttribute('tabindex', '0');
  svg.addEventListener('click', (e) => {
    const el = e.target.closest('[data-rc]');
    if (!el) return;
    focusCell(el, false);
    activate(el);
  });
  function focusCell(el, focus = true) {
    for (const o of svg.querySelectorAll('[data-rc][tabindex="0"]')) o.setAttribute('tabindex', '-1');
    el.setAttribute('tabindex', '0');
    if (focus) el.focus();
  }
  svg.addEventListener('keydown', (e) => {
    const el = e.target.closest('[data-rc]');
    if (!el) return;
    let [r, c] = el.dataset.rc.split(',').map(Number);
    const k = e.key;
    if (k === 'Enter' || k === ' ') {
      e.preventDefault();
      activate(el);
      return;
    }
    if (k === 'ArrowUp') r--;
    else if (k === 'ArrowDown') r++;
    else if (k === 'ArrowLeft') c--;
    else if (k === 'ArrowRight') c++;
    else if (k === 'Home') c = 0;
    else if (k === 'End') c = cols - 1;
    else return;
    e.preventDefault();
    e.stopPropagation();
    r = Math.max(0, Math.min(rows - 1, r));
    c = Math.max(0, Math.min(cols - 1, c));
    const t = cell(r, c);
    if (t) focusCell(t);
  });
}
