// The page's sounds, made with the Web Audio API (no sound files): a short knock for a
// move, a lower and rougher one for a capture, three rising notes for the end of a game.
// Off by default; the choice is remembered by this browser (prefs 'sound'). No audio
// context is made while the sound is off.
import { prefs } from './util.js';

let ctx = null;

function context() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    try { ctx = new AC(); } catch (e) { return null; }
  }
  // a context made before any click of the page starts suspended
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

// A tone from f0 to f1 Hz starting at t (seconds of the context), gain peak, length len.
function tone(c, type, f0, f1, t, peak, len) {
  const o = c.createOscillator(), g = c.createGain();
  o.type = type;
  o.frequency.setValueAtTime(f0, t);
  o.frequency.exponentialRampToValueAtTime(f1, t + len);
  g.gain.setValueAtTime(0.0001, t);
  g.gain.exponentialRampToValueAtTime(peak, t + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, t + len);
  o.connect(g).connect(c.destination);
  o.start(t);
  o.stop(t + len + 0.02);
}

// A burst of filtered noise (the wood of a capture).
function noise(c, t, peak, len, freq) {
  const n = Math.floor(c.sampleRate * len);
  const buf = c.createBuffer(1, n, c.sampleRate), d = buf.getChannelData(0);
  for (let i = 0; i < n; i++) d[i] = (Math.random() * 2 - 1) * (1 - i / n);
  const src = c.createBufferSource(), f = c.createBiquadFilter(), g = c.createGain();
  src.buffer = buf;
  f.type = 'bandpass';
  f.frequency.value = freq;
  g.gain.value = peak;
  src.connect(f).connect(g).connect(c.destination);
  src.start(t);
}

export const sound = {
  get on() { return prefs.get('sound', false) === true; },
  set(on) {
    prefs.set('sound', !!on);
    if (on) context();          // the click that turns it on lets the context play
  },
  // kind: 'move', 'capture' or 'end'
  play(kind) {
    if (!this.on) return;
    const c = context();
    if (!c) return;
    const t = c.currentTime + 0.01;
    if (kind === 'capture') {
      tone(c, 'triangle', 330, 140, t, 0.35, 0.13);
      noise(c, t, 0.5, 0.09, 900);
    } else if (kind === 'end') {
      [523.25, 659.25, 783.99].forEach((f, i) => tone(c, 'sine', f, f, t + i * 0.14, 0.22, 0.3));
    } else {
      tone(c, 'triangle', 720, 380, t, 0.3, 0.07);
    }
  },
};
