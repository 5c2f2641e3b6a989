#!/usr/bin/env node
// npm run bench: the upstream pruner and ours, one process, the same inputs,
// run alternately after a warm-up; medians and upstream/ours ratios. The
// copy limit is a native no-op that only receives the same strings
// (`receiveTexts`, in the testing addon `npm run build:testing` makes).
// Writes benches/node/results.json (results-portable.json when the portable
// paths are forced, as `npm run bench:portable` does). Timing lives here,
// never in the test suite.
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import { Session } from '@deepseek-ai/dsh-session'
import { createAssistantMessage, createToolResultMessage, createUserMessage } from '@deepseek-ai/dsh-llm'
import Upstream from '@deepseek-ai/dsh-compaction-tool-result-pruner'
import Ours from '../../lib/index.js'
import { hooks } from '../../__test__/support/testing-addon.js'
import { CLASSES, FLOODS, SIZES, asciiLine } from './inputs.js'
import { median, now, race } from './timing.js'

const here = dirname(fileURLToPath(import.meta.url))
const quick = process.argv.includes('--quick')
/** `--only=1 MiB` limits the content table to one size (for a quick look). */
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length)

async function service(Pruner, config) {
  const ctx = new Context()
  await ctx.plugin(TokenMeter)
  await ctx.plugin(Pruner, config)
  return ctx.toolResultPruner
}

const samplesFor = (points) => (quick ? 3 : points >= 1 << 24 ? 3 : 21)

async function contentBench() {
  const upstream = await service(Upstream, {})
  const headTail = await service(Ours, {})
  const lines = await service(Ours, { strategy: 'lines' })
  const rows = []
  for (const [size, points] of SIZES) {
    if ((quick && points > 1 << 20) || (only && size !== only)) continue
    for (const [cls, make] of Object.entries({ ...CLASSES, ...FLOODS })) {
      const blocks = make(points)
      const samples = samplesFor(points)
      const measure = race({
        upstream: () => upstream.measureContent(blocks),
        ours: () => headTail.measureContent(blocks),
        copy: () => hooks.receiveTexts(blocks),
      }, samples)
      const prune = race({
        upstream: () => upstream.pruneContent(blocks),
        ours: () => headTail.pruneContent(blocks),
        lines: () => lines.pruneContent(blocks),
        copy: () => hooks.receiveTexts(blocks),
      }, samples)
      const row = { size, points, class: cls, measure, prune }
      rows.push(row)
      process.stderr.write(`${size.padEnd(7)} ${cls.padEnd(6)} measure ×${ratio(measure.upstream, measure.ours)}  head-tail ×${ratio(prune.upstream, prune.ours)} (copy ×${ratio(prune.ours, prune.copy)})  lines ×${ratio(prune.upstream, prune.lines)}\n`)
    }
  }
  return rows
}

const ratio = (a, b) => (a / b).toFixed(a / b >= 10 ? 0 : 2)

/**
 * A real dsh Session of about `events` events whose tool results include
 * `over` over-budget results of `bigPoints` code points.
 */
function sessionFixture(events, over, bigPoints) {
  const session = Session.create('bench')
  let turn = 0
  let results = 0
  let big = 0
  const perTurnCalls = 4
  while (session.events.length + 6 + 2 * perTurnCalls <= events) {
    turn++
    session.append('turn/start', { turn })
    session.append('user/message', createUserMessage({ content: [{ type: 'text', text: `turn ${turn}` }], source: { kind: 'user' } }), { surfaceOp: 'append' })
    session.append('step/start', { turn, step: 1 })
    const calls = Array.from({ length: perTurnCalls }, (_, k) => ({ type: 'tool-call', id: `c${turn}-${k}`, name: 'bash', arguments: '{}' }))
    session.append('assistant/message', { turn, step: 1, message: createAssistantMessage({ content: calls, source: { provider: 'p', model: 'm' } }) }, { surfaceOp: 'append' })
    for (const call of calls) {
      session.append('tool/call', { turn, step: 1, callId: call.id, name: 'bash', arguments: '{}' })
      const isBig = big < over && results % 3 === 0
      const text = isBig ? CLASSES.ascii(bigPoints)[0].text : Array.from({ length: 5 }, (_, i) => asciiLine(() => 0.5, i)).join('')
      if (isBig) big++
      results++
      session.append('tool/result', { turn, step: 1, message: createToolResultMessage({ callId: call.id, content: [{ type: 'text', text }], isError: false }) }, { surfaceOp: 'append' })
    }
    session.append('step/end', { turn, step: 1 })
    session.append('turn/end', { turn, reason: { kind: 'completed' } })
  }
  session.append('turn/start', { turn: turn + 1 })
  return { session, results, big }
}

