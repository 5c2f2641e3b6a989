/**
 * The session policy's config keys (all optional, none on by default):
 * `recentTokens`, `contextWindow`, `thresholdRatio` and `tools`. Validated
 * here as `config.ts` validates the budget keys, with the same style of
 * message; a key not given is absent from the resolved config, so the
 * default config stays upstream's.
 */
import * as native from '../index.js'
import type { PolicyOptions, ToolRule } from '../index.js'
import { assertInteger, describe } from './values.js'
import type { ResolvedConfig, ResolvedPolicy, ResolvedToolRule, ToolResultPruneConfig, ToolRuleConfig } from './types.js'

/** The keys a tool rule may give (the core's, outside the policy's scope), and `prune`. */
const RULE_BUDGET_KEYS: readonly string[] = Object.freeze(native.configKeys().filter((k) => k.scope !== 'policy').map((k) => k.name))
const RULE_KEYS: readonly string[] = Object.freeze([...RULE_BUDGET_KEYS, 'prune'])

type Resolve = (config: ToolResultPruneConfig) => ResolvedConfig

/**
 * Validate and resolve the policy keys of `config`. A tool rule's budget
 * keys not given are the top level's (those `config` gives), and the
 * rule is resolved by `resolve` as a whole config is; `{ prune: false }`
 * stands alone.
 * @param config - the raw plugin config, its keys already checked.
 * @param resolve - the budget resolver (`resolveConfig`).
 * @returns the policy keys given, resolved and frozen.
 */
export function resolvePolicy(config: ToolResultPruneConfig, resolve: Resolve): ResolvedPolicy {
  const out: { -readonly [K in keyof ResolvedPolicy]: ResolvedPolicy[K] } = {}
  if (config.recentTokens !== undefined) out.recentTokens = integer('recentTokens', config.recentTokens, 0, 'a non-negative integer')
  if (config.contextWindow !== undefined) out.contextWindow = integer('contextWindow', config.contextWindow, 1, 'a positive integer')
  if (config.thresholdRatio !== undefined) out.thresholdRatio = thresholdRatio(config.thresholdRatio)
  // No rules (a loader's default `{}`) is no key.
  if (config.tools !== undefined) {
    const tools = resolveTools(config, resolve)
    if (Object.keys(tools).length > 0) out.tools = tools
  }
  return out
}

/**
 * A `thresholdRatio`: a number greater than 0 and at most 1 (the one check,
 * which the plugin's schema runs too).
 * @param ratio - the value given.
 * @returns the ratio.
 * @throws TypeError when it is not a number, RangeError when it is out of range.
 */
export function thresholdRatio(ratio: unknown): number {
  const message = `ToolResultPruneConfig: thresholdRatio (${describe(ratio)}) must be a number greater than 0 and at most 1`
  if (typeof ratio !== 'number') throw new TypeError(message)
  if (!(ratio > 0 && ratio <= 1)) throw new RangeError(message)
  return ratio
}

function resolveTools(config: ToolResultPruneConfig, resolve: Resolve): Readonly<Record<string, ResolvedToolRule>> {
  const tools = config.tools
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw new TypeError(`ToolResultPruneConfig: tools (${describe(tools)}) must be an object mapping tool names to rules`)
  }
  const inherited: Record<string, unknown> = {}
  const given = config as Record<string, unknown>
  for (const key of RULE_BUDGET_KEYS) if (given[key] !== undefined) inherited[key] = given[key]
  const entries = Object.keys(tools).map((name): [string, ResolvedToolRule] => {
    const where = `tools[${JSON.stringify(name)}]`
    const rule: ToolRuleConfig = (tools as Record<string, ToolRuleConfig>)[name]
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) {
      throw new TypeError(`ToolResultPruneConfig: ${where} (${describe(rule)}) must be an object`)
    }
    for (const key of Object.keys(rule)) {
      if (!RULE_KEYS.includes(key)) {
        throw new TypeError(`ToolResultPruneConfig: ${where}: unknown key "${key}" (allowed: ${RULE_KEYS.join(', ')})`)
      }
    }
    if (rule.prune !== undefined && typeof rule.prune !== 'boolean') {
      throw new TypeError(`ToolResultPruneConfig: ${where}.prune (${describe(rule.prune)}) must be a boolean`)
    }
    if (rule.prune === false) {
      if (Object.keys(rule).length > 1) throw new TypeError(`ToolResultPruneConfig: ${where}: prune: false takes no other key`)
      return [name, Object.freeze({ prune: false as const })]
    }
    const { prune: _prune, ...budgets } = rule
    let resolved: ResolvedConfig
    try {
      resolved = resolve({ ...inherited, ...budgets })
    } catch (error) {
      // The same error, naming the rule it came from.
      if (error instanceof Error) error.message = error.message.replace('ToolResultPruneConfig: ', `ToolResultPruneConfig: ${where}.`)
      throw error
    }
    return [name, Object.freeze({ prune: true as const, ...resolved })]
  })
  return Object.freeze(Object.fromEntries(entries))
}

/** What the native pruner takes besides the budgets: the recent window and the rules as a list. */
export function nativePolicy(config: ResolvedConfig): PolicyOptions {
  const { recentTokens, tools } = config
  const rules = Object.keys(tools ?? {}).map((name): ToolRule => {
    const rule = (tools ?? {})[name]
    if (!rule.prune) return { name }
    const { prune: _prune, ...budgets } = rule
    return { name, config: budgets }
  })
  return { recentTokens, tools: rules }
}

function integer(name: string, value: unknown, min: number, what: string): number {
  assertInteger(name, value, min, what)
  return value
}
