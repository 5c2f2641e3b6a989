/**
 * `tool_result_retrieve`: the model's way back to text that lines mode
 * dropped. Load it beside the pruner (`tool-result-pruner/retrieve-tool`);
 * it reads the calling agent's own session, so it answers only for markers
 * the pruner wrote there.
 *
 * A retrieved run can be longer than a tool result may be before the
 * pruner cuts it again, so the tool returns one page at a time, each whole
 * lines within the pruner's `thresholdChars`, under a first line saying
 * which lines it holds and how to ask for the next page. The model may
 * narrow first to a line range or to the lines holding a string.
 *
 * @module tool-result-pruner/retrieve-tool
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Session } from '@deepseek-ai/dsh-session'
import { defineTool } from '@deepseek-ai/dsh-tools'
import { checkRetrievalThreshold, findHash, formatMarker, HASH_LEN, RETRIEVE_TOOL_NAME, retrievePage, SEARCH_CONTEXT } from '../index.js'
import { ToolResultPruner } from './index.js'

/** Cordis plugin name. */
export const name = 'tool-result-retrieve'

/** Services required before the tool can register. */
export const inject = ['tools', 'toolResultPruner']

/** The tool's name as the model sees it. */
export const TOOL_NAME = RETRIEVE_TOOL_NAME

interface RetrieveArgs {
  hash: string
  page?: number
  firstLine?: number
  lastLine?: number
  search?: string
}

/**
 * Register `tool_result_retrieve` with the tool registry. Fails at load,
 * with one message, when `toolResultPruner` is not this package's service
 * (dsh's own pruner writes no markers to retrieve), or with a `RangeError`
 * when its `thresholdChars` leaves no room for a page beside the header.
 * @param ctx - Cordis context carrying `tools` and `toolResultPruner`.
 */
export function apply(ctx: Context): void {
  if (!(ctx.toolResultPruner instanceof ToolResultPruner)) {
    throw new Error(
      `${name}: the toolResultPruner service is not tool-result-pruner's (it is another pruner, which writes no retrievable markers); ` +
        "load the 'tool-result-pruner' plugin in its place (in dsh: `dsh plugin --profile <name> add tool-result-pruner`)",
    )
  }
  try {
    checkRetrievalThreshold(ctx.toolResultPruner.config.thresholdChars)
  } catch (error) {
    throw new RangeError(`${name}: ${error instanceof Error ? error.message : String(error)}`)
  }
  ctx.tools.register(
    defineTool({
      name: TOOL_NAME,
      description:
        'Return the exact text that a pruned tool result replaced with a marker such as ' +
        `\`${formatMarker('HASH', 12, 'lines')}\` or \`${formatMarker('HASH', 300, 'chars')}\`, one page at a time. ` +
        'The first line of the result says which lines the page holds and how to get the next page; the rest is the text, exactly. ' +
        'To read less, pass firstLine and lastLine, or search for a string to get only the lines holding it, with their neighbours (a range or a search, not both).',
      parameters: {
        hash: { type: 'string', required: true, description: `The marker's hash, its ${HASH_LEN} lowercase hex digits (the whole marker is accepted too).` },
        page: { type: 'number', description: 'The page to return, from 1 (default 1).' },
        firstLine: { type: 'number', description: 'With lastLine: only these lines of the dropped text, counted from 1.' },
        lastLine: { type: 'number', description: 'With firstLine: the last line wanted.' },
        search: { type: 'string', description: `Only the lines holding this exact text, each with ${SEARCH_CONTEXT} neighbours on either side (not with firstLine/lastLine).` },
      },
      output: {
        schema: { type: 'string' },
        render: (_args, text) => [{ type: 'text', text }],
      },
      async execute(args, exec) {
        return retrieveFor(ctx, args, exec.agent?.session)
      },
    }),
  )
}

/** One page of the dropped text under its header line, or an error naming the problem. */
function retrieveFor(ctx: Context, args: RetrieveArgs, session: Session | undefined): string {
  if (session === undefined) {
    throw new Error(`${TOOL_NAME}: no session to search (the call has no calling agent)`)
  }
  const hash = findHash(args.hash)
  const { thresholdChars } = ctx.toolResultPruner.config
  const options = { thresholdChars, page: args.page, firstLine: args.firstLine, lastLine: args.lastLine, search: args.search }
  const page = hash === undefined ? undefined : retrievePage(session, hash, options)
  if (hash === undefined || page === undefined) {
    throw new Error(`${TOOL_NAME}: unknown hash "${args.hash}": no marker with this hash was written into this session's tool results`)
  }
  return page.header + page.text
}
