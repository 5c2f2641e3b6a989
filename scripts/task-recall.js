#!/usr/bin/env node
// Task recall: how much of what a task needs survives pruning, with the
// task and without it, at the same output size.
//
//   node scripts/task-recall.js [--cases DIR]... [--budgets 4096,8192] [--per-case] [--json]
//
// A case is a folder as scripts/recall.js reads it, whose `case.json` also
// gives the call (`command`) and the task (`task`: the user's request). At
// each output budget four rules are scored: upstream's head-tail, a plain
// tail, lines mode told the command only (task-blind), and lines mode told
// the command and the task, as the command line is called:
// `tool-result-pruner FILE --strategy lines --threshold-chars B --keep-chars B --command CMD --task TEXT`.
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { NativePruner } from '../index.js'
import { headTail, linesConfig, loadCases, macroRecall, manifest, score, tail } from './recall.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The task corpora under __test__/fixtures: those the manifest marks `"task": true`. */
export const TASK_CORPORA = manifest().corpora.filter((c) => c.task).map((c) => c.name)

/** The cases under `dir` with their call and task (from case.json). */
export function loadTaskCases(dir) {
  return loadCases(dir).map((c) => {
    const about = JSON.parse(readFileSync(join(c.dir, 'case.json'), 'utf8'))
    return { ...c, command: about.command, task: about.task }
  })
}

/** The rules, each `(case, budget) => output`. */
export const TASK_RULES = {
  'head-tail': (c, b) => headTail(c.text, b),
  tail: (c, b) => tail(c.text, b),
  lines: (c, b) => new NativePruner(linesConfig(b)).plan(c.text, undefined, c.command).content,
  task: (c, b) => new NativePruner(linesConfig(b)).plan(c.text, undefined, c.command, c.task).content,
}

/** Macro critical recall of every rule at every budget, with each case's counts. */
export function evaluateTasks(cases, budgets) {
  const rows = []
  for (const budget of budgets) {
    for (const [rule, prune] of Object.entries(TASK_RULES)) {
      const results = cases.map((c) => ({ name: c.name, ...score(c, prune(c, budget)) }))
      const recall = macroRecall(results)
      rows.push({ budget, rule, recall, cases: results })
    }
  }
  return rows
}

function main() {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string', multiple: true },
      budgets: { type: 'string', default: '4096,8192' },
      'per-case': { type: 'boolean' },
      json: { type: 'boolean' },
    },
  })
  const budgets = values.budgets.split(',').map(Number)
  const dirs = values.cases ?? TASK_CORPORA.map((c) => join(root, '__test__', 'fixtures', c))
  for (const dir of dirs) {
    const cases = loadTaskCases(resolve(dir))
    const rows = evaluateTasks(cases, budgets)
    if (values.json) {
      process.stdout.write(JSON.stringify({ dir, rows }) + '\n')
      continue
    }
    console.log(`\n${dir} (${cases.length} cases):\n\n| output budget | head-tail | tail | lines (command) | lines (command + task) |\n|---|---|---|---|---|`)
    for (const b of budgets) {
      const at = (rule) => rows.find((r) => r.budget === b && r.rule === rule).recall.toFixed(3)
      console.log(`| ${b} | ${at('head-tail')} | ${at('tail')} | ${at('lines')} | ${at('task')} |`)
    }
    if (values['per-case']) {
      for (const b of budgets) {
        for (const [i, c] of cases.entries()) {
          const cell = (rule) => {
            const r = rows.find((x) => x.budget === b && x.rule === rule).cases[i]
            return `${r.critical}/${r.criticalTotal}`
          }
          console.log(`${String(b).padStart(6)} ${c.name.padEnd(48)} ht ${cell('head-tail')}  tail ${cell('tail')}  lines ${cell('lines')}  task ${cell('task')}`)
        }
      }
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main()
