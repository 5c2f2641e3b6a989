// `tool-result-pruner [FILE|-]`: one tool output pruned as the service
// would prune it; the text the model would see on stdout.
import { kindOfCommand, NativePruner } from '../index.js'
import { decodeOutput, encodeOutput, readInput } from './input.js'
import { countMarkers } from './markers.js'

/** The text of FILE, or of stdin for `-` (see {@link decodeOutput}). */
function readText(file) {
  return decodeOutput(readInput(file))
}

/**
 * One row per line: number, fate, why it was kept, class, and the line
 * (shortened), written a chunk of rows at a time as the addon makes them;
 * then the text's kind on stderr, and what named it.
 */
function explainText(text, pruner, command, task) {
  const kind = pruner.explainRows(text, (rows) => process.stdout.write(rows), command, task)
  if (kind === null) {
    process.stdout.write('nothing to explain: the text is within the threshold, or not even one marker fits it\n')
    return
  }
  const named = command === undefined ? null : kindOfCommand(command)
  process.stderr.write(`kind: ${kind} (${named === null ? 'from the sample' : `named by ${named.reason}`})\n`)
}

/**
 * Prunes FILE (or stdin) with `config`; `--stats` reports to stderr,
 * `--json` prints the plan instead of the text, `--explain` each line's
 * class and fate.
 */
export function pruneText(file, config, { stats = false, json = false, explain = false, command = undefined, task = undefined } = {}) {
  const text = readText(file)
  const pruner = new NativePruner(config)
  if (explain) return explainText(text, pruner, command, task)
  const blocks = [{ type: 'text', text }]
  const started = process.hrtime.bigint()
  // --json prints the plan, in both strategies the same shape: content,
  // recoverable, droppedLines, kinds and kindFrom (head-tail's recoverable
  // is empty, its droppedLines 0, its kinds what lines mode takes the text
  // to be; kindFrom the command's words that named the kind, or 'sample').
  // Without --json, a --command names the kind and a --task ranks lines as
  // they do with it. The plan's content is what pruneContent gives, made in
  // the same pass.
  const plan = json || command !== undefined || task !== undefined ? pruner.plan(text, undefined, command, task) : undefined
  const pruned = plan === undefined ? pruner.pruneContent(blocks) : null
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6
  const out = plan?.content ?? (pruned === null ? text : pruned.map((b) => b.text).join(''))
  if (json) {
    process.stdout.write(JSON.stringify(plan) + '\n')
  } else {
    process.stdout.write(encodeOutput(out))
  }
  if (stats) {
    const before = pruner.measureContent(blocks)
    const after = out === text ? before : pruner.measureContent([{ type: 'text', text: out }])
    const saved = before === 0 ? 0 : (100 * (before - after)) / before
    process.stderr.write(
      `${out.endsWith('\n') || json ? '' : '\n'}code points ${before} -> ${after} (saved ${before - after}, ${saved.toFixed(1)}%), markers ${out === text ? 0 : countMarkers(out)}, elapsed ${elapsed.toFixed(2)} ms\n`,
    )
  }
}
