/**
 * Configuration resolution: upstream's keys, defaults, conditions and
 * messages, the one place the config is validated. Errors are `TypeError`
 * (wrong key or type) or `RangeError` (a number out of range); both are
 * `Error`s with upstream's text. The defaults and the marker are the
 * native core's, read from the addon.
 */
import * as native from '../index.js'
import { POLICY_KEYS, resolvePolicy } from './policy.js'
import type { PruneStrategy, ResolvedConfig, ToolResultPruneConfig } from './types.js'
import { assertInteger, describe } from './values.js'

/** Fixed marker substituted for every removed middle span. */
export const PRUNE_MARKER: string = native.PRUNE_MARKER

/** Low-friction defaults for coding-agent tool output. */
export const DEFAULTS: ResolvedConfig = Object.freeze({
  thresholdChars: native.DEFAULT_THRESHOLD_CHARS,
  headChars: native.DEFAULT_HEAD_CHARS,
  tailChars: native.DEFAULT_TAIL_CHARS,
  strategy: 'head-tail',
  // What head/tail emits, so switching strategy keeps as much as before.
  keepChars: native.DEFAULT_HEAD_CHARS + PRUNE_MARKER.length + native.DEFAULT_TAIL_CHARS,
  contextLines: native.DEFAULT_CONTEXT_LINES,
  edgeLines: native.DEFAULT_EDGE_LINES,
})

const STRATEGIES: readonly PruneStrategy[] = ['head-tail', 'lines']

const CONFIG_KEYS: readonly string[] = Object.freeze([...Object.keys(DEFAULTS), ...POLICY_KEYS])

/**
 * Count Unicode code points without splitting surrogate pairs; a lone
 * surrogate counts as one, as `Array.from(text).length` does.
 * @param text - text to measure.
 * @returns the Unicode code-point count.
 */
export function codePointLength(text: string): number {
  return native.codePointLength(text)
}

/**
 * Resolve and validate pruning budgets.
 * @param config - raw plugin configuration.
 * @returns a detached, frozen configuration.
 */
export function resolveConfig(config: ToolResultPruneConfig = {}): ResolvedConfig {
  if (config === null || typeof config !== 'object') {
    throw new TypeError(`ToolResultPruneConfig: config (${describe(config)}) must be an object`)
  }
  for (const key of Object.keys(config)) {
    if (!CONFIG_KEYS.includes(key)) {
      throw new TypeError(`ToolResultPruneConfig: unknown key "${key}" (allowed: ${CONFIG_KEYS.join(', ')})`)
    }
  }
  const resolved = {
    thresholdChars: config.thresholdChars ?? DEFAULTS.thresholdChars,
    headChars: config.headChars ?? DEFAULTS.headChars,
    tailChars: config.tailChars ?? DEFAULTS.tailChars,
    strategy: config.strategy ?? DEFAULTS.strategy,
    keepChars: config.keepChars,
    contextLines: config.contextLines ?? DEFAULTS.contextLines,
    edgeLines: config.edgeLines ?? DEFAULTS.edgeLines,
  }
  assertInteger('thresholdChars', resolved.thresholdChars, 1, 'a positive integer')
  assertInteger('headChars', resolved.headChars, 0, 'a non-negative integer')
  assertInteger('tailChars', resolved.tailChars, 0, 'a non-negative integer')
  if (!STRATEGIES.includes(resolved.strategy)) {
    throw new TypeError(`ToolResultPruneConfig: strategy (${describe(resolved.strategy)}) must be 'head-tail' or 'lines'`)
  }
  assertInteger('contextLines', resolved.contextLines, 0, 'a non-negative integer')
  assertInteger('edgeLines', resolved.edgeLines, 0, 'a non-negative integer')
  const emittedChars = resolved.headChars + PRUNE_MARKER.length + resolved.tailChars
  if (emittedChars > resolved.thresholdChars) {
    throw new RangeError(
      `ToolResultPruneConfig: headChars + marker + tailChars (${emittedChars}) must be at most thresholdChars (${resolved.thresholdChars})`,
    )
  }
  const keepChars = resolved.keepChars ?? emittedChars
  const keepRange = `an integer from ${PRUNE_MARKER.length} to thresholdChars (${resolved.thresholdChars})`
  assertInteger('keepChars', keepChars, PRUNE_MARKER.length, keepRange)
  if (keepChars > resolved.thresholdChars) {
    throw new RangeError(`ToolResultPruneConfig: keepChars (${keepChars}) must be ${keepRange}`)
  }
  return Object.freeze({ ...resolved, keepChars, ...resolvePolicy(config, resolveConfig) })
}
