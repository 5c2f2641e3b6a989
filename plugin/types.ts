/**
 * The package's public types: the native addon's, as napi-rs generates them
 * from the Rust binding into `index.d.ts` (the one place they are written),
 * under upstream's names.
 */
export type {
  ExplainedLine,
  LinePlan,
  PrunedEntry,
  PruneResult,
  ResolvedConfig,
  StrategyName as PruneStrategy,
  TextKind,
  TextPage,
  ToolResultPruneConfig,
} from '../index.js'

import type { ToolResultPruneConfig } from '../index.js'

/** Options of `planLines`: the plugin's config keys and keep-spans. */
export interface PlanOptions extends ToolResultPruneConfig {
  /** `[start, end)` UTF-16 offsets into the text; the lines they touch are kept first. */
  spans?: ReadonlyArray<readonly [number, number]>
}