async function sessionBench() {
  const bigPoints = 32 * 1024
  const { session: base, results, big } = sessionFixture(2000, 200, bigPoints)
  const upstream = await service(Upstream, {})
  const ours = await service(Ours, {})
  const lines = await service(Ours, { strategy: 'lines' })
  const times = { upstream: [], ours: [], lines: [] }
  const samples = quick ? 2 : 5
  for (let s = -1; s < samples; s++) {
    for (const [name, p] of Object.entries({ upstream, ours, lines })) {
      const copy = Session.create(base.id, base.events) // setup, not timed
      globalThis.gc?.()
      const t = now()
      const report = p.pruneSession(copy)
      const elapsed = now() - t
      if (report.pruned.length !== big) throw new Error(`${name} pruned ${report.pruned.length} of ${big}`)
      if (s >= 0) times[name].push(elapsed) // s = -1 is the warm-up
    }
  }
  const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]))
  process.stderr.write(`pruneSession ${base.events.length} events, ${results} results, ${big} over budget (${bigPoints} code points): upstream ${med.upstream.toFixed(1)} ms, ours ${med.ours.toFixed(1)} ms (×${ratio(med.upstream, med.ours)}), lines ${med.lines.toFixed(1)} ms (×${ratio(med.upstream, med.lines)})\n`)
  return { events: base.events.length, results, overBudget: big, bigPoints, ms: med }
}

