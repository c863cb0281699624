// The lobby: who is logged in (or a log-in / sign-up form), create a game of any kind
// (forms built from GET /api/meta), games against the computer in this browser, quick
// pairing (a seek, waiting for an opponent), who is online, and the lists of games waiting
// for players, live games to watch and finished games to replay.
import { h, api, prefs, seats, gameTitle, fmtDate, put, session, setSession } from './util.js';
import { localPanel } from './local.js';

const PRIMES = [5, 7, 11, 13, 17, 19, 23];
const SIDES = { chu: ['Sente ☗ (moves first)', 'Gote ☖'], exac: ['First (moves first)', 'Second'] };
const CLOCKS = [
  ['none', 'No clock'], ['60+0', '1 min'], ['180+2', '3 min + 2 s'], ['300+3', '5 min + 3 s'],
  ['600+5', '10 min + 5 s'], ['900+10', '15 min + 10 s'], ['1800+20', '30 min + 20 s'],
  ['custom', 'Custom…'],
];
// Chu: the variants and rule sets by name; the rule options a rule set decides (a menu
// for one of them starts at "the rule set's", which sends nothing); the handicap presets
// and Colin Adams' table by grade difference (null: alternate the neighbours).
const CHU_VARIANTS = { standard: 'Standard Chu Shogi', heisei: 'Heisei Chu (reserves and drops)' };
const CHU_RULESETS = { lishogi: 'lishogi (the default)', jcsa: 'JCSA (Japan Chu Shogi Association)',
  historical: 'historical (Edo sources, Middle Shogi Manual)' };
const CHU_HELP = {
  variant: 'Heisei Chu: each side holds 14 pieces in reserve and may drop one next to its own pieces instead of moving.',
  ruleset: 'A family of rules at once; any of the Rule options below chosen as well overrides it.',
};
const CHU_RULESET_OPTIONS = ['lion_double', 'counter_strike', 'promotion', 'repetition', 'bare_king', 'gobetween_far'];
const CHU_PRESETS = {
  gold: "Gote's Gold General (5a) removed", leopard: "Gote's Ferocious Leopard (2a) removed",
  silver: "Gote's Silver General (4a) removed", copper: "Gote's Copper General (3a) removed",
  'side-mover': "Gote's Side Mover (1c) removed", 'vertical-mover': "Gote's Vertical Mover (2c) removed",
  rook: "Gote's Rook (3c) removed", 'dragon-king': "Gote's Dragon King (5c) removed",
  queen: "Gote's Free King (7c) removed", 'two-kings': "Sente's Drunk Elephant starts promoted (a Prince)",
  'two-lions': "Sente's Kirin (7k) starts promoted (a Lion)",
  'three-lions': "two-lions, and Sente's Phoenix becomes a promoted Kirin, Gote's Kirin a Phoenix",
};
// the order presets are joined in: the Lion and Prince presets first
const CHU_PRESET_ORDER = ['two-kings', 'two-lions', 'three-lions'];
const ADAMS = [
  [1, 'none'], [2, 'gold'], [3, 'side-mover'], [4, 'vertical-mover'], [5, null], [6, 'two-lions'],
  [7, 'two-lions+gold'], [8, 'two-lions+side-mover'], [9, 'two-lions+vertical-mover'], [10, null],
  [11, 'three-lions'], [12, null], [13, 'three-lions+gold'], [14, 'three-lions+gold+side-mover'], [15, null],
  [16, 'three-lions+gold+side-mover+vertical-mover+rook'],
  [17, 'three-lions+gold+side-mover+vertical-mover+rook+dragon-king'],
];
const HANDICAP_SIDES = ['Sente ☗ (the weaker side, moves second)', 'Gote ☖ (gives the handicap, moves first)'];
const GRAV_PARAM_HELP = {
  a: 'a: consecutive limit (≥ 3)', b: 'b: density square side', c: 'c: stones allowed in a b×b square',
  d: 'd: minimum distance from the reference stone', e: 'e: maximum distance',
};

