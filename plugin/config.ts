/**
 * Configuration resolution, upstream's keys, defaults, conditions and
 * messages: every key (the session policy's too) resolved once, in the
 * native core (`resolveConfig` there, from its key table), so the plugin,
 * the command line and the native pruner refuse a config in the same
 * words. Errors are `TypeError` (a wrong key or type) or `RangeError` (a
 * number out of range), both `Error`s with upstream's text. The defaults
 * and the marker are the core's too.
 */
import * as native from '../index.js'
import type { ResolvedConfig, ToolResultPruneConfig } from './types.js'

/** Fixed marker substituted for every removed middle span. */
export const PRUNE_MARKER: string = native.PRUNE_MARKER

/**
 * Resolve and validate pruning budgets and the session policy.
 * @param config - raw plugin configuration.
 * @returns a detached, frozen configuration (its tool rules frozen too).
 */
export function resolveConfig(config: ToolResultPruneConfig = {}): ResolvedConfig {
  return Object.freeze(native.resolveConfig(config))
}

/** Low-friction defaults for coding-agent tool output: what an empty config resolves to. */
export const DEFAULTS: ResolvedConfig = resolveConfig()

/**
 * Count Unicode code points without splitting surrogate pairs; a lone
 * surrogate counts as one, as `Array.from(text).length` does.
 * @param text - text to measure.
 * @returns the Unicode code-point count.
 */
export function codePointLength(text: string): number {
  return native.codePointLength(text)
}
