#!/usr/bin/env node
// Signal recall: how much of what a case's labels call critical survives
// pruning, for lines mode and for the blind cuts, at the same output size.
//
//   node scripts/recall.js [--cases DIR]... [--all] [--budgets 4096,8192,32768] [--per-case] [--json]
//
// `--all` scores every corpus of __test__/fixtures/manifest.json (each
// corpus's role, case count and recall floors), one table each.
//
// A case is a folder holding `raw.log` (the tool output) and
// `ground_truth.json` (`required_signals`, each with `importance` and a
// `value`, `aliases` or `file` that must survive), as in LogDx-CI. A signal
// is kept when its value, an alias or its file appears in the output after
// ANSI escapes are stripped and line endings folded (the LogDx-CI text
// rule). At each output budget B (code points) three rules are scored:
//
// - head-tail: upstream's cut with head and tail in its default 4:1 ratio,
//   head + marker + tail = B;
// - tail: the last B code points;
// - lines: this package's lines mode keeping at most B code points.
//
// Printed per budget: macro critical recall (the mean over cases of the
// share of critical signals kept), recall over all signals, the mean output
// size, outputs over the budget, and the cases where lines kept fewer
// critical signals than the better blind cut. Exit status 1 when a lines
// output is over its budget.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { NativePruner } from '../index.js'
import { PRUNE_MARKER, resolveConfig } from '../lib/config.js'
import { headTailWithin, resolveCliConfig } from '../cli/options.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

// The LogDx-CI text rule.
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(?:\x07|\x1b\\)/g
/** The output as the rule reads it: no ANSI escapes, `\r\n` and `\r` folded to `\n`. */
export const normalize = (s) => s.replace(ANSI, '').replace(/\r\n/g, '\n').replace(/\r/g, '\n')
/** Whether `signal` survives in the normalized `text`. */
export function kept(signal, text) {
  const probes = [signal.value, ...(signal.aliases ?? []), signal.file]
  return probes.some((p) => typeof p === 'string' && p.trim() !== '' && text.includes(p.trim()))
}

/** The corpus manifest: `{ corpora: [{ name, role, count, about, floors: { budget: recall } }] }`. */
export function manifest() {
  return JSON.parse(readFileSync(join(root, '__test__', 'fixtures', 'manifest.json'), 'utf8'))
}

/** The labelled cases under `dir` (folders with raw.log and ground_truth.json), by name. */
export function loadCases(dir) {
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .filter((name) => ['raw.log', 'ground_truth.json'].every((f) => statSync(join(dir, name, f), { throwIfNoEntry: false })))
    .sort()
    .map((name) => ({
      name,
      dir: join(dir, name),
      text: readFileSync(join(dir, name, 'raw.log'), 'utf8'),
      signals: JSON.parse(readFileSync(join(dir, name, 'ground_truth.json'), 'utf8')).required_signals ?? [],
    }))
}

const codePoints = (s) => {
  let n = 0
  for (const _ of s) n++
  return n
}

/** Upstream's cut at output size `budget`: head and tail 4:1 around the marker. */
export function headTail(text, budget) {
  const points = Array.from(text)
  if (points.length <= budget) return text
  const { headChars, tailChars } = headTailWithin(budget)
  return points.slice(0, headChars).join('') + PRUNE_MARKER + points.slice(points.length - tailChars).join('')
}

/** The last `budget` code points. */
export function tail(text, budget) {
  const points = Array.from(text)
  return points.length <= budget ? text : points.slice(points.length - budget).join('')
}

/** The config lines mode is scored with at output size `budget`. */
export function linesConfig(budget) {
  return resolveCliConfig({ strategy: 'lines', thresholdChars: budget, keepChars: budget })
}

/** This package's lines mode at output size `budget`. */
export function lines(text, budget) {
  return new NativePruner(linesConfig(budget)).plan(text).content
}

export const RULES = { 'head-tail': headTail, tail, lines }

/** Critical and total signals kept by `output` of one case. */
export function score(c, output) {
  const view = normalize(output)
  const critical = c.signals.filter((s) => s.importance === 'critical')
  return {
    critical: critical.filter((s) => kept(s, view)).length,
    criticalTotal: critical.length,
    all: c.signals.filter((s) => kept(s, view)).length,
    allTotal: c.signals.length,
  }
}

