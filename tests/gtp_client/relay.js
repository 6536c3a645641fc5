// Sabaki's GTP client (@sabaki/gtp) drives `python -m protocol gtp` as a Go GUI does:
// it sends every command the engine lists and checks how the library parses each
// answer, then relays a 9x9 game between zermelo and GNU Go, each behind its own
// Controller, and prints one JSON summary on stdout for tests/test_gtp_client.py.
//
//   node relay.js --python PYTHON --gnugo GNUGO --dir TMPDIR [--moves 20] [--movetime 200]
//                 [--colour white|black]   (zermelo's colour; the game ends at two passes)
'use strict'

const fs = require('fs')
const path = require('path')
const Board = require('@sabaki/go-board')
const {Controller} = require('@sabaki/gtp')
const {parseAnalysis, problems} = require('./sabaki_analysis')

const REPO = path.resolve(__dirname, '..', '..')
const VERTEX = /^([A-HJ-T](1[0-9]|[1-9])|pass)$/i
// Generous: the machine may be loaded; a stuck engine must still end the run.
const TIMEOUT_MS = 120000

function options(argv) {
  const opts = {moves: 20, movetime: 200, colour: 'white'}
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) throw new Error(`bad arguments: ${argv.join(' ')}`)
    opts[argv[i].slice(2)] = argv[i + 1]
  }
  for (const key of ['python', 'gnugo', 'dir'])
    if (!opts[key]) throw new Error(`missing --${key}`)
  opts.moves = +opts.moves
  return opts
}

