#!/usr/bin/env node
// npm run bench:sessions — whole sessions replayed through the real dsh
// stack (dsh-session, dsh-token-meter, dsh-compaction-basic, dsh-llm with
// the DeepSeek adapter, dsh-agent-loop) at a small context window, against
// a stand-in model that records each request. Per session shape and
// pruner: the tool results the model read whole, the summary requests
// compaction-basic made, tokens per request, the cache prefix kept, and the
// bill (bill.js: cache-miss, cache-hit and output tokens priced by
// prices.json, extra read and waste against upstream). Prints markdown
// tables and writes benches/node/sessions/results.json and bill.svg.
// Counts and tokens only: nothing here is timed. Runs under Node 22
// (dsh-agent-loop's runtime); `npm run bench:sessions` sees to that.
//
//   --window=N   one context window in tokens (default: 32000 and 128000)
//   --seed=N     the seed the sessions are assembled with (default 0x5eed)
//   --only=NAME  one session shape
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Upstream from '@deepseek-ai/dsh-compaction-tool-result-pruner'
import Ours from '../../../lib/index.js'
import { bill, PRICES } from './bill.js'
import { measure } from './metrics.js'
import { plot } from './plot.js'
import { replay } from './replay.js'
import { SHAPES } from './shapes.js'

/**
 * The contenders: a name, the plugin, and the config it is loaded with,
 * passed through unchanged. A new config key is one more line here.
 */
/** The policy's recent window, in meter tokens; large results priced within it "fit". */
const RECENT_TOKENS = 8000

const CONTENDERS = [
  { name: 'upstream', plugin: Upstream, config: {} },
  { name: 'ours head-tail', plugin: Ours, config: {} },
  { name: 'ours lines', plugin: Ours, config: { strategy: 'lines' } },
  // Ours in lines with the session policy: the newest 8,000 meter tokens of
  // over-threshold results stay whole while the older ones relieve the pressure.
  { name: 'ours lines + policy', plugin: Ours, config: { strategy: 'lines', recentTokens: RECENT_TOKENS } },
]

const here = dirname(fileURLToPath(import.meta.url))
const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback
/** The windows replayed: a small one, and one nearer dsh's models' (pressure later, each rewrite invalidating more). */
const WINDOWS = process.argv.some((a) => a.startsWith('--window=')) ? [Number(arg('window'))] : [32000, 128000]
const seed = Number(arg('seed', 0x5eed))
const only = arg('only', undefined)
/** Upstream's default thresholdChars: the results a pruner may cut. */
const LARGE_CHARS = 8192

const require = createRequire(import.meta.url)
const version = (name) => {
  const path = require.resolve(`${name}/package.json`, { paths: [here] })
  return JSON.parse(readFileSync(path, 'utf8')).version
}

const sessions = SHAPES.map((make) => make(seed)).filter((s) => only === undefined || s.name === only)
const runs = []
for (const contextWindow of WINDOWS) {
  const results = []
  for (const session of sessions) {
    const calls = session.turns.flatMap((t) => t.calls)
    const shape = {
      name: session.name,
      turns: session.turns.length,
      toolCalls: calls.length,
      outputChars: calls.reduce((n, c) => n + c.output.length, 0),
      byTool: Object.fromEntries(['bash', 'read', 'edit'].map((tool) => [tool, calls.filter((c) => c.tool === tool).length])),
    }
    const rows = []
    for (const contender of CONTENDERS) {
      const run = await replay(session, contender, { contextWindow })
      rows.push(run.rejected !== undefined ? { contender: contender.name, config: contender.config, rejected: run.rejected } : { contender: contender.name, config: contender.config, ...measure(run, { largeChars: LARGE_CHARS, contextWindow, recentTokens: RECENT_TOKENS }) })
    }
    // The bill of each row against upstream's (the first contender).
    const upstream = rows[0]
    for (const row of rows) {
      if (row.rejected !== undefined) continue
      row.bill = bill(row, upstream)
    }
    for (const row of rows) {
      delete row.wholeByCall
      delete row.tokensByCall
    }
    results.push({ shape, rows })
  }
  runs.push({ contextWindow, results })
}

