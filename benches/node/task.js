// What the task costs lines mode: one process, the same 1 MiB inputs as
// bench.js, each planned task-blind and with a task whose words the text
// holds (a word of one of its lines, so the search finds matches and the
// plan keeps task lines), and with a 10 KB task. Prints each class's
// median times and the ratio, and writes benches/node/results-task.json.
//
//   node benches/node/task.js [--quick]
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { NativePruner } from '../../index.js'
import { resolveConfig } from '../../lib/config.js'
import { CLASSES, FLOODS } from './inputs.js'

const quick = process.argv.includes('--quick')
const points = 1 << 20
const runs = quick ? 5 : 21
const pruner = new NativePruner(resolveConfig({ strategy: 'lines' }))

/**
 * Median milliseconds of each of `fs` over `runs` rounds, after one
 * warm-up each. A round runs every one of them in turn, so a slow spell of
 * a shared machine falls on all of them alike, not on one.
 */
function medians(...fs) {
  for (const f of fs) f()
  const times = fs.map(() => [])
  for (let i = 0; i < runs; i++) {
    fs.forEach((f, j) => {
      const start = process.hrtime.bigint()
      f()
      times[j].push(Number(process.hrtime.bigint() - start) / 1e6)
    })
  }
  return times.map((t) => t.sort((a, b) => a - b)[runs >> 1])
}

const rows = []
for (const [name, make] of Object.entries({ ...CLASSES, ...FLOODS })) {
  const text = make(points).filter((b) => b.type === 'text').map((b) => b.text).join('')
  // A word from the middle of the text: the task's words are found.
  const lines = text.split('\n')
  const middle = lines[lines.length >> 1].match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? ['nothing']
  const task = `why does ${middle.slice(0, 3).join(' ')} fail here`
  const long = Array.from({ length: 1000 }, (_, i) => `word${i}`).join(' ').slice(0, 10240)
  const [blind, asked, tenKb] = medians(
    () => pruner.plan(text),
    () => pruner.plan(text, undefined, undefined, task),
    () => pruner.plan(text, undefined, undefined, long),
  )
  rows.push({ class: name, blind, task: asked, longTask: tenKb, ratio: asked / blind })
  console.log(`${name.padEnd(9)} task-blind ${blind.toFixed(2)} ms  with a task ${asked.toFixed(2)} ms (x${(asked / blind).toFixed(2)})  10 KB task ${tenKb.toFixed(2)} ms`)
}
const out = join(dirname(fileURLToPath(import.meta.url)), 'results-task.json')
if (!quick) writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), points, rows }, null, 2) + '\n')
