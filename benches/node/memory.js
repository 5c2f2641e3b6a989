#!/usr/bin/env node
// node --expose-gc benches/node/memory.js head-tail|lines: peak memory while the
// service prunes one 64 MiB tool result, relative to that result's size.
// Linux: the peak is VmHWM after resetting it through /proc/self/clear_refs.
import { readFileSync, writeFileSync } from 'node:fs'
import { Context } from '@deepseek-ai/cordis'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import Ours from '../../lib/index.js'
import { CLASSES } from './inputs.js'

const strategy = process.argv[2] ?? 'head-tail'
const points = 64 * 2 ** 20
const ctx = new Context()
await ctx.plugin(TokenMeter)
await ctx.plugin(Ours, { strategy })
const pruner = ctx.toolResultPruner

const blocks = CLASSES.ascii(points)
globalThis.gc()
globalThis.gc()

const status = (key) => Number(/(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(key)))[1]) * 1024
const before = status('VmRSS:')
writeFileSync('/proc/self/clear_refs', '5') // peak := current
const out = pruner.pruneContent(blocks)
const peak = status('VmHWM:')
if (!out || pruner.measureContent(out) > 8192) throw new Error('did not prune within budget')
const inputBytes = points // ASCII: one byte per code point, as V8 holds it and as UTF-8
console.log(JSON.stringify({ strategy, inputBytes, rssBefore: before, peak, peakIncreaseBytes: peak - before, ratio: (peak - before) / inputBytes }))
