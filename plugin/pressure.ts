/**
 * The session's pressure as dsh-compaction-basic finds it before calling
 * `pruneSession`, rebuilt here because it passes the session only: the
 * token meter's `measure(session).totalTokens` against
 * `floor(contextWindow * thresholdRatio)`. The window is the one the
 * session's last request recorded (`session.requestContext()`, which the
 * agent loop appends from the same adapter lookup compaction-basic makes),
 * else the `contextWindow` key. The ratio is the compaction service's
 * (compaction-basic's `modelPolicies` entry for the routed provider and
 * model, else its `thresholdRatio`), else the `thresholdRatio` key, else
 * compaction-basic's default (the key table's fallback for it).
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Session } from '@deepseek-ai/dsh-session'
import { configKeys, type SessionPressure } from '../index.js'
import type { ResolvedConfig } from './types.js'

/** compaction-basic's `DEFAULT_THRESHOLD_RATIO`: the key table's fallback for `thresholdRatio`. */
const DEFAULT_THRESHOLD_RATIO: number = configKeys().find((k) => k.name === 'thresholdRatio')!.fallback!

interface ModelPolicy {
  provider?: unknown
  model?: unknown
  thresholdRatio?: unknown
}

/**
 * The pressure on `session` now; `undefined` when no window is known
 * (then the pass prunes as upstream does).
 */
export function readPressure(ctx: Context, session: Session, config: ResolvedConfig): SessionPressure | undefined {
  const recorded = session.requestContext()?.contextWindow
  const window = typeof recorded === 'number' && recorded > 0 ? recorded : config.contextWindow
  if (window === undefined) return undefined
  const ratio = compactionRatio(ctx, session) ?? config.thresholdRatio ?? DEFAULT_THRESHOLD_RATIO
  return { totalTokens: ctx.tokenMeter.measure(session).totalTokens, thresholdTokens: Math.floor(window * ratio) }
}

/** The threshold ratio of a compaction service shaped as compaction-basic's config, for the routed target. */
function compactionRatio(ctx: Context, session: Session): number | undefined {
  const config = (ctx.get('compaction') as { config?: { thresholdRatio?: unknown; modelPolicies?: unknown } } | undefined)?.config
  if (typeof config?.thresholdRatio !== 'number') return undefined
  const target = session.requestHeader()?.config
  const policies = Array.isArray(config.modelPolicies) ? (config.modelPolicies as ModelPolicy[]) : []
  const own = policies.find((p) => p.provider === target?.provider && p.model === target?.model)?.thresholdRatio
  return typeof own === 'number' ? own : config.thresholdRatio
}
