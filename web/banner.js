// The banner on top of the board: what the page asks of you now and what just happened,
// where the eyes are. Each line has a kind, which sets its colour and its class:
//   error     the server refused something (dismissed with ×)
//   question  a choice to make now, with its answers as buttons (promotion, a draw offer,
//             Grav's "does it break a rule?", bonus turns)
//   step      the next click of a move under way (a Lion's second step, a drop)
//   verdict   what a Grav call turned out to be
//   turn      your move, and how to make it
//   wait      whose move it is when it is not yours
//   replay    a position of the past is shown
//   result    how the game ended
// The page gives the lines, most pressing first; a line that did not change keeps its
// elements (a focused button stays focused).
import { h, put } from './util.js';

export class Banner {
  constructor() {
    this.el = h('div', { class: 'banner', role: 'status', 'aria-live': 'polite' });
    this.key = null;
  }

  // lines: [{kind, text, cls, actions: [elements], key}] (null and empty entries skipped).
  // key: what else than the text decides the actions (the buttons are kept while the
  // kind, text and key stay the same).
  show(lines) {
    const ls = (lines || []).filter((l) => l && (l.text || (l.actions && l.actions.length)));
    const key = JSON.stringify(ls.map((l) => [l.kind, l.text, l.cls || '', l.key || '',
      (l.actions || []).map((a) => a && a.textContent)]));
    if (key === this.key) return;
    this.key = key;
    this.el.classList.toggle('empty', !ls.length);
    this.el.dataset.kind = ls.length ? ls[0].kind : '';
    put(this.el, ls.map((l) => h('div', { class: `line ${l.kind}${l.cls ? ' ' + l.cls : ''}`, role: l.kind === 'question' ? 'group' : undefined,
      'aria-label': l.kind === 'question' ? l.text : undefined },
    h('span', { class: 'text' }, l.text),
    l.actions && l.actions.length ? h('span', { class: 'answers' }, l.actions) : null)));
  }
}
