// `tool-result-pruner [FILE|-]`: one tool output pruned as the service
// would prune it; the text the model would see on stdout.
import { readFileSync } from 'node:fs'
import { NativePruner, planLines } from '../index.js'
import { CliError } from './errors.js'

/** The text of FILE, or of stdin for `-`, decoded as UTF-8. */
function readText(file) {
  try {
    return new TextDecoder('utf-8').decode(readFileSync(file === '-' ? 0 : file))
  } catch (error) {
    throw new CliError(`${file === '-' ? 'stdin' : file}: cannot read: ${error.code ?? error.message}`)
  }
}

const MARKERS = /<<ccr:[0-9a-f]{24} \d+_(?:lines|chars)_offloaded>>/g

/**
 * Prunes FILE (or stdin) with `config`; `--stats` reports to stderr,
 * `--json` prints the plan instead of the text.
 */
export function pruneText(file, config, { stats = false, json = false } = {}) {
  const text = readText(file)
  const pruner = new NativePruner(config)
  const blocks = [{ type: 'text', text }]
  const started = process.hrtime.bigint()
  const pruned = pruner.pruneContent(blocks)
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6
  const out = pruned === null ? text : pruned.map((b) => b.text).join('')
  if (json) {
    const plan = pruned !== null && config.strategy === 'lines'
      ? planLines(text, { thresholdChars: config.thresholdChars, headChars: config.headChars, tailChars: config.tailChars, contextLines: config.contextLines, edgeLines: config.edgeLines })
      : { content: out, recoverable: {}, droppedLines: 0 }
    process.stdout.write(JSON.stringify(plan) + '\n')
  } else {
    process.stdout.write(out)
  }
  if (stats) {
    const before = pruner.measureContent(blocks)
    const after = pruned === null ? before : pruner.measureContent(pruned)
    const saved = before === 0 ? 0 : (100 * (before - after)) / before
    const markers = pruned === null ? 0 : (out.match(MARKERS)?.length ?? (out.includes('[... tool result middle pruned ...]') ? 1 : 0))
    process.stderr.write(
      `${out.endsWith('\n') || json ? '' : '\n'}code points ${before} -> ${after} (saved ${before - after}, ${saved.toFixed(1)}%), markers ${markers}, elapsed ${elapsed.toFixed(2)} ms\n`,
    )
  }
}