/** Macro critical recall of scored cases (each `{ critical, criticalTotal }`): the mean share kept; a case with none critical counts 1. */
export function macroRecall(scored) {
  return scored.reduce((n, s) => n + (s.criticalTotal === 0 ? 1 : s.critical / s.criticalTotal), 0) / Math.max(1, scored.length)
}

/** Macro critical recall of `prune(text)` over `cases`. */
export function criticalRecall(cases, prune) {
  return macroRecall(cases.map((c) => score(c, prune(c.text))))
}

/**
 * Every rule on every case at every budget: `{ budget, rule, recall, all,
 * meanOutput, over, cases: [{ name, critical, criticalTotal, output }] }`,
 * plus for lines the cases where it kept fewer critical signals than the
 * better blind cut (`worse`).
 */
export function evaluate(cases, budgets) {
  const rows = []
  for (const budget of budgets) {
    const perRule = {}
    for (const [rule, prune] of Object.entries(RULES)) {
      const results = cases.map((c) => {
        const output = prune(c.text, budget)
        return { name: c.name, ...score(c, output), output: codePoints(output) }
      })
      const recall = macroRecall(results)
      const all = results.reduce((n, r) => n + r.all, 0) / Math.max(1, results.reduce((n, r) => n + r.allTotal, 0))
      const meanOutput = Math.round(results.reduce((n, r) => n + r.output, 0) / Math.max(1, results.length))
      const over = results.filter((r) => r.output > budget).length
      perRule[rule] = { budget, rule, recall, all, meanOutput, over, cases: results }
    }
    perRule.lines.worse = perRule.lines.cases
      .filter((r, i) => r.critical < Math.max(perRule['head-tail'].cases[i].critical, perRule.tail.cases[i].critical))
      .map((r) => r.name)
    rows.push(...Object.values(perRule))
  }
  return rows
}

function main() {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string', multiple: true },
      all: { type: 'boolean' },
      budgets: { type: 'string', default: '4096,8192,32768' },
      'per-case': { type: 'boolean' },
      json: { type: 'boolean' },
    },
  })
  const budgets = values.budgets.split(',').map(Number)
  if (values.all) {
    for (const c of manifest().corpora) {
      const rows = evaluate(loadCases(join(root, '__test__', 'fixtures', c.name)), budgets)
      console.log(`\n\`${c.name}\` (${c.count} cases, ${c.role}):\n\n| output budget | head-tail | tail | lines | lines worse |\n|---|---|---|---|---|`)
      for (const b of budgets) {
        const at = (rule) => rows.find((r) => r.budget === b && r.rule === rule)
        console.log(`| ${b} | ${at('head-tail').recall.toFixed(3)} | ${at('tail').recall.toFixed(3)} | ${at('lines').recall.toFixed(3)} | ${at('lines').worse.length} |`)
      }
    }
    return
  }
  const dirs = values.cases ?? [join(root, '__test__', 'fixtures', 'logdx-dev')]
  const cases = dirs.flatMap((d) => loadCases(resolve(d)))
  const rows = evaluate(cases, budgets)
  if (values.json) {
    process.stdout.write(JSON.stringify(rows, null, 2) + '\n')
  } else {
    console.log(`${cases.length} cases from ${dirs.join(', ')}`)
    console.log('| budget | rule | critical recall | all signals | mean output | over budget |')
    console.log('|---|---|---|---|---|---|')
    for (const r of rows) console.log(`| ${r.budget} | ${r.rule} | ${r.recall.toFixed(3)} | ${r.all.toFixed(3)} | ${r.meanOutput} | ${r.over} |`)
    const worse = rows.filter((r) => r.rule === 'lines').flatMap((r) => r.worse.map((name) => `${name} @${r.budget}`))
    console.log(`\nlines kept fewer critical signals than the better blind cut in ${worse.length} of ${cases.length * budgets.length} (case, budget) pairs${worse.length ? `: ${worse.join(', ')}` : ''}`)
    if (values['per-case']) {
      for (const r of rows) {
        for (const c of r.cases) console.log(`${String(r.budget).padStart(6)} ${r.rule.padEnd(9)} ${c.name.padEnd(40)} critical ${c.critical}/${c.criticalTotal}  output ${c.output}`)
      }
    }
  }
  process.exitCode = rows.some((r) => r.rule === 'lines' && r.over > 0) ? 1 : 0
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main()
