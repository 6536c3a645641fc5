// A game between zermelo and GNU Go played as Sabaki plays an engine-against-engine
// game, through Sabaki's GTP library over pipes: each engine behind a Controller and a
// ControllerStateTracker, synchronised before every move (komi, boardsize, time settings
// and the moves so far); a move asked with the engine's genmove_analyze command when it
// lists one (Sabaki's order: genmove_analyze, kata-genmove_analyze, lz-genmove_analyze),
// else genmove; every few moves zermelo analyses the position with lz-analyze and
// kata-analyze ... ownership true in turn, for a while, then the next command ends the
// analysis (Sabaki's "protocol_version"). Every analysis line is read with Sabaki's
// parser (sabaki_analysis.js). At the end: final_score and final_status_list dead from
// both (zermelo's alone when the game was stopped at --max-moves). One JSON summary on stdout; with --transcript, every command, answer line and
// standard error line of both engines, timed, in that file.
//
//   node session.js --python PYTHON --gnugo GNUGO [--size 19] [--komi 7.5] [--level 1]
//        [--colour black|white] [--byoyomi 1] [--max-moves 0] [--analyze-every 20]
//        [--analyze-ms 2000] [--interval 50] [--transcript FILE] [--sgf FILE]
'use strict'

const fs = require('fs')
const path = require('path')
const Board = require('@sabaki/go-board')
const {Controller, ControllerStateTracker} = require('@sabaki/gtp')
const {parseAnalysis, problems} = require('./sabaki_analysis')

const REPO = path.resolve(__dirname, '..', '..')
const GENMOVE_ANALYZE = ['genmove_analyze', 'kata-genmove_analyze', 'lz-genmove_analyze']
// Generous: the machine may be loaded; a stuck engine must still end the run.
const TIMEOUT_MS = 300000

function options(argv) {
  const opts = {size: 19, komi: 7.5, level: 1, colour: 'black', byoyomi: 1, 'max-moves': 0,
                'analyze-every': 20, 'analyze-ms': 2000, interval: 50}
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) throw new Error(`bad arguments: ${argv.join(' ')}`)
    opts[argv[i].slice(2)] = argv[i + 1]
  }
  for (const key of ['python', 'gnugo'])
    if (!opts[key]) throw new Error(`missing --${key}`)
  for (const key of ['size', 'komi', 'level', 'byoyomi', 'max-moves', 'analyze-every', 'analyze-ms', 'interval'])
    opts[key] = +opts[key]
  return opts
}