function withTimeout(promise, what) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${what} in ${TIMEOUT_MS} ms`)), TIMEOUT_MS)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

function parseCommand(text) {
  const [name, ...args] = text.split(/\s+/)
  return {name, args}
}

// One engine: every exchange goes through Controller.sendCommand with an id, and the
// library's Response (id, error, content) is what the checks read.
class Engine {
  constructor(name, controller) {
    this.name = name
    this.controller = controller
    this.nextId = 1
    this.stderr = []
    controller.on('stderr', ({content}) => this.stderr.push(content))
    controller.start()
  }

  async send(text, subscriber) {
    const command = {id: this.nextId++, ...parseCommand(text)}
    const response = await withTimeout(this.controller.sendCommand(command, subscriber), `${this.name}: ${text}`)
    if (response.id !== command.id) throw new Error(`${this.name}: ${text}: answer id ${response.id}, sent ${command.id}`)
    return response
  }
}

// The stones of a board as showboard draws it: rows "NN c c c ... NN" from the top.
function boardStones(board) {
  const stones = {black: [], white: []}
  for (const line of board.split('\n')) {
    const m = line.match(/^\s*(\d+) ((?:[.XO] )*[.XO]) \1$/)
    if (!m) continue
    m[2].split(' ').forEach((cell, c) => {
      const vertex = 'ABCDEFGHJKLMNOPQRST'[c] + m[1]
      if (cell === 'X') stones.black.push(vertex)
      if (cell === 'O') stones.white.push(vertex)
    })
  }
  return stones
}

const sorted = list => [...list].map(v => v.toUpperCase()).sort()

async function conformance(zermelo, dir, summary) {
  const listed = (await zermelo.send('list_commands')).content.split('\n').map(s => s.trim()).filter(Boolean)
  summary.commands = listed
  const covered = new Set()
  const sgf = path.join(dir, 'game.sgf')

  // Each case: the command, whether the library must parse a success, and a check of
  // the content (true, or a string saying what is wrong).
  const check = async (text, ok, test = () => true) => {
    covered.add(parseCommand(text).name)
    const response = await zermelo.send(text)
    const verdict = response.error === !ok ? test(response.content) : `answered ${response.error ? '?' : '='}`
    if (verdict !== true)
      summary.failures.push({command: text, expected: ok ? 'success' : 'error', content: response.content,
                             why: verdict || 'wrong content'})
    if (ok && response.error) summary.errors.push({engine: 'zermelo', command: text, content: response.content})
    return response.content
  }
  const board = () => zermelo.send('showboard').then(r => r.content)

  await check('protocol_version', true, c => c === '2')
  await check('name', true, c => c === 'zermelo')
  await check('version', true, c => c.length > 0)
  await check('known_command play', true, c => c === 'true')
  await check('known_command no_such_command', true, c => c === 'false')
  await check('list_commands', true, c => c.split('\n').includes('genmove'))
  await check('help', true, c => c.split('\n').length === listed.length)
  await check('no_such_command', false)
  await check('boardsize 0', false)
  await check('boardsize 26', false)
  await check('boardsize 9', true)
  await check('clear_board', true)
  await check('komi 6.5', true)
  await check('komi seven', false)
  await check('play b E5', true)
  // Refused commands keep the game: the board is the same after each.
  const afterE5 = await board()
  await check('play w E5', false)
  await check('play b Z99', false)
  await check('play purple C3', false)
  summary.keptAfterErrors = (await board()) === afterE5
  await check('showboard', true, c => c === afterE5 && boardStones(c).black.join() === 'E5' || c)
  await check('genmove w', true, c => VERTEX.test(c) || `not a vertex: ${c}`)
  const beforeReg = await board()
  await check('reg_genmove b', true, c => VERTEX.test(c) || `not a vertex: ${c}`)
  summary.regGenmoveKeepsBoard = (await board()) === beforeReg
  await check('all_legal b', true, c => {
    const stones = boardStones(beforeReg)
    const free = 81 - stones.black.length - stones.white.length
    return c.split(/\s+/).length === free || `${c.split(/\s+/).length} legal moves, ${free} empty points`
  })
  await check('undo', true)
  await check('final_score', true, c => /^(0|[BW]\+[0-9]+(\.[0-9]+)?)$/.test(c) || `not a score: ${c}`)
  await check('final_status_list alive', true, c => sorted(c.split(/\s+/)).join(' ') === 'E5' || `alive: ${c}`)
  await check('final_status_list dead', true, c => c === '')
  await check('final_status_list seki', true, c => c === '')
  await check('final_status_list everything', false)
  await check(`printsgf ${sgf}`, true, () => fs.existsSync(sgf) || 'no file written')
  await check('printsgf', true, c => c.startsWith('(;') || `not SGF: ${c.slice(0, 40)}`)
  await check('clear_board', true)
  await check(`loadsgf ${sgf}`, true, c => c === 'white' || `to move: ${c}`)
  summary.sgfRoundTrip = (await board()) === afterE5
  await check(`loadsgf ${path.join(dir, 'missing.sgf')}`, false)
  summary.keptAfterBadLoad = (await board()) === afterE5
  await check('undo', true)
  await check('undo', false)
  await check('fixed_handicap 4', true, c => sorted(c.split(/\s+/)).join(' ') === 'C3 C7 G3 G7' || c)
  await check('fixed_handicap 4', false)
  await check('clear_board', true)
  await check('set_free_handicap C3 G7 E5', true)
  await check('set_free_handicap D4 F6', false)
  await check('clear_board', true)
  await check('time_settings 60 5 1', true)
  await check('time_left w 30 0', true)
  await check('time_settings -1 0 0', false)
  await check('time_left w soon 0', false)
  await check('time_settings 0 1 0', true)  // GTP's "no time limits": the move time again
  await check('kgs-time_settings byoyomi 60 10 3', true)
  await check('kgs-time_settings sudden 5', false)
  await check('kgs-time_settings byoyomi 60 10', false)
  await check('kgs-time_settings none', true)
  await check('gogui-interrupt', true)
  await check('gogui-analyze_commands', true, c => c.includes('/final_score') || c)
  await check('zermelo-movetime 100', true)
  await check('zermelo-movetime soon', false)
  await check('zermelo-setoption Hash 16', true)
  await check('zermelo-setoption UCI_Variant chess', false)
  await check('list_games', true, c => c.split('\n').includes('Go') || c)
  await check('set_game Chess', false)
  await check('set_game Go', true)
  await check('kgs-genmove_cleanup w', true, c => VERTEX.test(c) || `not a vertex: ${c}`)
  await check('kgs-genmove_cleanup', false)
  await check('undo', true)

  // GoGui's interrupt: a raw "# interrupt" line (no answer of its own) while a genmove
  // that would take ten minutes runs; the genmove then answers its best move so far.
  await check('zermelo-movetime 600000', true)
  covered.add('genmove')
  const genmove = zermelo.send('genmove b')
  zermelo.controller.process.stdin.write('# interrupt\n')
  const interrupted = await genmove
  summary.interrupt = {error: interrupted.error, move: interrupted.content}
  await check(`zermelo-movetime ${summary.movetime}`, true)

  // The analyses as Sabaki sends them: the answer streams "info move ..." lines, read
  // with Sabaki's parser, and the next command (sent while the stream runs) ends it.
  const goban = Board.fromDimensions(9, 9)
  summary.analyze = {}
  for (const [name, args, ownership] of [['lz-analyze', ['w', '10'], false],
                                         ['kata-analyze', ['w', '10', 'ownership', 'true'], true]]) {
    covered.add(name)
    const record = {lines: 0, parsed: 0, problems: []}
    let firstInfo
    const seen = new Promise(resolve => (firstInfo = resolve))
    const analysis = zermelo.send([name, ...args].join(' '), ({line}) => {
      if (!line.startsWith('info ')) return
      record.lines += 1
      const found = problems(line, parseAnalysis(line, goban, -1), goban, ownership)
      if (found.length === 0) record.parsed += 1
      else record.problems.push({line: line.slice(0, 200), found})
      firstInfo()
    })
    await withTimeout(seen, `${name} info`)
    const next = zermelo.send('name')
    const analysed = await analysis
    summary.analyze[name] = {...record, error: analysed.error, next: (await next).content}
  }
  await check('zermelo-ownership', true, c => c.trim().split('\n').length === 9 || c)
  await check('zermelo-candidates b', true, c => /^LABEL /m.test(c) && /^VAR b /m.test(c) || c)
  // A genmove that streams its analysis, then "play MOVE", as Sabaki's generateMove reads it.
  for (const name of ['lz-genmove_analyze', 'kata-genmove_analyze']) {
    covered.add(name)
    const record = {lines: 0, parsed: 0, play: null}
    const response = await zermelo.send(`${name} b 10`, ({line}) => {
      if (line.startsWith('play ')) record.play = line.slice(5)
      if (!line.startsWith('info ')) return
      record.lines += 1
      if (problems(line, parseAnalysis(line, goban, 1), goban, false).length === 0) record.parsed += 1
    })
    summary.analyze[name] = {...record, error: response.error}
    await check('undo', true)
  }

  covered.add('quit')  // sent at the end, when the process must then exit
  summary.untested = listed.filter(name => !covered.has(name))
}

async function game(zermelo, gnugo, opts, summary) {
  for (const engine of [zermelo, gnugo]) {
    for (const text of ['boardsize 9', 'clear_board', 'komi 7.5']) {
      const response = await engine.send(text)
      if (response.error) summary.errors.push({engine: engine.name, command: text, content: response.content})
    }
  }
  const players = opts.colour === 'black' ? {black: zermelo, white: gnugo} : {black: gnugo, white: zermelo}
  const record = {zermelo: opts.colour, moves: [], refused: [], ended: 'moves'}
  summary.game = record
  let passes = 0
  for (let i = 0; i < 2 * opts.moves; i++) {
    const colour = i % 2 ? 'white' : 'black'
    const mover = players[colour]
    const other = players[colour === 'black' ? 'white' : 'black']
    const answer = await mover.send(`genmove ${colour}`)
    if (answer.error) {
      summary.errors.push({engine: mover.name, command: `genmove ${colour}`, content: answer.content})
      break
    }
    const move = answer.content.toLowerCase() === 'pass' ? 'pass' : answer.content.toUpperCase()
    if (move === 'RESIGN') {
      record.ended = `${mover.name} resigned`
      break
    }
    if (!VERTEX.test(move)) record.refused.push({by: 'client', colour, move})
    const played = await other.send(`play ${colour} ${move}`)
    record.moves.push({colour, engine: mover.name, move})
    if (played.error) {
      record.refused.push({by: other.name, colour, move, reason: played.content})
      break
    }
    passes = move === 'pass' ? passes + 1 : 0
    if (passes === 2) {
      record.ended = 'two passes'
      break
    }
  }
  const drawn = boardStones((await zermelo.send('showboard')).content)
  record.stones = {zermelo: {black: sorted(drawn.black), white: sorted(drawn.white)}, gnugo: {}}
  for (const colour of ['black', 'white']) {
    const listed = await gnugo.send(`list_stones ${colour}`)
    record.stones.gnugo[colour] = sorted(listed.content.split(/\s+/).filter(Boolean))
  }
  record.stonesAgree = JSON.stringify(record.stones.zermelo) === JSON.stringify(record.stones.gnugo)
  record.finalScore = {}
  for (const engine of [zermelo, gnugo]) {
    const score = await engine.send('final_score')
    record.finalScore[engine.name] = score.error ? `? ${score.content}` : score.content
  }
}

async function main() {
  const opts = options(process.argv.slice(2))
  const summary = {movetime: +opts.movetime, failures: [], errors: []}
  const zermelo = new Engine('zermelo', new Controller(opts.python, ['-m', 'protocol', 'gtp', '--movetime', String(opts.movetime)], {cwd: REPO}))
  const gnugo = new Engine('gnugo', new Controller(opts.gnugo, ['--mode', 'gtp', '--level', '0']))
  try {
    await conformance(zermelo, opts.dir, summary)
    await game(zermelo, gnugo, opts, summary)
  } catch (err) {
    summary.crash = String(err && err.stack || err)
  }
  // quit through the library (zermelo's answer is checked), then the process must end.
  summary.quit = {}
  for (const engine of [zermelo, gnugo]) {
    if (engine.controller.process == null) continue
    const exit = new Promise(resolve => engine.controller.once('stopped', ({signal}) => resolve(signal)))
    try {
      const response = await engine.send('quit')
      summary.quit[engine.name] = {error: response.error, exit: await withTimeout(exit, `${engine.name} exit`)}
    } catch (err) {
      summary.quit[engine.name] = {crash: String(err)}
      await engine.controller.kill()
    }
  }
  summary.stderr = zermelo.stderr.slice(-20)
  process.stdout.write(JSON.stringify(summary) + '\n')
}

main().catch(err => {
  process.stdout.write(JSON.stringify({crash: String(err && err.stack || err)}) + '\n')
  process.exitCode = 1
})
