#!/usr/bin/env node
// node --expose-gc benches/node/memory.js head-tail|lines [ascii|blank]: peak
// memory while the service prunes one tool result of 64 Mi code units (an
// ASCII log, or nothing but line feeds: the most lines a text can have),
// relative to the result's UTF-16 size.
// Linux: the peak is VmHWM after resetting it through /proc/self/clear_refs.
import { readFileSync, writeFileSync } from 'node:fs'
import { Context } from '@deepseek-ai/cordis'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import Ours from '../../lib/index.js'
import { CLASSES } from './inputs.js'

const strategy = process.argv[2] ?? 'head-tail'
const input = process.argv[3] ?? 'ascii'
const points = 64 * 2 ** 20
const ctx = new Context()
await ctx.plugin(TokenMeter)
await ctx.plugin(Ours, { strategy })
const pruner = ctx.toolResultPruner

const blocks = input === 'blank' ? [{ type: 'text', text: '\n'.repeat(points) }] : CLASSES.ascii(points)
globalThis.gc()
globalThis.gc()

const status = (key) => Number(/(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(key)))[1]) * 1024
const before = status('VmRSS:')
writeFileSync('/proc/self/clear_refs', '5') // peak := current
const out = pruner.pruneContent(blocks)
const peak = status('VmHWM:')
if (!out || pruner.measureContent(out) > 8192) throw new Error('did not prune within budget')
const utf16Bytes = 2 * points // every unit ASCII: one code point each
console.log(JSON.stringify({ strategy, input, utf16Bytes, rssBefore: before, peak, peakIncreaseBytes: peak - before, ratio: (peak - before) / utf16Bytes }))
