/**
 * Native, replay-safe tool-result pruning service: a drop-in for
 * `@deepseek-ai/dsh-compaction-tool-result-pruner`.
 *
 * @module tool-result-pruner
 */
import { type Context, Service } from '@deepseek-ai/cordis'
import type z from '@deepseek-ai/schemastery'
import { type ContentBlock, freezeMessage, type Message } from '@deepseek-ai/dsh-llm'
import type { Session } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-token-meter'
import { NativePruner, retrieve } from '../index.js'
import { resolveConfig } from './config.js'
import { readPressure } from './pressure.js'
import { configSchema } from './schema.js'
import type { LinePlan, PlanOptions, PruneOptions, PruneResult, ResolvedConfig, ToolResultPruneConfig } from './types.js'

export { codePointLength, DEFAULTS, PRUNE_MARKER, resolveConfig } from './config.js'
export { contentHash, kindOfCommand } from '../index.js'
export type { CommandKind, LinePlan, PlanOptions, PrunedEntry, PruneOptions, PruneResult, PruneStrategy, ResolvedConfig, ResolvedToolRule, TextKind, ToolResultPruneConfig, ToolRuleConfig } from './types.js'

declare module '@deepseek-ai/cordis' {
  interface Context {
    toolResultPruner: ToolResultPruner
  }
}

const NATIVE = Symbol('tool-result-pruner/native')

/** What the native session adapter calls back into: the token meter's price and dsh-llm's freeze. */
type Host = Parameters<NativePruner['pruneSession']>[1]

/** Deterministic head/middle/tail pruning for current tool-result surface nodes. */
export class ToolResultPruner extends Service {
  static inject = ['tokenMeter']

  /** The loader's schema, from the core's key table (`./schema.ts`). */
  static Config: z<ToolResultPruneConfig> = configSchema

  /** Resolved and immutable budgets and strategy. */
  readonly config: ResolvedConfig

  declare private readonly [NATIVE]: { pruner: NativePruner; host: Host }

  constructor(ctx: Context, config: ToolResultPruneConfig = {}) {
    super(ctx, 'toolResultPruner')
    this.config = resolveConfig(config)
    const host: Host = {
      estimateMessage: (message: Message) => this.ctx.tokenMeter.estimateMessage(message),
      freezeMessage,
    }
    Object.defineProperty(this, NATIVE, { value: { pruner: new NativePruner(this.config), host } })
  }

  /**
   * Measure text content in Unicode code points; non-text blocks cost zero.
   * @param blocks - tool-result content to measure.
   * @returns total Unicode code points across text blocks.
   * @throws TypeError when `blocks` is not an array of block objects or a
   * text block's `text` is not a string.
   */
  measureContent(blocks: readonly ContentBlock[]): number {
    return this[NATIVE].pruner.measureContent(blocks)
  }

  /**
   * Replace an over-budget text middle while retaining rich-block order.
   * Text slicing is by Unicode code point, not UTF-16 code unit, so a retained
   * boundary cannot split a surrogate pair. Grapheme clusters may still split.
   * In lines mode, `options.command` (the call that printed the blocks)
   * names their kind where it is unambiguous, and the rare words of
   * `options.task` (what the output was asked for) raise the lines that hold
   * them; head/tail, upstream's rule, ignores both.
   * @param blocks - original tool-result content.
   * @param options - the call's command and the task, both optional.
   * @returns pruned content, or `null` when the text is within budget.
   */
  pruneContent(blocks: readonly ContentBlock[], options?: PruneOptions): ContentBlock[] | null {
    const { pruner } = this[NATIVE]
    return options === undefined ? pruner.pruneContent(blocks) : pruner.pruneContent(blocks, options)
  }

  /**
   * Prune every over-budget tool result from one stable current-surface snapshot.
   * Each replacement preserves the complete event data except for `content`,
   * cites the shadowed node so replay can recover the replacement input, and is
   * immediately preceded by a `compaction/prune` shadow-price event pricing the
   * shadowed node through the injected token meter. A result with a text
   * block whose `text` is not a string is left as it is.
   * With `recentTokens`, the newest results the model has not read stay
   * whole while pruning the others brings the session under the compaction threshold
   * (`./pressure.ts`); `tools` rules and, in lines mode, the kind the call
   * names apply to every pass.
   * @param session - session whose current surface is rewritten.
   * @returns landed replacements and aggregate Unicode-code-point savings.
   * @throws the session's own error when it rejects an append; replacements
   * committed earlier in the pass remain durable.
   */
  pruneSession(session: Session): PruneResult {
    const { pruner, host } = this[NATIVE]
    const pressure = this.config.recentTokens === undefined ? undefined : readPressure(this.ctx, session, this.config)
    return pruner.pruneSession(session, host, pressure)
  }

  /**
   * The exact text behind a `<<ccr:HASH …>>` marker this pruner wrote into
   * `session`, found from the append-only log itself (the replacement and
   * the original event it cites), so it works after a restart or a replay.
   * @param session - the session the marker appeared in.
   * @param hash - the marker's hash (its lowercase hex digits).
   * @returns the dropped text byte for byte, or `undefined` for a hash the
   * pruner did not write into this session (including a marker a tool printed).
   */
  retrieve(session: Session, hash: string): string | undefined {
    return retrieve(session, hash)
  }
}

/**
 * The line plan the service makes of one text, without a session: what the
 * model would see, the exact text behind each marker, and the lines
 * dropped. Options are the plugin's config keys (validated as the plugin
 * validates them; `strategy` is `'lines'` unless given), `spans`,
 * `[start, end)` UTF-16 offsets of lines to keep first, `command`, the
 * shell command that printed the text, which names its kind where it is
 * unambiguous, and `task`, what the text was asked for, whose rare words
 * raise the lines that hold them.
 * @param text - one tool output.
 * @param options - config keys and keep-spans.
 * @returns the plan; the text itself when it is within the threshold.
 */
export function planLines(text: string, options: PlanOptions = {}): LinePlan {
  const { spans, command, task, ...config } = options
  const resolved = resolveConfig({ strategy: 'lines', ...config })
  return new NativePruner(resolved).plan(text, spans, command, task)
}

export default ToolResultPruner
