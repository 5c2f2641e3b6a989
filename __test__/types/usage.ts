// Compiled with `tsc --noEmit` by types.test.js: the public types a user
// imports, and the cordis Context merge that types ctx.toolResultPruner.
import { Context } from '@deepseek-ai/cordis'
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import type { Session } from '@deepseek-ai/dsh-session'
import ToolResultPruner, {
  codePointLength,
  DEFAULTS,
  PRUNE_MARKER,
  resolveConfig,
  ToolResultPruner as Named,
  type PrunedEntry,
  type PruneResult,
  type ResolvedConfig,
  type ToolResultPruneConfig,
} from 'tool-result-pruner'
import * as Invariant from 'tool-result-pruner/invariant'

export function apply(ctx: Context): void {
  ctx.plugin(ToolResultPruner)
}

export function use(ctx: Context, session: Session, blocks: ContentBlock[]): number {
  const pruner: Named = ctx.toolResultPruner
  const result: PruneResult = pruner.pruneSession(session)
  const first: PrunedEntry | undefined = result.pruned[0]
  const config: ResolvedConfig = resolveConfig({ thresholdChars: 9000 } satisfies ToolResultPruneConfig)
  const pruned: ContentBlock[] | null = pruner.pruneContent(blocks)
  // @ts-expect-error config is readonly
  config.thresholdChars = 1
  return codePointLength(PRUNE_MARKER) + DEFAULTS.headChars + pruner.measureContent(blocks) + (first?.charsAfter ?? 0) + (pruned?.length ?? 0)
}

export const companion: string = Invariant.name
