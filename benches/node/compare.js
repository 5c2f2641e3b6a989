#!/usr/bin/env node
// node --expose-gc benches/node/compare.js OTHER_CHECKOUT [--only=1 MiB]
//
// This checkout's addon against another checkout's built addon (for
// example a worktree of an earlier commit), in one process, on the bench's
// inputs, alternately after a warm-up: median ms per call and the ratio
// other/this (above 1: this checkout is faster). For "no slower than
// before" checks, where two separate bench runs would differ by the
// machine's noise alone.
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { CLASSES, FLOODS, SIZES } from './inputs.js'
import { race } from './timing.js'

const other = process.argv[2]
if (!other) {
  console.error('usage: node --expose-gc benches/node/compare.js OTHER_CHECKOUT [--only=SIZE]')
  process.exit(2)
}
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length)
const require = createRequire(import.meta.url)
const load = (dir) => require(join(resolve(dir), `tool-result-pruner.${process.platform}-${process.arch}-gnu.node`))
const ours = load(new URL('../..', import.meta.url).pathname)
const theirs = load(other)
const config = (strategy) => ({ thresholdChars: 8192, headChars: 4096, tailChars: 1024, strategy, contextLines: 2, edgeLines: 2 })

for (const [size, points] of SIZES) {
  if (only ? size !== only : points > 1 << 20) continue
  for (const [cls, make] of Object.entries({ ...CLASSES, ...FLOODS })) {
    const blocks = make(points)
    for (const strategy of ours.configKeys().find((k) => k.range === 'strategy').values) {
      const a = new ours.NativePruner(config(strategy))
      const b = new theirs.NativePruner(config(strategy))
      const t = race({ this: () => a.pruneContent(blocks), other: () => b.pruneContent(blocks) }, 21)
      console.log(`${size.padEnd(7)} ${cls.padEnd(6)} ${strategy.padEnd(9)} this ${t.this.toFixed(4)} ms  other ${t.other.toFixed(4)} ms  other/this ${(t.other / t.this).toFixed(3)}`)
    }
  }
}
