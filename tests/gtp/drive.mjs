// Peer test: the @sabaki/gtp Controller (the GTP layer of the Sabaki GUI) runs
// 'gravulien gtp' as a subprocess and plays whole Grav games through plain GTP:
//   1. genmove against genmove (bonus mode sync, 7x7);
//   2. the controller's own player (play, a random legal vertex) against genmove
//      (bonus mode full, 5x5, with a clock);
//   3. genmove against genmove on 11x11 with ids on every command.
// Every genmove answer must be a move the engine listed as legal just before and the one
// its own turn log reports; every game must end, and final_score must have GTP's form and
// agree with the engine's verdict.
import gtp from '@sabaki/gtp'

const {Controller} = gtp
const bin = process.argv[2]
let failures = 0
let checks = 0

function check(cond, what) {
  checks++
  if (!cond) {
    failures++
    console.log(`FAIL ${what}`)
  }
}

// A tiny deterministic PRNG so that a failing run replays.
function rng(seed) {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 4294967296
  }
}

async function session(args, useIds) {
  const c = new Controller(bin, ['gtp', ...args])
  c.start()
  let nextId = 1
  const send = async (name, ...a) => {
    const cmd = {name, args: a.map(String)}
    if (useIds) cmd.id = nextId++
    const r = await c.sendCommand(cmd)
    if (useIds) check(r.id === cmd.id, `${name}: id ${r.id} echoed as ${cmd.id}`)
    return r
  }
  const must = async (name, ...a) => {
    const r = await send(name, ...a)
    if (r.error) throw new Error(`${name} ${a.join(' ')} failed: ${r.content}`)
    return r.content
  }
  return {c, send, must}
}

async function playGame(label, {args, size, controllerPlays, useIds, seed, clock}) {
  const {c, send, must} = await session(args, useIds)
  const random = rng(seed)
  try {
    check((await must('protocol_version')) === '2', `${label}: protocol_version`)
    check((await must('name')) === 'Gravulien', `${label}: name`)
    const list = (await must('list_commands')).split('\n')
    for (const name of ['play', 'genmove', 'undo', 'final_score', 'grav-legal', 'grav-state'])
      check(list.includes(name), `${label}: list_commands has ${name}`)
    check((await must('known_command', 'genmove')) === 'true', `${label}: known_command`)
    const bad = await send('boardsize', 9)
    check(bad.error && bad.content === 'unacceptable size', `${label}: boardsize 9 refused`)
    const unknown = await send('frobnicate')
    check(unknown.error && unknown.content === 'unknown command', `${label}: unknown command`)
    await must('boardsize', size)
    await must('clear_board')
    await must('komi', 6.5)
    if (clock) await must('time_settings', 30, 0, 0)
    check((await must('grav-state')) === 'turn black', `${label}: black starts`)

    let color = 'b'
    let passes = 0
    let moves = 0
    while (passes < 2) {
      if (++moves > 8 * size * size + 10) throw new Error('the game does not end')
      const legal = (await must('grav-legal')).split(' ')
      const name = color === 'b' ? 'black' : 'white'
      let answer
      if (color === controllerPlays) {
        const vertices = legal.filter(v => /^[A-Z]\d+$/.test(v))
        answer = vertices.length ? vertices[Math.floor(random() * vertices.length)] : 'pass'
        if (random() < 0.03) answer = 'pass'
        const illegal = await send('play', color, 'A99')
        check(illegal.error, `${label}: play off the board refused`)
        await must('play', color, answer)
      } else {
        if (clock) await must('time_left', color, 30, 0)
        answer = await must('genmove', color)
        check(answer === 'pass' || legal.includes(answer),
              `${label}: genmove ${color} answered ${answer}, not among the legal moves`)
        const log = (await must('grav-last-turn')).split('\n')
        const mine = log.filter(l => l.startsWith(name) && !l.endsWith('(default)'))
        const expected = answer === 'pass' ? `${name} pass` : `${name} place ${answer}`
        check(mine.length > 0 && mine[0] === expected,
              `${label}: turn log '${log.join(' / ')}' does not start with '${expected}'`)
      }
      // The engine's own board holds the stone (showboard is the engine's view).
      if (answer !== 'pass') {
        const board = await must('showboard')
        const x = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'.indexOf(answer[0])
        const row = board.split('\n').find(l => l.trim().startsWith(answer.slice(1) + ' '))
        const cell = row ? row.slice(4 + 2 * x, 5 + 2 * x) : ''
        check(cell === (color === 'b' ? 'X' : 'O'), `${label}: ${answer} shows '${cell}'`)
      }
      passes = answer === 'pass' ? passes + 1 : 0
      color = color === 'b' ? 'w' : 'b'
      const state = await must('grav-state')
      if (state.startsWith('over')) break
    }
    const state = await must('grav-state')
    check(state.startsWith('over'), `${label}: the game is over (${state})`)
    const score = await must('final_score')
    check(/^(0|[BW]\+(\d+|R))$/.test(score), `${label}: final_score '${score}' has GTP's form`)
    const winner = state.split(' ')[1]
    check(score[0] === (winner === 'black' ? 'B' : 'W'), `${label}: ${score} agrees with '${state}'`)
    const again = await must('genmove', color)
    check(again === 'pass', `${label}: genmove after the end passes`)
    check((await must('undo')) === '', `${label}: undo after the end`)
    check(!(await must('grav-state')).startsWith('over'), `${label}: undo reopens the game`)
    console.log(`ok   ${label}: ${moves} moves, ${state}, final_score ${score}`)
  } catch (err) {
    failures++
    console.log(`FAIL ${label}: ${err.message}`)
  } finally {
    await c.stop()
  }
}

const timer = setTimeout(() => {
  console.log('FAIL timeout')
  process.exit(1)
}, 120000)
await playGame('genmove vs genmove 7x7 sync', {
  args: ['--level', '1', '--seed', '1'], size: 7, seed: 1,
})
await playGame('play vs genmove 5x5 full clock', {
  args: ['--level', '2', '--bonus', 'full'], size: 5, controllerPlays: 'b', seed: 7, clock: true,
})
await playGame('genmove vs genmove 11x11 ids', {
  args: ['--level', '1', '--game-seed', '5'], size: 11, useIds: true, seed: 3,
})
clearTimeout(timer)
console.log(`${checks} checks, ${failures} failed`)
process.exit(failures ? 1 : 0)
