/**
 * Invariant companion for `tool-result-pruner`, the drop-in for upstream's
 * `./invariant` subpath.
 * @module tool-result-pruner/invariant
 */
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-invariants'

const PACKAGE_NAME = 'tool-result-pruner'

/** Cordis companion plugin name. */
export const name = 'tool-result-pruner-invariant'

/** Services required before the companion can register. */
export const inject = ['invariants']

/** No runtime invariant: Session validates each content-only rewrite and its companion owns cross-event enclosure. */
const install = (): void => {}

/**
 * Register this package's invariant companion.
 * @param ctx - Cordis context carrying the invariant service.
 * @returns the installed registration's disposer after setup succeeds.
 */
export const apply = (ctx: Context): Promise<() => void> => Promise.resolve(ctx.invariants.register(PACKAGE_NAME, install))
