/**
 * The package's public types: the native addon's, as napi-rs generates them
 * from the Rust binding into `index.d.ts` (the one place they are written),
 * under upstream's names.
 */
import type { ResolvedConfig, ToolResultPruneConfig } from '../index.js'

export type {
  CommandKind,
  ExplainedLine,
  LinePlan,
  PrunedEntry,
  PruneOptions,
  PruneResult,
  ResolvedConfig,
  StrategyName as PruneStrategy,
  TextKind,
  TextPage,
  ToolResultPruneConfig,
  ToolRuleConfig,
} from '../index.js'

/** A resolved tool rule: never pruned, or pruned with its own resolved budgets. */
export type ResolvedToolRule = NonNullable<ResolvedConfig['tools']>[string]

/** Options of `planLines`: the plugin's config keys, keep-spans and the command. */
export interface PlanOptions extends ToolResultPruneConfig {
  /** `[start, end)` UTF-16 offsets into the text; the lines they touch are kept first. */
  spans?: ReadonlyArray<readonly [number, number]>
  /** The shell command that printed the text: names its kind where it is unambiguous (`git diff`, `cat src/x.py`, `rg -n`, …). */
  command?: string
  /** What the text was asked for (the user's request, the call): its rare words raise the lines that hold them. */
  task?: string
}
