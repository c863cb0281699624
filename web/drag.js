// Direct handling on a board (Chu, Exaç): drag and drop with the mouse, a pen or a finger
// (pointer events), and the slide of a piece from its square to its destination.
//
// A press on a piece that may move, then a movement of a few pixels, starts a drag: a copy
// of the piece follows the pointer, the piece on its square fades, and the board marks its
// legal destinations (the board's own selection, as a click does). Releasing over a square
// hands it to the board; releasing anywhere else, or a cancelled pointer, cancels. A press
// without movement is left alone: the click that follows picks the piece as before, so
// click-click keeps working.
import { s } from './util.js';

const THRESHOLD = 6;       // pixels the pointer moves before a press becomes a drag

// The square or reserve piece under a page point (the ghost lets the pointer through).
function sourceAt(svg, x, y) {
  const el = document.elementFromPoint(x, y);
  return el && svg.contains(el) ? el.closest('[data-sq], .stand-piece') : null;
}

// A point of the page in the board's own coordinates.
function svgPoint(svg, e) {
  const m = svg.getScreenCTM();
  if (!m) return { x: 0, y: 0 };
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
  return { x: p.x, y: p.y };
}

// board: {
//   grab(el) -> SVG element to show under the pointer (a copy of the piece), or null when
//     el (a square or a reserve piece) holds nothing this player may move now; the board
//     selects the piece and marks its destinations;
//   release(el | null) -> the pointer was released over el (a square or a reserve piece),
//     or outside the board: the board plays, goes on (a Lion's second step) or cancels;
//   origin(el) -> the element to fade while the piece is away (el: what grab was given) }
export function attachDrag(svg, board) {
  let press = null;          // {id, x, y, el} a press that may become a drag
  let drag = null;           // {id, el, ghost, faded, over}
  let swallowClick = false;

  const clear = () => {
    if (drag) {
      drag.ghost.remove();
      if (drag.faded) drag.faded.classList.remove('drag-origin');
      if (drag.over) drag.over.classList.remove('drag-over');
      svg.classList.remove('dragging');
      try { svg.releasePointerCapture(drag.id); } catch (err) { /* already released */ }
    }
    drag = null;
    press = null;
  };

  svg.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || drag) return;
    const el = e.target.closest('[data-sq], .stand-piece');
    if (!el || e.target.closest('.promo-choice')) return;
    press = { id: e.pointerId, x: e.clientX, y: e.clientY, el };
  });

  svg.addEventListener('pointermove', (e) => {
    if (drag && e.pointerId === drag.id) {
      e.preventDefault();
      const p = svgPoint(svg, e);
      drag.ghost.setAttribute('transform', `translate(${p.x - drag.half},${p.y - drag.half})`);
      const over = sourceAt(svg, e.clientX, e.clientY);
      const sq = over && over.dataset.sq ? over : null;
      if (sq !== drag.over) {
        if (drag.over) drag.over.classList.remove('drag-over');
        if (sq) sq.classList.add('drag-over');
        drag.over = sq;
      }
      return;
    }
    if (!press || e.pointerId !== press.id) return;
    if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < THRESHOLD) return;
    const el = press.el;
    press = null;
    const piece = board.grab(el);
    if (!piece) return;
    const size = Number(piece.dataset.size || 100);
    const ghost = s('g', { class: 'drag-ghost', 'aria-hidden': 'true' });
    ghost.append(piece);
    svg.append(ghost);
    const faded = board.origin(el);
    if (faded) faded.classList.add('drag-origin');
    drag = { id: e.pointerId, el, ghost, faded, over: null, half: size / 2 };
    svg.classList.add('dragging');
    try { svg.setPointerCapture(e.pointerId); } catch (err) { /* the pointer is gone */ }
    const p = svgPoint(svg, e);
    ghost.setAttribute('transform', `translate(${p.x - drag.half},${p.y - drag.half})`);
  });

  const end = (e, cancelled) => {
    if (press && e.pointerId === press.id) press = null;
    if (!drag || e.pointerId !== drag.id) return;
    const over = cancelled ? null : sourceAt(svg, e.clientX, e.clientY);
    clear();
    // the click this release would make is the drag's, not a click on a square
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
    board.release(over);
  };
  svg.addEventListener('pointerup', (e) => end(e, false));
  svg.addEventListener('pointercancel', (e) => end(e, true));
  // the board's own capture lost (a touch's implicit capture by the square, taken over by
  // the board when the drag starts, is not the board's)
  svg.addEventListener('lostpointercapture', (e) => { if (e.target === svg && drag && e.pointerId === drag.id) end(e, true); });
  svg.addEventListener('click', (e) => {
    if (swallowClick) { swallowClick = false; e.stopPropagation(); e.preventDefault(); }
  }, true);
  // a dragged piece has no context menu (a long press on a touch screen)
  svg.addEventListener('contextmenu', (e) => { if (drag) e.preventDefault(); });
  return { cancel: clear, active: () => !!drag };
}

// Whether the page should move things: not when the system asks for reduced motion.
export function motionOK() {
  return !(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}

export const SLIDE_MS = 180;

// Slides what square `to` shows from square `from`'s place (board coordinates of the two
// squares' corners): a copy travels on top of the board while the square's own content
// waits hidden, then the copy goes.
export function slide(svg, toCell, from, to) {
  const content = toCell.querySelector('.content');
  if (!content || !content.firstChild || !motionOK() || !content.animate) return;
  const layer = s('g', { class: 'slide', 'aria-hidden': 'true' });
  const inner = s('g', {});
  for (const n of content.childNodes) if (n.nodeName !== 'title') inner.append(n.cloneNode(true));
  layer.append(inner);
  svg.append(layer);
  content.style.visibility = 'hidden';
  const a = inner.animate([
    { transform: `translate(${from.x}px, ${from.y}px)` },
    { transform: `translate(${to.x}px, ${to.y}px)` },
  ], { duration: SLIDE_MS, easing: 'ease-out', fill: 'forwards' });
  const done = () => { layer.remove(); content.style.visibility = ''; };
  a.onfinish = done;
  a.oncancel = done;
}

// The corner of a square of a board (its transform translate(x,y)).
export function cellCorner(cell) {
  const m = /translate\(([-\d.]+),\s*([-\d.]+)\)/.exec(cell.getAttribute('transform') || '');
  return m ? { x: Number(m[1]), y: Number(m[2]) } : { x: 0, y: 0 };
}