export class Lobby {
  constructor(root, meta, navigate) {
    this.root = root;
    this.meta = meta;
    this.navigate = navigate;
    this.game = prefs.get('lobbyGame', 'chu');
    if (!meta.games.some((g) => g.name === this.game)) this.game = meta.games[0].name;
    this.account = null;
    this.build();
    this.loadLists();
    this.timer = setInterval(() => this.loadLists(), 5000);
    this.startOnline();
    session().then((s) => { this.account = s; this.buildAccount(); this.buildSeats(); });
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.timer);
    this.stopOnline();
    this.stopSeek(true);
  }

  gameMeta() { return this.meta.games.find((g) => g.name === this.game); }

  build() {
    this.form = h('form', { class: 'create panel', onsubmit: (e) => { e.preventDefault(); this.create(); } });
    this.lists = h('div', { class: 'lists' });
    this.accountBox = h('div', { class: 'account panel' });
    this.quickBox = h('div', { class: 'quick panel' });
    this.onlineBox = h('div', { class: 'online panel' });
    put(this.root, h('section', { class: 'lobby' },
      h('div', { class: 'intro' }, h('p', {}, 'Play Chu Shogi, Exaç and Grav against the computer or a friend, or watch games live.')),
      this.accountBox,
      this.quickBox,
      this.onlineBox,
      h('div', { class: 'lobby-body' }, h('div', { class: 'lobby-create' }, this.form, localPanel(this.navigate)), this.lists)));
    this.buildForm();
  }

  // Logged in: the account's name, its page and a log-out button; else a log-in / sign-up
  // form (an account is optional: games by link need none).
  buildAccount() {
    const box = this.accountBox;
    const a = this.account;
    this.buildQuick();
    if (this.onlineTimer) this.loadOnline();
    if (a) {
      put(box, h('span', {}, 'Logged in as ', h('a', { href: `/@/${a.name}`, 'data-link': '', class: 'account-name' }, a.name)),
        h('button', { type: 'button', class: 'quiet', onclick: async () => {
          try { await api('/api/session', undefined, undefined, 'DELETE'); } catch (e) { /* gone already */ }
          setSession(null);
          this.account = null;
          this.buildAccount();
          this.buildSeats();
        } }, 'Log out'));
      return;
    }
    const name = h('input', { type: 'text', id: 'acct-name', autocomplete: 'username', maxlength: 20, pattern: '[A-Za-z0-9_\\-]{2,20}', required: true, 'aria-label': 'user name', placeholder: 'user name' });
    const password = h('input', { type: 'password', id: 'acct-password', autocomplete: 'current-password', minlength: 8, required: true, 'aria-label': 'password', placeholder: 'password' });
    const msg = h('span', { class: 'message', role: 'alert', hidden: true });
    const go = async (path) => {
      msg.hidden = true;
      try {
        const s = await api(path, { name: name.value.trim(), password: password.value });
        setSession(s);
        this.account = s;
        this.buildAccount();
        this.buildSeats();
      } catch (e) {
        msg.textContent = e.message;
        msg.hidden = false;
      }
    };
    const form = h('form', { class: 'account-form', onsubmit: (e) => { e.preventDefault(); go('/api/session'); } },
      name, password, h('button', { type: 'submit' }, 'Log in'),
      h('button', { type: 'button', class: 'quiet', onclick: () => { if (form.reportValidity()) go('/api/account'); } }, 'Sign up'),
      msg);
    put(box, form);
  }

  buildForm() {
    const gm = this.gameMeta();
    const f = this.form;
    const tabs = h('div', { class: 'tabs', role: 'radiogroup', 'aria-label': 'game' },
      this.meta.games.map((g) => {
        const id = `game-${g.name}`;
        const input = h('input', { type: 'radio', name: 'game', id, value: g.name,
          onchange: () => { this.game = g.name; prefs.set('lobbyGame', g.name); this.buildForm(); } });
        input.checked = g.name === this.game;
        return h('label', { for: id, class: 'tab' + (g.name === this.game ? ' on' : '') }, input, gameTitle(g.name));
      }));
    // options
    this.optInputs = {};
    const optRows = [];
    const paramRows = [];
    for (const o of gm.options) {
      let input;
      const id = `opt-${o.name}`;
      if (this.game === 'grav' && o.name === 'size') {
        input = h('select', { id }, PRIMES.map((p) => h('option', { value: p }, `${p} × ${p}`)));
        input.value = o.default;
      } else if (this.game === 'grav' && o.name === 'players') {
        input = h('select', { id, onchange: () => this.buildSeats() },
          [2, 3, 4, 5, 6].map((p) => h('option', { value: p }, String(p))));
        input.value = o.default;
      } else if (this.game === 'grav' && o.name === 'seed') {
        input = h('input', { id, type: 'text', inputmode: 'numeric', pattern: '[0-9]*', placeholder: 'random', size: 12 });
      } else if (this.game === 'grav' && 'abcde'.includes(o.name) && o.name.length === 1) {
        const [lo, hi] = o.values.split('..').map(Number);
        input = h('input', { id, type: 'number', min: Math.max(lo, 1), max: hi, placeholder: 'drawn', class: 'param' });
        this.optInputs[o.name] = { def: o, input };
        paramRows.push(h('label', { for: id, class: 'param-row', title: o.help }, h('span', {}, GRAV_PARAM_HELP[o.name] || o.name), input));
        continue;
      } else if (this.game === 'chu' && o.name === 'handicap') {
        optRows.push(this.handicapRows(o));
        continue;
      } else if (o.values.includes('|')) {
        // "a|b|c+": one value or several joined by '+'; the menu offers each one.
        const names = this.game === 'chu' ? { variant: CHU_VARIANTS, ruleset: CHU_RULESETS }[o.name] || {} : {};
        const bySet = this.game === 'chu' && CHU_RULESET_OPTIONS.includes(o.name);
        input = h('select', { id }, bySet ? h('option', { value: '' }, "the rule set's") : null,
          o.values.replace(/\+$/, '').split('|').map((v) => h('option', { value: v }, names[v] || v)));
        input.value = bySet ? '' : o.default;
        if (bySet) { this.optInputs[o.name] = { def: o, input, explicit: true }; }
        if (this.game === 'chu' && o.name === 'variant') input.addEventListener('change', () => this.syncHandicap());
      } else {
        const [lo, hi] = o.values.split('..').map(Number);
        input = h('input', { id, type: 'number', min: lo, max: hi, value: o.default });
      }
      if (!this.optInputs[o.name]) this.optInputs[o.name] = { def: o, input };
      const help = (this.game === 'chu' && CHU_HELP[o.name]) || o.help;
      optRows.push(h('div', { class: 'opt-row' }, h('label', { for: id }, o.name.replace(/_/g, ' ')), input,
        h('span', { class: 'help' }, help)));
    }
    const firstIds = { grav: ['opt-size', 'opt-players'], chu: ['opt-variant', 'opt-ruleset', 'handicap-grade'] }[this.game] || [];
    const rowId = (r) => r.querySelector('input,select').id;
    const basic = optRows.filter((r) => firstIds.includes(rowId(r)))
      .sort((a, b) => firstIds.indexOf(rowId(a)) - firstIds.indexOf(rowId(b)));
    const advanced = optRows.filter((r) => !basic.includes(r));
    this.seatsBox = h('fieldset', { class: 'seats' });
    const clock = h('select', { id: 'clock', onchange: () => { customBox.hidden = clock.value !== 'custom'; } },
      CLOCKS.map(([v, l]) => h('option', { value: v }, l)));
    clock.value = prefs.get('clock', 'none');
    const cmin = h('input', { type: 'number', id: 'clock-min', min: 0.1, max: 10080, step: 'any', value: 10, 'aria-label': 'minutes' });
    const cinc = h('input', { type: 'number', id: 'clock-inc', min: 0, max: 3600, step: 'any', value: 5, 'aria-label': 'increment in seconds' });
    const customBox = h('span', { class: 'custom-clock', hidden: clock.value !== 'custom' }, cmin, ' min + ', cinc, ' s per move');
    this.clockInputs = { clock, cmin, cinc };
    this.start = h('textarea', { id: 'start', rows: 2, placeholder: this.game === 'chu' ? 'SFEN (empty: the usual start)' : 'position text (empty: the usual start)' });
    this.errorBox = h('p', { class: 'message', role: 'alert', hidden: true });
    put(f, 
      h('h2', {}, 'New game'), tabs,
      ...basic,
      this.game === 'grav' ? h('fieldset', { class: 'grav-params' }, h('legend', {}, 'Parameters'),
        h('p', { class: 'help' }, 'Leave a parameter empty to draw it from the seed (empty seed: a random one). The drawn values are shown in the game.'),
        this.optInputs.seed ? h('label', { for: 'opt-seed', class: 'param-row' }, h('span', {}, 'seed'), this.optInputs.seed.input) : null,
        ...paramRows) : null,
      this.game === 'chu' ? this.handicapBox : null,
      this.seatsBox,
      h('div', { class: 'opt-row' }, h('label', { for: 'clock' }, 'Time control'), clock, customBox),
      advanced.length ? h('details', { class: 'advanced' }, h('summary', {}, 'Rule options'), ...advanced.filter((r) => !r.querySelector('#opt-seed'))) : null,
      h('details', { class: 'advanced' }, h('summary', {}, 'Start from a position'), this.start),
      this.errorBox,
      h('button', { type: 'submit', class: 'primary big' }, `Create the ${gameTitle(this.game)} game`));
    this.buildSeats();
    if (this.game === 'chu') this.syncHandicap();
  }

  // Chu's handicap: a menu by Adams grade, the presets as boxes (a grade ticks its presets;
  // boxes that make no grade show "other"), the option's value kept in a hidden field.
  handicapRows(o) {
    const hidden = h('input', { type: 'hidden', id: 'opt-handicap', value: o.default });
    this.optInputs.handicap = { def: o, input: hidden };
    const known = o.values.replace(/\+$/, '').split('|').filter((v) => v !== 'none');
    const order = CHU_PRESET_ORDER.filter((p) => known.includes(p)).concat(known.filter((p) => !CHU_PRESET_ORDER.includes(p)));
    const grade = h('select', { id: 'handicap-grade', onchange: () => {
      if (grade.value === 'other') return;
      const on = new Set(grade.value === 'none' ? [] : grade.value.split('+'));
      for (const [p, cb] of Object.entries(this.presetBoxes)) cb.checked = on.has(p);
      this.syncHandicap();
    } },
    h('option', { value: 'none' }, 'No handicap'),
    ADAMS.map(([g, v]) => v === null
      ? h('option', { value: `alt${g}`, disabled: true }, `Grade ${g}: alternate grades ${g - 1} and ${g + 1} over a series`)
      : h('option', { value: v, 'data-grade': g }, `Grade ${g}: ${v === 'none' ? 'no handicap (the weaker is Sente)' : v}`)),
    h('option', { value: 'other', disabled: true }, 'Other: the presets ticked below'));
    this.handicapGrade = grade;
    this.presetBoxes = {};
    this.presetOrder = order;
    const boxes = order.map((p) => {
      const cb = h('input', { type: 'checkbox', id: `hc-${p}`, value: p, onchange: () => {
        // one square cannot change twice: the two Lion presets exclude each other
        if (cb.checked && p === 'three-lions' && this.presetBoxes['two-lions']) this.presetBoxes['two-lions'].checked = false;
        if (cb.checked && p === 'two-lions' && this.presetBoxes['three-lions']) this.presetBoxes['three-lions'].checked = false;
        this.syncHandicap();
      } });
      this.presetBoxes[p] = cb;
      return h('label', { for: `hc-${p}`, class: 'preset' }, cb, h('b', {}, p), CHU_PRESETS[p] ? ` — ${CHU_PRESETS[p]}` : '');
    });
    this.handicapNote = h('p', { class: 'help handicap-note' });
    this.handicapBox = h('div', { class: 'handicap-box' },
      h('details', { class: 'advanced handicap-presets' }, h('summary', {}, 'Handicap presets (combine them)'), ...boxes),
      this.handicapNote, hidden);
    return h('div', { class: 'opt-row' }, h('label', { for: 'handicap-grade' }, 'handicap'), grade,
      h('span', { class: 'help' }, "By grade difference (Colin Adams' table), or combine presets below."));
  }

  handicapValue() {
    if (!this.presetBoxes) return 'none';
    const on = this.presetOrder.filter((p) => this.presetBoxes[p].checked);
    return on.length ? on.join('+') : 'none';
  }

  syncHandicap() {
    if (this.game !== 'chu' || !this.presetBoxes) return;
    const heisei = this.optInputs.variant && this.optInputs.variant.input.value === 'heisei';
    this.handicapGrade.disabled = heisei;
    for (const cb of Object.values(this.presetBoxes)) cb.disabled = heisei;
    const v = heisei ? 'none' : this.handicapValue();
    this.optInputs.handicap.input.value = v;
    const match = [...this.handicapGrade.options].find((op) => op.value === v && !op.disabled);
    if (this.handicapGrade.value !== v) this.handicapGrade.value = match ? v : 'other';
    this.handicapNote.textContent = heisei
      ? 'Heisei Chu takes no handicap preset (a handicap is a start position there).'
      : v !== 'none' ? `Handicap ${v}: Gote, the stronger player, gives it and moves first; Sente is the weaker side. Pick your side below.` : '';
    this.handicapNote.hidden = !this.handicapNote.textContent;
    this.handicapNote.classList.toggle('on', v !== 'none');
    const withHandicap = v !== 'none';
    if (withHandicap !== this.withHandicap) { this.withHandicap = withHandicap; this.buildSeats(); }
  }

  sideLabels() {
    if (this.game === 'chu' && this.withHandicap) return HANDICAP_SIDES;
    return SIDES[this.game];
  }

  nseats() {
    if (this.game !== 'grav') return 2;
    return Number(this.optInputs.players.input.value) || 2;
  }

  buildSeats() {
    const n = this.nseats();
    const old = this.seatRows || [];
    this.seatRows = [];
    const rows = [];
    for (let i = 0; i < n; i++) {
      const label = this.sideLabels() ? this.sideLabels()[i] : `Player ${i + 1}`;
      const type = h('select', { 'aria-label': `${label}: who plays`, class: 'seat-type' },
        h('option', { value: 'you' }, 'You'), h('option', { value: 'friend' }, 'A friend (by link)'),
        h('option', { value: 'ai' }, 'The computer'),
        h('option', { value: 'browser', title: 'the engine runs in your browser; the game is unrated' }, 'The computer, in this browser'));
      const level = h('select', { 'aria-label': `${label}: AI level`, class: 'seat-level' },
        Array.from({ length: 10 }, (_, k) => h('option', { value: k + 1 }, `level ${k + 1}${k + 1 === 10 ? ' (strongest)' : ''}`)));
      const prev = old[i];
      type.value = prev ? prev.type.value : i === 0 ? 'you' : 'ai';
      level.value = prev ? prev.level.value : '3';
      const sync = () => { level.hidden = type.value !== 'ai' && type.value !== 'browser'; };
      type.addEventListener('change', sync);
      sync();
      this.seatRows.push({ type, level });
      rows.push(h('div', { class: 'seat-row' }, h('span', { class: 'seat-label' }, label), type, level));
    }
    this.nameInput = h('input', { type: 'text', id: 'your-name', maxlength: 40, value: this.account ? this.account.name : prefs.get('name', ''), placeholder: 'optional', disabled: !!this.account });
    // A rated game: logged in, two seats, you and a friend (who must log in to join).
    this.ratedBox = n === 2 && this.account
      ? h('input', { type: 'checkbox', id: 'rated', 'aria-describedby': 'rated-help' }) : null;
    const swap = n === 2 ? h('button', { type: 'button', class: 'quiet', onclick: () => {
      const [a, b] = this.seatRows;
      [a.type.value, b.type.value] = [b.type.value, a.type.value];
      [a.level.value, b.level.value] = [b.level.value, a.level.value];
      for (const r of this.seatRows) r.level.hidden = r.type.value !== 'ai' && r.type.value !== 'browser';
    } }, '⇄ Swap sides') : null;
    put(this.seatsBox, h('legend', {}, 'Players'), ...rows,
      h('div', { class: 'seat-row' }, swap, h('label', { for: 'your-name' }, 'Your name '), this.nameInput),
      this.ratedBox ? h('div', { class: 'seat-row' }, this.ratedBox, h('label', { for: 'rated' }, ' Rated'),
        h('span', { class: 'help', id: 'rated-help' }, ' you against a friend who logs in to join; changes both ratings once each of you has moved')) : null);
  }

  request() {
    const gm = this.gameMeta();
    const options = {};
    for (const [name, { def, input, explicit }] of Object.entries(this.optInputs)) {
      const v = String(input.value).trim();
      if (v === '' || v === def.default && !explicit && !(this.game === 'grav' && name === 'players')) continue;
      options[name] = /^\d+$/.test(v) ? Number(v) : v;
    }
    const name = this.account ? '' : this.nameInput.value.trim();
    const seatsReq = this.seatRows.map((r) => r.type.value === 'ai' || r.type.value === 'browser'
      ? { type: r.type.value, level: Number(r.level.value) }
      : r.type.value === 'you' ? { type: 'human', you: true, name: name || undefined } : { type: 'human' });
    const req = { game: gm.name, options, seats: seatsReq };
    if (this.ratedBox && this.ratedBox.checked) req.rated = true;
    const { clock, cmin, cinc } = this.clockInputs;
    if (clock.value === 'custom') req.clock = { initial: Number(cmin.value) * 60, increment: Number(cinc.value) };
    else if (clock.value !== 'none') {
      const [a, b] = clock.value.split('+').map(Number);
      req.clock = { initial: a, increment: b };
    }
    const start = this.start.value.trim();
    if (start) req.start = start;
    return req;
  }

  async create() {
    const req = this.request();
    if (!this.account) prefs.set('name', this.nameInput.value.trim());
    prefs.set('clock', this.clockInputs.clock.value);
    this.errorBox.hidden = true;
    try {
      const v = await api('/api/games', req);
      const invites = [];
      for (const t of v.tokens || []) {
        if (t.you) seats.add(v.id, t.seat, t.token);
        else invites.push({ seat: t.seat, link: t.link });
      }
      seats.setInvites(v.id, invites);
      this.navigate(`/play/${v.id}`);
    } catch (e) {
      this.errorBox.textContent = e.message;
      this.errorBox.hidden = false;
    }
  }

  async loadLists() {
    const sections = [
      ['open', 'Waiting for players', 'Join or open'],
      ['live', 'Live games — watch', 'Watch'],
      ['finished', 'Finished games — replay', 'Replay'],
    ];
    let results;
    try {
      results = await Promise.all(sections.map(([st]) => api(`/api/games?status=${st}&limit=${st === 'finished' ? 30 : 50}`)));
    } catch (e) {
      put(this.lists, h('p', { class: 'message' }, `The game lists cannot be loaded: ${e.message}`));
      return;
    }
    const out = sections.map(([st, title, verb], i) => {
      const games = results[i].games;
      const rows = games.map((g) => {
        const mine = Object.keys(seats.all(g.id)).length > 0;
        // the server's name for each seat, as the game page shows it (an account's: a link
        // to its page)
        const who = g.seats.map((s) => (s.account ? h('a', { href: `/@/${s.account}`, 'data-link': '' }, s.name)
          : s.type !== 'human' || s.joined ? s.name : 'waiting for a player'))
          .flatMap((e, j) => (j ? [' vs ', e] : [e]));
        let extra = '';
        // the listing gives the options as an object (older servers: "k=v,k=v")
        const opts = g.options && typeof g.options === 'object' ? g.options
          : Object.fromEntries(String(g.options || '').split(',').filter(Boolean).map((kv) => kv.split('=')));
        if (g.game === 'grav') extra = ` ${opts.size || 13}×${opts.size || 13}, ${g.seats.length} players`;
        if (g.game === 'chu' && opts.variant === 'heisei') extra = ' (Heisei)';
        if (g.game === 'chu' && opts.handicap && opts.handicap !== 'none') extra += ` (handicap ${opts.handicap})`;
        let res = '';
        const side = (i) => (SIDES[g.game] ? SIDES[g.game][i].split(' ')[0] : `Player ${i + 1}`);
        if (g.result) res = g.result.status === 'draw' ? `draw (${g.result.reason})` : `${side(g.result.winner)} won (${g.result.reason})`;
        return h('li', { class: 'game-row' },
          h('a', { href: `/play/${g.id}`, 'data-link': '', class: 'game-link' }, `${gameTitle(g.game)}${extra}`),
          h('span', { class: 'who' }, who),
          g.rated ? h('span', { class: 'rated-tag' }, 'rated') : null,
          h('span', { class: 'n' }, `${g.n} move${g.n === 1 ? '' : 's'}`),
          res ? h('span', { class: 'res' }, res) : null,
          mine ? h('span', { class: 'you-tag' }, 'yours') : null,
          h('span', { class: 'date muted' }, fmtDate(g.updated)),
          h('a', { href: `/play/${g.id}`, 'data-link': '', class: 'verb' }, verb));
      });
      return h('section', { class: `list panel list-${st}` }, h('h2', {}, title),
        rows.length ? h('ul', {}, rows) : h('p', { class: 'muted' }, 'None right now.'));
    });
    put(this.lists, ...out);
  }
  // ---- quick pairing -----------------------------------------------------------------
  // A seek (POST /api/seeks) for a logged-in player: game, clock, rated, rating range.
  // While it waits the page polls it every 2 s (which keeps it alive: the server drops a
  // seek not polled for a minute); once paired, the seat's token is kept and the game
  // opens.
  buildQuick() {
    const box = this.quickBox;
    if (!box) return;
    if (this.seekId) return;   // the waiting view stays until paired or cancelled
    if (!this.account) {
      put(box, h('h2', {}, 'Quick pairing'), h('p', { class: 'muted' }, 'Log in to be paired with an opponent of your level.'));
      return;
    }
    const games = this.meta.games.map((g) => h('option', { value: g.name }, g.title));
    const game = h('select', { id: 'quick-game', 'aria-label': 'game' }, games);
    game.value = prefs.get('quickGame', this.game);
    const clock = h('select', { id: 'quick-clock', 'aria-label': 'clock' },
      CLOCKS.filter(([v]) => v !== 'custom').map(([v, t]) => h('option', { value: v }, t)));
    clock.value = prefs.get('quickClock', '600+5');
    const rated = h('input', { type: 'checkbox', id: 'quick-rated' });
    rated.checked = prefs.get('quickRated', true);
    const range = h('select', { id: 'quick-range', 'aria-label': 'rating range' },
      [['', 'any rating'], ['100', '± 100'], ['200', '± 200'], ['300', '± 300'], ['500', '± 500']]
        .map(([v, t]) => h('option', { value: v }, t)));
    range.value = prefs.get('quickRange', '');
    const msg = h('span', { class: 'message', role: 'alert', hidden: true });
    const form = h('form', { class: 'quick-form', onsubmit: async (e) => {
      e.preventDefault();
      prefs.set('quickGame', game.value);
      prefs.set('quickClock', clock.value);
      prefs.set('quickRated', rated.checked);
      prefs.set('quickRange', range.value);
      const req = { game: game.value, rated: rated.checked, clock: null };
      if (clock.value !== 'none') {
        const [a, b] = clock.value.split('+').map(Number);
        req.clock = { initial: a, increment: b };
      }
      if (game.value === 'grav') req.options = { players: 2 };
      if (range.value) req.range = Number(range.value);
      msg.hidden = true;
      try {
        this.seekState(await api('/api/seeks', req));
      } catch (err) {
        msg.textContent = err.message;
        msg.hidden = false;
      }
    } },
    h('label', {}, 'Game ', game), ' ', h('label', {}, 'Clock ', clock), ' ',
    h('label', {}, rated, ' rated'), ' ', h('label', {}, 'Opponent ', range), ' ',
    h('button', { type: 'submit' }, 'Find an opponent'), msg);
    put(box, h('h2', {}, 'Quick pairing'), form);
  }

  // What the server says of our seek: wait (and poll), or go to the game.
  seekState(s) {
    if (s.status === 'paired') {
      this.stopSeek(false);
      seats.add(s.game, s.seat, s.token);
      this.navigate(`/play/${s.game}`);
      return;
    }
    if (this.seekId !== s.id) {
      this.seekId = s.id;
      put(this.quickBox, h('h2', {}, 'Quick pairing'),
        h('p', { class: 'waiting' }, 'Waiting for an opponent… ',
          h('button', { type: 'button', class: 'quiet', id: 'quick-cancel', onclick: () => this.stopSeek(true) }, 'Cancel')));
      clearInterval(this.seekTimer);
      this.seekTimer = setInterval(() => this.pollSeek(), 2000);
    }
  }

  async pollSeek() {
    const id = this.seekId;
    if (!id || this.seekPolling) return;
    this.seekPolling = true;
    try {
      const s = await api(`/api/seeks/${id}`);
      if (this.seekId === id) this.seekState(s);
    } catch (e) {
      // gone (expired while the page slept, or cancelled elsewhere): back to the form
      if (e.status === 404 && this.seekId === id) {
        this.stopSeek(false);
      }
    } finally {
      this.seekPolling = false;
    }
  }

  // Stops waiting; cancel: the seek is deleted on the server too.
  stopSeek(cancel) {
    clearInterval(this.seekTimer);
    this.seekTimer = null;
    const id = this.seekId;
    this.seekId = null;
    if (cancel && id) api(`/api/seeks/${id}`, undefined, undefined, 'DELETE').catch(() => {});
    if (!this.destroyed) this.buildQuick();
  }

  // ---- who is online -----------------------------------------------------------------
  // GET /api/online every 30 s (a logged-in reader's request keeps it online too).
  startOnline() {
    this.loadOnline();
    this.onlineTimer = setInterval(() => this.loadOnline(), 30000);
  }

  stopOnline() { clearInterval(this.onlineTimer); }

  async loadOnline() {
    let o;
    try {
      o = await api('/api/online');
    } catch (e) {
      return;
    }
    const names = o.names.map((n) => h('a', { href: `/@/${n}`, 'data-link': '', class: 'online-name' }, n))
      .flatMap((e, j) => (j ? [', ', e] : [e]));
    put(this.onlineBox, h('h2', {}, `Online (${o.count})`),
      o.count ? h('p', {}, names) : h('p', { class: 'muted' }, 'Nobody logged in right now.'));
  }
}