function withTimeout(promise, what) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${what} in ${TIMEOUT_MS} ms`)), TIMEOUT_MS)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

// One engine as Sabaki's EngineSyncer holds it; every exchange is written to the
// transcript, and every "?" answer or lost answer is a protocol error.
class Player {
  constructor(name, executable, args, summary, log) {
    this.name = name
    this.controller = new Controller(executable, args, {cwd: REPO})
    this.tracker = new ControllerStateTracker(this.controller)
    this.controller.on('command-sent', ({command, subscribe, getResponse}) => {
      const text = [command.name, ...command.args].join(' ')
      log(`${name} < ${text}`)
      subscribe(({line}) => log(`${name} > ${line}`))
      getResponse().then(
        response => response.error && summary.protocolErrors.push({engine: name, command: text, content: response.content}),
        err => summary.protocolErrors.push({engine: name, command: text, content: `no answer: ${err}`}))
    })
    this.controller.on('stderr', ({content}) => log(`${name} ! ${content}`))
    this.controller.on('stopped', ({signal}) => {
      if (!this.quitting) summary.protocolErrors.push({engine: name, command: null, content: `exited (${signal})`})
    })
    this.controller.start()
  }

  send(command, subscriber) {
    return withTimeout(this.tracker.queueCommand(command, subscriber), `${this.name}: ${command.name}`)
  }
}

async function main() {
  const opts = options(process.argv.slice(2))
  const started = Date.now()
  const out = opts.transcript ? fs.openSync(opts.transcript, 'w') : null
  const log = text => out != null && fs.writeSync(out, `${((Date.now() - started) / 1000).toFixed(3)} ${text}\n`)
  const board = Board.fromDimensions(opts.size, opts.size)
  const summary = {
    size: opts.size, komi: opts.komi, zermelo: opts.colour, gnugoLevel: opts.level, byoyomi: opts.byoyomi,
    moves: 0, ended: null, protocolErrors: [], refused: [],
    analysis: {commands: {}, lines: 0, parsed: 0, withOwnership: 0, problems: []},
    genmoveAnalysis: {command: null, lines: 0, parsed: 0, problems: []},
  }
  const zermelo = new Player('zermelo', opts.python, ['-m', 'protocol', 'gtp'], summary, log)
  const gnugo = new Player('gnugo', opts.gnugo, ['--mode', 'gtp', '--level', String(opts.level)], summary, log)
  const players = opts.colour === 'black' ? {B: zermelo, W: gnugo} : {B: gnugo, W: zermelo}

  // One analysis line as Sabaki reads it (sign: the colour analysed, W -1).
  const read = (record, line, sign, wantOwnership) => {
    record.lines += 1
    let found
    try {
      found = problems(line, parseAnalysis(line, board, sign), board, wantOwnership)
    } catch (err) {
      found = [`parser threw ${err}`]
    }
    if (found.length === 0) record.parsed += 1
    else if (record.problems.length < 20) record.problems.push({line: line.slice(0, 300), found})
    return found.length === 0
  }

  const history = []
  const state = player => ({
    komi: opts.komi, boardsize: [opts.size, opts.size], history,
    timeSettings: player === zermelo ? {mainTime: 0, byoyomiTime: opts.byoyomi, byoyomiStones: 1} : null,
  })

  // Sabaki's analyzeMove, then its sendAbort after a while.
  const analyse = async (colour, kata) => {
    const name = kata ? 'kata-analyze' : 'lz-analyze'
    const args = [colour, String(opts.interval), ...(kata ? ['ownership', 'true'] : [])]
    summary.analysis.commands[name] = (summary.analysis.commands[name] || 0) + 1
    await withTimeout(zermelo.tracker.sync(state(zermelo)), 'zermelo: sync')
    const sign = colour === 'W' ? -1 : 1
    let firstInfo
    const seen = new Promise(resolve => (firstInfo = resolve))
    const running = zermelo.send({name, args}, ({line}) => {
      if (!line.startsWith('info ')) return
      if (read(summary.analysis, line, sign, kata) && kata) summary.analysis.withOwnership += 1
      firstInfo()
    })
    // As a user does: a while, and until the first line is shown.
    await sleep(opts['analyze-ms'])
    await withTimeout(seen, `zermelo: ${name} info`)
    if (zermelo.controller.busy) await zermelo.controller.sendCommand({name: 'protocol_version'})
    await running
  }

  // Sabaki's generateMove.
  const generate = async (player, colour) => {
    await withTimeout(player.tracker.sync(state(player)), `${player.name}: sync`)
    let name = 'genmove'
    for (const candidate of GENMOVE_ANALYZE) {
      if (await player.tracker.knowsCommand(candidate)) {
        name = candidate
        break
      }
    }
    if (name === 'genmove') {
      const response = await player.send({name, args: [colour]})
      return response.error ? null : response.content.trim()
    }
    summary.genmoveAnalysis.command = name
    let coord = null
    const sign = colour === 'W' ? -1 : 1
    const response = await player.send({name, args: [colour, String(opts.interval)]}, ({line}) => {
      if (line.startsWith('info ')) read(summary.genmoveAnalysis, line, sign, false)
      else if (line.startsWith('play ')) coord = line.slice('play '.length).trim()
    })
    return response.error ? null : coord
  }

  let passes = 0
  const moveSeconds = {zermelo: 0, gnugo: 0}
  try {
    for (let ply = 0; ; ply++) {
      if (opts['max-moves'] > 0 && ply >= opts['max-moves']) {
        summary.ended = 'move limit'
        break
      }
      const colour = ply % 2 ? 'W' : 'B'
      const player = players[colour]
      if (opts['analyze-every'] > 0 && ply % opts['analyze-every'] === 0)
        await analyse(colour, (ply / opts['analyze-every']) % 2 === 1)
      const before = Date.now()
      const coord = await generate(player, colour)
      moveSeconds[player.name] += (Date.now() - before) / 1000
      if (coord == null) {
        summary.ended = `${player.name} gave no move`
        break
      }
      if (coord.toLowerCase() === 'resign') {
        summary.ended = `${player.name} resigned`
        break
      }
      const vertex = coord.toLowerCase() === 'pass' ? 'pass' : coord.toUpperCase()
      if (vertex !== 'pass' && !board.has(board.parseVertex(vertex))) summary.refused.push({by: 'client', colour, vertex})
      history.push({name: 'play', args: [colour, vertex]})
      summary.moves += 1
      passes = vertex === 'pass' ? passes + 1 : 0
      if (passes === 2) {
        summary.ended = 'two passes'
        break
      }
    }
    summary.finalScore = {}
    summary.dead = {}
    // GNU Go's count of an unfinished 19x19 board takes minutes: asked at a game's end only.
    for (const player of summary.ended === 'move limit' ? [zermelo] : [zermelo, gnugo]) {
      await withTimeout(player.tracker.sync(state(player)), `${player.name}: sync`)
      summary.finalScore[player.name] = (await player.send({name: 'final_score', args: []})).content.trim()
      const dead = (await player.send({name: 'final_status_list', args: ['dead']})).content
      summary.dead[player.name] = dead.split(/\s+/).filter(Boolean).length
    }
    if (opts.sgf) await zermelo.send({name: 'printsgf', args: [opts.sgf]})
  } catch (err) {
    summary.crash = String(err && err.stack || err)
  }
  summary.seconds = Math.round((Date.now() - started) / 1000)
  summary.moveSeconds = {zermelo: Math.round(moveSeconds.zermelo), gnugo: Math.round(moveSeconds.gnugo)}
  for (const player of [zermelo, gnugo]) {
    player.quitting = true
    try {
      await withTimeout(player.controller.stop(10000), `${player.name}: quit`)
    } catch (err) {
      await player.controller.kill()
    }
  }
  if (out != null) fs.closeSync(out)
  process.stdout.write(JSON.stringify(summary) + '\n')
}

main().catch(err => {
  process.stdout.write(JSON.stringify({crash: String(err && err.stack || err)}) + '\n')
  process.exitCode = 1
})
