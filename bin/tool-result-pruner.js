#!/usr/bin/env node
// tool-result-pruner [FILE|-] [options]: prune one tool output the way the
// toolResultPruner service would, print the text the model would see.
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { NativePruner } from '../index.js'
import { resolveConfig } from '../lib/config.js'

const USAGE = `usage: tool-result-pruner [FILE|-] [options]

Prints the pruned text of FILE (or stdin) as the model would see it.

  --threshold-chars N   prune when longer than N code points (default 8192)
  --head-chars N        leading code points kept (default 4096)
  --tail-chars N        trailing code points kept (default 1024)
  --strategy S          head-tail (default, upstream's rule) or lines
  --context-lines N     lines mode: neighbours kept around each kept line (default 2)
  --edge-lines N        lines mode: lines kept at the start and the end (default 2)
  --stats               print code points before/after, markers and time to stderr
  -h, --help            show this help
`

const FLAGS = {
  'threshold-chars': 'thresholdChars',
  'head-chars': 'headChars',
  'tail-chars': 'tailChars',
  strategy: 'strategy',
  'context-lines': 'contextLines',
  'edge-lines': 'edgeLines',
}

/** A flag value as the config sees it: a number when it reads as one, else the raw text. */
function flagValue(key, text) {
  if (key === 'strategy') return text
  const n = Number(text)
  return text.trim() !== '' && !Number.isNaN(n) ? n : text
}

function fail(message) {
  process.stderr.write(`tool-result-pruner: ${message}\n`)
  process.exit(2)
}

function main() {
  let args
  try {
    args = parseArgs({
      allowPositionals: true,
      options: {
        ...Object.fromEntries(Object.keys(FLAGS).map((f) => [f, { type: 'string' }])),
        stats: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    fail(`${error.message}\n${USAGE}`)
  }
  if (args.values.help) {
    process.stdout.write(USAGE)
    return
  }
  if (args.positionals.length > 1) fail(`expected one FILE, got ${args.positionals.length}\n${USAGE}`)
  const config = {}
  for (const [flag, key] of Object.entries(FLAGS)) {
    if (args.values[flag] !== undefined) config[key] = flagValue(key, args.values[flag])
  }
  let resolved
  try {
    resolved = resolveConfig(config)
  } catch (error) {
    fail(error.message)
  }
  const file = args.positionals[0] ?? '-'
  let text
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8')
  } catch (error) {
    fail(`cannot read ${file === '-' ? 'stdin' : file}: ${error.code ?? error.message}`)
  }
  const pruner = new NativePruner(resolved)
  const blocks = [{ type: 'text', text }]
  const started = process.hrtime.bigint()
  const pruned = pruner.pruneContent(blocks)
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6
  const out = pruned === null ? text : pruned.map((b) => b.text).join('')
  process.stdout.write(out)
  if (args.values.stats) {
    const before = pruner.measureContent(blocks)
    const after = pruned === null ? before : pruner.measureContent(pruned)
    const saved = before === 0 ? 0 : (100 * (before - after)) / before
    const markers = pruned === null ? 0 : (out.match(/<<ccr:[0-9a-f]{24} \d+_(?:lines|chars)_offloaded>>/g)?.length ?? (out.includes('[... tool result middle pruned ...]') ? 1 : 0))
    process.stderr.write(
      `\ncode points ${before} -> ${after} (saved ${before - after}, ${saved.toFixed(1)}%), markers ${markers}, elapsed ${elapsed.toFixed(2)} ms\n`,
    )
  }
}

main()
