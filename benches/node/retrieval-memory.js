#!/usr/bin/env node
// node --expose-gc benches/node/retrieval-memory.js retrieve|explain [Mi units]:
// peak memory of one retrievePage call on a dropped run of nothing but line
// feeds (the most lines a run can have), or of --explain's rows for such a
// text, relative to the text's UTF-16 size. One measurement per process.
// Linux: the peak is VmHWM after resetting it through /proc/self/clear_refs.
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs'
import { Context } from '@deepseek-ai/cordis'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import { NativePruner, retrievePage } from '../../index.js'
import Ours, { DEFAULTS } from '../../lib/index.js'
import { sessionWith } from '../../__test__/support/dsh.js'

const what = process.argv[2] ?? 'retrieve'
const units = Number(process.argv[3] ?? 32) * 2 ** 20
const status = (key) => Number(/(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(key)))[1]) * 1024
// Flat, as a file's decoded text is: a concatenation would be flattened
// (copied) inside the measured call.
const text = Buffer.from(`${'\n'.repeat(units - 24)}error: the one failure\n`, 'latin1').toString('latin1')

let run = () => {}
if (what === 'retrieve') {
  const ctx = new Context()
  await ctx.plugin(TokenMeter)
  await ctx.plugin(Ours, { strategy: 'lines' })
  const session = sessionWith([[[{ content: [{ type: 'text', text }] }]]])
  const [entry] = ctx.toolResultPruner.pruneSession(session).pruned
  const [hash, dropped] = Object.entries(entry.recoverable).sort((a, b) => b[1].length - a[1].length)[0]
  if (dropped.length < units / 2) throw new Error('the run is not most of the text')
  entry.recoverable = null
  const { thresholdChars } = ctx.toolResultPruner.config
  run = () => {
    const page = retrievePage(session, hash, { thresholdChars, page: 2 })
    if (page.header.length + page.text.length > thresholdChars) throw new Error('page over the threshold')
  }
} else {
  const pruner = new NativePruner({ ...DEFAULTS, strategy: 'lines' })
  const out = openSync('/dev/null', 'w')
  run = () => {
    if (pruner.explainRows(text, (rows) => writeSync(out, rows)) !== 'log') throw new Error('not explained')
  }
  process.on('exit', () => closeSync(out))
}
globalThis.gc()
globalThis.gc()
const before = status('VmRSS:')
writeFileSync('/proc/self/clear_refs', '5') // peak := current
run()
const peak = status('VmHWM:')
const utf16Bytes = 2 * text.length
console.log(JSON.stringify({ what, units: text.length, utf16Bytes, rssBefore: before, peak, peakIncreaseBytes: peak - before, ratio: (peak - before) / utf16Bytes }))
