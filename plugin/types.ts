import type { CallId } from '@deepseek-ai/dsh-llm'

/** How over-budget text is cut: upstream's head/tail, or failure-aware lines. */
export type PruneStrategy = 'head-tail' | 'lines'

/** Character-budget policy for deterministic tool-result pruning. */
export interface ToolResultPruneConfig {
  /** Prune when total text exceeds this many Unicode code points. Defaults to `8192`. */
  thresholdChars?: number
  /** Maximum leading Unicode code points retained (head/tail; the head share of cut lines). Defaults to `4096`. */
  headChars?: number
  /** Maximum trailing Unicode code points retained (head/tail; the tail share of cut lines). Defaults to `1024`. */
  tailChars?: number
  /** `'head-tail'` (upstream's rule, the default) or `'lines'`. */
  strategy?: PruneStrategy
  /**
   * Lines mode: code points a pruned result keeps at most. Defaults to
   * `headChars + 39 + tailChars`, what head/tail keeps; at most `thresholdChars`.
   */
  keepChars?: number
  /** Lines mode: neighbours kept on each side of a kept line. Defaults to `2`. */
  contextLines?: number
  /** Lines mode: lines kept at the start and at the end. Defaults to `2`. */
  edgeLines?: number
  /**
   * Session policy: meter tokens of the newest over-threshold tool results
   * `pruneSession` leaves whole while pruning the older ones brings the
   * session under the compaction threshold. Absent: none (upstream's pass).
   */
  recentTokens?: number
  /** Session policy: the model's context window when the session's last request did not record one. */
  contextWindow?: number
  /** Session policy: the compaction threshold ratio when the compaction service's cannot be read. Defaults to `0.8`. */
  thresholdRatio?: number
  /** Session policy: per-tool rules, by tool name. `tool_result_retrieve` results are never pruned. */
  tools?: Readonly<Record<string, ToolRuleConfig>>
}

/** One tool's rule: its own budget keys and strategy (the rest the top level's), or `{ prune: false }`. */
export interface ToolRuleConfig {
  thresholdChars?: number
  headChars?: number
  tailChars?: number
  strategy?: PruneStrategy
  keepChars?: number
  contextLines?: number
  edgeLines?: number
  /** `false`: this tool's results are never pruned (and the rule has no other key). */
  prune?: boolean
}

/** A resolved tool rule. */
export type ResolvedToolRule = { readonly prune: false } | ({ readonly prune: true } & Omit<ResolvedConfig, 'recentTokens' | 'contextWindow' | 'thresholdRatio' | 'tools'>)

/** Validated, detached, deeply immutable pruning configuration. */
export interface ResolvedConfig {
  readonly thresholdChars: number
  readonly headChars: number
  readonly tailChars: number
  readonly strategy: PruneStrategy
  readonly keepChars: number
  readonly contextLines: number
  readonly edgeLines: number
  readonly recentTokens?: number
  readonly contextWindow?: number
  readonly thresholdRatio?: number
  readonly tools?: Readonly<Record<string, ResolvedToolRule>>
}

/** Cited source event and size accounting for one landed surface replacement. */
export interface PrunedEntry {
  /** Full-fidelity tool-result event shadowed by the replacement. */
  readonly originalSeq: number
  /** Newly appended pruned tool-result event. */
  readonly replacementSeq: number
  /** Tool call shared by the original and replacement. */
  readonly callId: CallId
  /** Original text size in Unicode code points. */
  readonly charsBefore: number
  /** Replacement text size in Unicode code points. */
  readonly charsAfter: number
  /**
   * Lines mode only: the exact text behind every `<<ccr:HASH …>>` marker in
   * the replacement, by hash.
   */
  readonly recoverable?: Readonly<Record<string, string>>
  /** Under a session policy (lines mode, `tools` or `recentTokens`): the meter's price of the original message. */
  readonly tokensBefore?: number
  /** Under a session policy: the meter's price of the replacement message. */
  readonly tokensAfter?: number
  /** Lines mode: what each text block was planned as. */
  readonly kinds?: readonly TextKind[]
  /** Lines mode: the call that named the kind (``bash `git diff` ``), or `'sample'`. */
  readonly kindFrom?: string
}

/** Aggregate outcome of one stable-surface pruning pass. */
export interface PruneResult {
  /** Replacements in the snapshotted surface order. */
  readonly pruned: readonly PrunedEntry[]
  /** Total Unicode code points removed across replacements. */
  readonly charsRemoved: number
  /** Under a session policy: over-threshold results left whole as the newest, by seq. */
  readonly keptRecent?: readonly number[]
}

/** Options of `planLines`: the plugin's config keys and keep-spans. */
export interface PlanOptions extends ToolResultPruneConfig {
  /** `[start, end)` UTF-16 offsets into the text; the lines they touch are kept first. */
  spans?: ReadonlyArray<readonly [number, number]>
  /** The shell command that printed the text: names its kind where it is unambiguous (`git diff`, `cat src/x.py`, `rg -n`, …). */
  command?: string
}

/** A line plan: the pruned text and the means to undo it. */
export interface LinePlan {
  /** Kept lines verbatim, one `<<ccr:HASH N_lines_offloaded>>` line per dropped run. */
  readonly content: string
  /** Hash → exact dropped text, for every marker in `content`. */
  readonly recoverable: Readonly<Record<string, string>>
  /** Input lines replaced by markers. */
  readonly droppedLines: number
  /** What the text is, which decides how it is outlined (`'log'`: by the failure rules). */
  readonly kinds: readonly TextKind[]
  /** What decided the kind: the command's words (`` `git diff` ``), or `'sample'`. */
  readonly kindFrom: string
}

/** What lines mode takes a text to be. */
export type TextKind = 'log' | 'code' | 'diff' | 'search' | 'json' | 'listing'
