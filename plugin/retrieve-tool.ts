/**
 * `tool_result_retrieve`: the model's way back to text that lines mode
 * dropped. Load it beside the pruner (`tool-result-pruner/retrieve-tool`);
 * it reads the calling agent's own session, so it answers only for markers
 * the pruner wrote there.
 *
 * @module tool-result-pruner/retrieve-tool
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Session } from '@deepseek-ai/dsh-session'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type {} from './index.js'

/** Cordis plugin name. */
export const name = 'tool-result-retrieve'

/** Services required before the tool can register. */
export const inject = ['tools', 'toolResultPruner']

/** The tool's name as the model sees it. */
export const TOOL_NAME = 'tool_result_retrieve'

const HASH = /[0-9a-f]{24}/

/**
 * Register `tool_result_retrieve` with the tool registry.
 * @param ctx - Cordis context carrying `tools` and `toolResultPruner`.
 */
export function apply(ctx: Context): void {
  ctx.tools.register(
    defineTool({
      name: TOOL_NAME,
      description:
        'Return the exact text that a pruned tool result replaced with a marker such as ' +
        '`<<ccr:HASH 12_lines_offloaded>>` or `<<ccr:HASH 300_chars_offloaded>>`. ' +
        'Call it when a dropped part of an earlier tool output is needed; pass the 24 hex digits after `ccr:`.',
      parameters: {
        hash: { type: 'string', required: true, description: 'The 24 lowercase hex digits after `<<ccr:` in the marker (the whole marker is accepted too).' },
      },
      output: {
        schema: { type: 'string' },
        render: (_args, text) => [{ type: 'text', text }],
      },
      async execute(args, exec) {
        return retrieveFor(ctx, args.hash, exec.agent?.session)
      },
    }),
  )
}

/** The dropped text, or an error naming the hash. */
function retrieveFor(ctx: Context, hash: string, session: Session | undefined): string {
  if (session === undefined) {
    throw new Error(`${TOOL_NAME}: no session to search (the call has no calling agent)`)
  }
  const found = HASH.exec(hash)?.[0]
  const text = found === undefined ? undefined : ctx.toolResultPruner.retrieve(session, found)
  if (text === undefined) {
    throw new Error(`${TOOL_NAME}: unknown hash "${hash}": no marker with this hash was written into this session's tool results`)
  }
  return text
}