const n = (x) => x.toLocaleString('en-US')
const pct = (x) => `${(x * 100).toFixed(1)}%`
const signed = (x) => (x > 0 ? `+${n(x)}` : n(x))
const signedPct = (x) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)}%`
const usd = (x) => `$${x.toFixed(4)}`
const out = []
const warnings = []
for (const { contextWindow, results } of runs) {
  out.push(`### Context window ${n(contextWindow)} tokens`, '')
  out.push(`Pressure at 80%: ${n(Math.floor(contextWindow * 0.8))}; seed ${seed} (0x${seed.toString(16)}); large = over ${n(LARGE_CHARS)} code points.`)
  out.push('')
  for (const { shape } of results) {
    out.push(`- ${shape.name}: ${shape.turns} turns, ${shape.toolCalls} tool calls (${Object.entries(shape.byTool).map(([k, v]) => `${v} ${k}`).join(', ')}), ${n(shape.outputChars)} chars of output`)
  }
  out.push('')
  out.push(`| shape | contender | read whole | large read whole | large within ${n(RECENT_TOKENS)} tokens read whole | of those, cut unread with room | summary requests | prune passes | results cut | meter tokens/request: mean (max) | prompt tokens/request: mean (max) | cache prefix kept | prompt tokens after the prefix |`)
  out.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
  for (const { shape, rows } of results) {
    for (const row of rows) {
      if (row.rejected !== undefined) {
        out.push(`| ${shape.name} | ${row.contender} | config rejected: ${row.rejected.replaceAll('|', '\\|')} | | | | | | | | | | |`)
        continue
      }
      out.push(
        `| ${shape.name} | ${row.contender} | ${row.readWhole}/${row.toolResults} | ${row.largeReadWhole}/${row.largeResults} | ${row.fittingReadWhole}/${row.fittingResults} | ${row.fittingCutWithRoom} | ${row.summaryRequests} | ${row.prunePasses} | ${row.resultsCut} | ` +
          `${n(row.meterTokensMean)} (${n(row.meterTokensMax)}) | ${n(row.promptTokensMean)} (${n(row.promptTokensMax)}) | ${n(row.cachePrefixTokens)} (${pct(row.cachePrefixShare)}) | ${n(row.uncachedTokens)} |`,
      )
    }
  }
  out.push('')
  out.push(`The bill (prices: ${PRICES.source}, dated ${PRICES.date}; USD, change against upstream in brackets):`)
  out.push('')
  out.push(`| shape | contender | cache-miss tokens | cache-hit tokens | output tokens | ${PRICES.tables.map((t) => t.name).join(' | ')} | extra read (results), less read | waste | summary requests |`)
  out.push(`|---|---|---|---|---|${PRICES.tables.map(() => '---|').join('')}---|---|---|`)
  for (const { shape, rows } of results) {
    for (const row of rows) {
      if (row.rejected !== undefined) continue
      const b = row.bill
      out.push(
        `| ${shape.name} | ${row.contender} | ${n(row.missTokens)} | ${n(row.hitTokens)} | ${n(row.outputTokens)} | ` +
          `${PRICES.tables.map((t) => `${usd(b.costs[t.name])} (${signedPct(b.costDelta[t.name])})`).join(' | ')} | ${n(b.extraRead)} (${b.extraReadResults}), −${n(b.readLess)} | ${signed(b.waste)} | ${row.summaryRequests} |`,
      )
    }
  }
  out.push('')
  for (const { shape, rows } of results) {
    for (const row of rows) {
      const at = `${n(contextWindow)} ${shape.name}/${row.contender}`
      if (row.rejected !== undefined) continue
      if (row.prunePassesBelowThreshold > 0) warnings.push(`${at}: ${row.prunePassesBelowThreshold} prune passes below compaction-basic's threshold`)
      if (row.summaries !== row.summaryRequests) warnings.push(`${at}: ${row.summaryRequests} summary requests but ${row.summaries} compaction/summary events`)
      if (row.failedCompactions > 0) warnings.push(`${at}: ${row.failedCompactions} failed compactions`)
      if (row.requestsOverWindow > 0) warnings.push(`${at}: ${row.requestsOverWindow} requests over the window`)
      if (row.turnEnds && row.turnEnds.some((k) => k !== 'completed')) warnings.push(`${at}: turns ended ${row.turnEnds.join(', ')}`)
    }
  }
}
if (warnings.length > 0) out.push(...warnings.map((w) => `warning: ${w}`))
console.log(out.join('\n'))

if (only === undefined) {
  const record = {
    note: 'npm run bench:sessions; counts and tokens (the token meter\'s 4 UTF-16 units a token), no timings; bill: prices.json',
    seed,
    largeChars: LARGE_CHARS,
    recentTokens: RECENT_TOKENS,
    prices: { date: PRICES.date, source: PRICES.source, tables: PRICES.tables },
    node: process.version,
    packages: Object.fromEntries(
      ['@deepseek-ai/dsh-compaction-basic', '@deepseek-ai/dsh-token-meter', '@deepseek-ai/dsh-session', '@deepseek-ai/dsh-llm', '@deepseek-ai/dsh-llm-deepseek', '@deepseek-ai/dsh-agent-loop', '@deepseek-ai/dsh-compaction-tool-result-pruner', '@deepseek-ai/cordis'].map((p) => [p, version(p)]),
    ),
    runs,
  }
  writeFileSync(join(here, 'results.json'), `${JSON.stringify(record, null, 2)}\n`)
  writeFileSync(join(here, 'bill.svg'), plot(runs, { contender: 'ours lines + policy', table: PRICES.tables.at(-1) }))
}