function memoryBench() {
  const out = {}
  for (const [strategy, input] of [['head-tail', 'ascii'], ['lines', 'ascii'], ['lines', 'blank']]) {
    const r = spawnSync(process.execPath, ['--expose-gc', join(here, 'memory.js'), strategy, input], { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(r.stderr)
    const m = JSON.parse(r.stdout)
    out[`${strategy} ${input}`] = m
    process.stderr.write(`memory ${strategy} ${input}: peak ${(m.peakIncreaseBytes / 2 ** 20).toFixed(0)} MiB over ${(m.utf16Bytes / 2 ** 20).toFixed(0)} MiB of UTF-16 (×${m.ratio.toFixed(2)})\n`)
  }
  return out
}

/** Log classes where few lines match a rule: lines mode reads only the flagged ones. */
const BENIGN = ['ascii', 'cjk', 'emoji', 'multi']

function targets(rows, sessions, memory) {
  const at = (size) => rows.filter((r) => r.size === size)
  const checks = []
  for (const r of at('1 MiB')) {
    checks.push({ target: `pruneContent head-tail >= 50x upstream at 1 MiB (${r.class})`, value: r.prune.upstream / r.prune.ours, pass: r.prune.upstream / r.prune.ours >= 50 })
    checks.push({ target: `pruneContent head-tail within 2x of the copy limit at 1 MiB (${r.class})`, value: r.prune.ours / r.prune.copy, pass: r.prune.ours / r.prune.copy <= 2 })
    checks.push({ target: `measureContent >= 20x upstream at 1 MiB (${r.class})`, value: r.measure.upstream / r.measure.ours, pass: r.measure.upstream / r.measure.ours >= 20 })
    // Benign logs: the rules read only the few lines the keyword scan
    // flags. Outlines (JSON, source) read every line; in floods every line
    // is a signal to classify, group and plan.
    const goal = BENIGN.includes(r.class) ? 10 : 5
    checks.push({ target: `pruneContent lines >= ${goal}x upstream head-tail at 1 MiB (${r.class})`, value: r.prune.upstream / r.prune.lines, pass: r.prune.upstream / r.prune.lines >= goal })
  }
  for (const r of at('8 KiB+')) {
    checks.push({ target: `pruneContent lines never slower than upstream head-tail at 8 KiB+ (${r.class})`, value: r.prune.upstream / r.prune.lines, pass: r.prune.upstream / r.prune.lines >= 1 })
  }
  for (const r of at('1 KiB')) {
    checks.push({ target: `never slower at 1 KiB, under threshold: pruneContent (${r.class})`, value: r.prune.upstream / r.prune.ours, pass: r.prune.upstream / r.prune.ours >= 1 })
    checks.push({ target: `never slower at 1 KiB, under threshold: measureContent (${r.class})`, value: r.measure.upstream / r.measure.ours, pass: r.measure.upstream / r.measure.ours >= 1 })
  }
  checks.push({ target: 'pruneSession >= 5x upstream (2,000 events, 200 over budget)', value: sessions.ms.upstream / sessions.ms.ours, pass: sessions.ms.upstream / sessions.ms.ours >= 5 })
  for (const [strategy, m] of Object.entries(memory)) {
    checks.push({ target: `peak memory pruning one 64 Mi-unit result < 4x its UTF-16 size (${strategy})`, value: m.ratio, pass: m.ratio < 4 })
  }
  return checks
}

function table(rows) {
  const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(2) : ms >= 0.01 ? ms.toFixed(3) : ms.toFixed(4))
  const lines = [
    '| size | class | measure: upstream / ours (×) | head-tail: upstream / ours (×) | copy limit | ours ÷ copy | lines (× upstream head-tail) |',
    '|---|---|---|---|---|---|---|',
  ]
  for (const r of rows) {
    lines.push(`| ${r.size} | ${r.class} | ${fmt(r.measure.upstream)} / ${fmt(r.measure.ours)} ms (×${ratio(r.measure.upstream, r.measure.ours)}) | ${fmt(r.prune.upstream)} / ${fmt(r.prune.ours)} ms (×${ratio(r.prune.upstream, r.prune.ours)}) | ${fmt(r.prune.copy)} ms | ${(r.prune.ours / r.prune.copy).toFixed(2)} | ${fmt(r.prune.lines)} ms (×${ratio(r.prune.upstream, r.prune.lines)}) |`)
  }
  return lines.join('\n')
}

const machine = { node: process.version, platform: `${os.platform()} ${os.arch()}`, cpu: os.cpus()[0]?.model, cores: os.cpus().length, memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB` }
process.stderr.write(`Node ${machine.node} on ${machine.cpu} (${machine.cores} cores)\n`)
const rows = await contentBench()
const sessions = await sessionBench()
const memory = quick ? {} : memoryBench()
const checks = targets(rows, sessions, memory)
const results = { date: new Date().toISOString(), machine, quick, content: rows, pruneSession: sessions, memory, targets: checks }
const portable = process.env.TOOL_RESULT_PRUNER_PORTABLE !== undefined
results.portable = portable
if (!quick && !only) writeFileSync(join(here, portable ? 'results-portable.json' : 'results.json'), JSON.stringify(results, null, 2) + '\n')
console.log(table(rows))
console.log()
console.log(`pruneSession (${sessions.events} events, ${sessions.results} tool results, ${sessions.overBudget} over budget of ${sessions.bigPoints} code points): upstream ${sessions.ms.upstream.toFixed(1)} ms, ours ${sessions.ms.ours.toFixed(1)} ms (×${ratio(sessions.ms.upstream, sessions.ms.ours)}), lines ${sessions.ms.lines.toFixed(1)} ms`)
console.log()
for (const c of checks) console.log(`${c.pass ? 'PASS' : 'FAIL'}  ${c.target}: ${c.value.toFixed(2)}`)
console.log(`\nNode ${machine.node}, ${machine.platform}, ${machine.cpu}, ${machine.cores} cores, ${machine.memory}${portable ? ', portable paths forced' : ''}`)
