// How Sabaki reads an analysis line (lz-analyze, kata-analyze, *-genmove_analyze).
// Sabaki's parser is not published on npm: it is parseAnalysis() in Sabaki's
// src/modules/enginesyncer.js (SabakiHQ/Sabaki, MIT). This follows its rules and
// regular expressions step by step, with @sabaki/go-board's vertex parsing as Sabaki
// uses it, so that a line it would misread is misread here too:
//   - the line is cut at /ownership\s+(.+)/; the values after it, split on /\s+/ and
//     multiplied by the sign of the colour analysed (W: -1), are the ownership only if
//     there are width * height of them, row by row from the top;
//   - the rest is split on /\s*info\s+/ (the first piece, before the first info, dropped);
//   - in each piece the principal variation is the match of
//     /(pass|[A-Za-z]\d+)(\s+(pass|[A-Za-z]\d+))*$/, cut at its first "pass", its
//     moves of at least two characters kept; a piece without it is dropped;
//   - the words before it, but the last ("pv"), are taken as key, value, key, value...;
//   - pieces whose move is not /^[A-Za-z]\d+$/ are dropped;
//   - winrate: a value with a "." is a fraction (times 100), otherwise hundredths of a
//     per cent (divided by 100); visits and scoreLead are numbers.
'use strict'

const PV = /(pass|[A-Za-z]\d+)(\s+(pass|[A-Za-z]\d+))*$/

function parseAnalysis(line, board, sign) {
  let ownership = null
  const owned = line.match(/ownership\s+(.+)/)
  if (owned) {
    const values = owned[1].split(/\s+/).map(x => sign * parseFloat(x))
    line = line.slice(0, owned.index)
    if (values.length === board.width * board.height) {
      ownership = []
      for (let y = 0; y < board.height; y++) ownership.push(values.slice(y * board.width, (y + 1) * board.width))
    }
  }
  const variations = []
  for (const piece of line.split(/\s*info\s+/).slice(1).map(x => x.trim())) {
    const pv = piece.match(PV)
    if (pv == null) continue
    const cut = pv[0].indexOf('pass')
    const moves = pv[0].slice(0, cut < 0 ? Infinity : cut).split(/\s+/).filter(x => x.length >= 2)
    const tokens = piece.slice(0, pv.index).trim().split(/\s+/).slice(0, -1)
    // Keys are the even words, values the odd ones, then "pv" and the moves: with an
    // odd number of words the two lists shift, as in Sabaki.
    const keys = [...tokens.filter((_, i) => i % 2 === 0), 'pv']
    const values = [...tokens.filter((_, i) => i % 2 === 1), moves]
    const fields = {}
    keys.forEach((key, i) => (fields[key] = values[i]))
    if (typeof fields.move !== 'string' || !/^[A-Za-z]\d+$/.test(fields.move)) continue
    const {move, visits, winrate, scoreLead} = fields
    variations.push({
      vertex: board.parseVertex(move),
      visits: +visits,
      winrate: winrate.includes('.') ? +winrate * 100 : +winrate / 100,
      scoreLead: scoreLead != null ? +scoreLead : null,
      moves: (fields.pv || []).map(x => board.parseVertex(x)),
    })
  }
  return {variations, ownership}
}

// What a GUI needs of a line and its parse: every candidate but a pass (which Sabaki
// leaves out) read, each on the board with a number of visits and a win rate from 0 to
// 100, its variation on the board; the ownership, when asked, of every point from -1
// to 1. A list of what is wrong.
function problems(line, parsed, board, wantOwnership) {
  const found = []
  const onBoard = v => Array.isArray(v) && board.has(v)
  const candidates = line.split(' ownership ')[0].match(/(^|\s)info move /g) || []
  const passes = line.split(' ownership ')[0].match(/(^|\s)info move pass /g) || []
  if (candidates.length === 0) found.push('no candidate')
  if (parsed.variations.length !== candidates.length - passes.length)
    found.push(`${parsed.variations.length} variations read of ${candidates.length - passes.length}`)
  for (const v of parsed.variations) {
    if (!onBoard(v.vertex)) found.push(`move off the board: ${v.vertex}`)
    if (!(Number.isInteger(v.visits) && v.visits > 0)) found.push(`visits ${v.visits}`)
    if (!(v.winrate >= 0 && v.winrate <= 100)) found.push(`winrate ${v.winrate}`)
    if (v.moves.length === 0 || !v.moves.every(onBoard)) found.push(`variation ${JSON.stringify(v.moves)}`)
  }
  if (wantOwnership) {
    if (parsed.ownership == null) found.push('no ownership')
    else if (!parsed.ownership.flat().every(x => x >= -1 && x <= 1)) found.push('ownership out of [-1, 1]')
  }
  return found
}

module.exports = {parseAnalysis, problems}
