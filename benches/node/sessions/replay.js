// One session replayed through the real dsh stack: dsh-llm with the real
// DeepSeek adapter pointed at the local stand-in model
// (__test__/support/mock-deepseek.js), dsh-session, dsh-token-meter,
// dsh-tools, dsh-system-prompt, dsh-agent, dsh-agent-loop, one pruner and
// dsh-compaction-basic, composed in one cordis Context as dsh composes them.
// The stand-in model answers from the session's script (a tool call per
// step, a short answer to end each turn, a fixed checkpoint to each
// summary request) and only records what it receives; the tools return the
// script's outputs. Nothing else is stubbed: compaction-basic decides when
// to prune and summarise, before each step, as it does in dsh.
import { Context } from '@deepseek-ai/cordis'
import Llm, { createToolResultMessage, createUserMessage } from '@deepseek-ai/dsh-llm'
import * as DeepSeek from '@deepseek-ai/dsh-llm-deepseek'
import SessionStore from '@deepseek-ai/dsh-session'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import Tools, { defineTool } from '@deepseek-ai/dsh-tools'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import Agent from '@deepseek-ai/dsh-agent'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import BasicCompaction from '@deepseek-ai/dsh-compaction-basic'
import { startMockDeepSeek } from '../../../__test__/support/mock-deepseek.js'

const PROVIDER = 'deepseek-official'
const MODEL = 'deepseek-v4-flash'

/**
 * What the stand-in answers a summary request with: a checkpoint of fixed
 * size in compaction-basic's section layout (its content does not matter
 * to what is measured; its size is that of a terse real one).
 */
const CHECKPOINT = [
  '## Primary Request and Intent',
  '- Make the failing runs pass; keep the public behaviour.',
  '## Key Technical Concepts',
  '- The project layout, its test runner and build tools, as read above.',
  '## Files and Code',
  '- The files read and edited so far, and the lines the logs named.',
  '## Errors and Fixes',
  '- The failures the last runs printed and the edits tried against them.',
  '## Pending Jobs',
  '- Re-run the build and the tests after each edit until they pass.',
  '## Current Work',
  '- Working through the errors of the latest run, first to last.',
  '## Next Step',
  '- Continue with the next error of the latest run.',
  '## Critical Context',
  '- Edits are small and local; no dependency changes.',
].join('\n')

/** The tools a session calls, with dsh's names and argument shapes (bash, read and edit of dsh-tool-bash and dsh-tool-fs). */
const TOOL_SPECS = [
  {
    name: 'bash',
    description: 'Run a shell command in the workspace and return its output.',
    parameters: { command: { type: 'string', required: true, description: 'The command to run.' }, description: { type: 'string', description: 'What the command does, in a few words.' } },
  },
  {
    name: 'read',
    description: 'Read a UTF-8 text file and return line-numbered content.',
    parameters: {
      file_path: { type: 'string', required: true, description: 'Path to read.' },
      offset: { type: 'number', description: '1-based first line to return.' },
      limit: { type: 'number', description: 'Maximum number of lines to return.' },
    },
  },
  {
    name: 'edit',
    description: 'Edit an existing UTF-8 text file by replacing literal text.',
    parameters: {
      file_path: { type: 'string', required: true, description: 'Path to edit.' },
      old_string: { type: 'string', required: true, description: 'Literal text to replace.' },
      new_string: { type: 'string', required: true, description: 'Replacement text.' },
    },
  },
]

/**
 * The prompt of one request as one string, for the cache-prefix measure:
 * the tool schemas, then the messages (system first) as the adapter sent them.
 */
export const promptText = (body) => JSON.stringify([body.tools ?? [], body.messages ?? []])

/**
 * Records on `record` the text of the stand-in's reply (`output`: an
 * answer's or checkpoint's content, a tool call's name and JSON
 * arguments), and returns the reply.
 */
function answer(record, reply) {
  record.output = reply.toolCall === undefined ? reply.content : `${reply.toolCall.name}${JSON.stringify(reply.toolCall.arguments)}`
  return reply
}

/**
 * Replays `session` with `contender`'s pruner at `contextWindow`, with
 * dsh-compaction-basic loaded with `compaction` (its own config; default none).
 * @returns {Promise<{ rejected?: string, requests: object[], calls: object[], events: object[], turnEnds: object[], passes: object[], thresholdRatio: number }>}
 *   what the model received, the calls it made, the compaction events, how
 *   each turn ended, and each `pruneSession` pass with the meter around it.
 */
export async function replay(session, contender, { contextWindow, compaction }) {
  // The script, one action per conversation request: each turn's calls, then its answer.
  const actions = session.turns.flatMap((turn, t) => [...turn.calls.map((call) => ({ kind: 'call', turn: t, call })), { kind: 'answer', turn: t, text: turn.answer }])
  let cursor = 0
  const calls = []
  const requests = []
  const pending = []
  const passes = []
  const offScript = []
  let agent
  let ctx

  const mock = await startMockDeepSeek(({ body, headers, index }) => {
    const summary = headers['x-deepseek-harness-compact'] !== undefined
    const conversation = !summary && Array.isArray(body.tools) && body.tools.length > 0
    const record = {
      index,
      kind: summary ? 'summary' : conversation ? 'conversation' : 'other',
      prompt: promptText(body),
      tools: (body.messages ?? []).filter((m) => m.role === 'tool').map((m) => ({ id: m.tool_call_id, content: m.content })),
    }
    // What compaction-basic's meter makes of the session this request was built from.
    if (conversation) record.meterTokens = ctx.tokenMeter.measure(agent.session).totalTokens
    requests.push(record)
    // What the model answers, as text, for the output tokens of the bill.
    if (summary) return answer(record, { content: CHECKPOINT })
    if (!conversation) return answer(record, { content: 'Session' })
    const action = actions[cursor++]
    if (action === undefined) throw new Error('the model was asked for more steps than the script has')
    if (action.kind === 'answer') return answer(record, { content: action.text })
    const entry = { callId: `call-${index}`, tool: action.call.tool, args: action.call.args, output: action.call.output, turn: action.turn }
    calls.push(entry)
    pending.push(entry)
    return answer(record, { toolCall: { name: action.call.tool, arguments: action.call.args } })
  })

  try {
    process.env.DEEPSEEK_API_KEY ??= 'sk-bench-not-a-key'
    ctx = new Context()
    await ctx.plugin(Llm)
    await ctx.plugin(DeepSeek, { baseURL: mock.url, thinking: 'disabled', models: [{ id: MODEL, contextWindow }] })
    await ctx.plugin(SessionStore)
    await ctx.plugin(TokenMeter)
    await ctx.plugin(Tools)
    await ctx.plugin(SystemPrompt)
    await ctx.plugin(Agent)
    await ctx.plugin(AgentLoop)
    try {
      // The contender's config, passed through as it stands in the table.
      await ctx.plugin(contender.plugin, contender.config)
    } catch (error) {
      return { rejected: String(error?.message ?? error), requests, calls, events: [], turnEnds: [] }
    }
    const pruner = ctx.toolResultPruner
    if (!pruner) return { rejected: 'toolResultPruner did not register', requests, calls, events: [], turnEnds: [] }
    // Watch each pass compaction-basic asks for: the meter before and after,
    // and the window the session's last request recorded (request/context).
    const prune = pruner.pruneSession
    pruner.pruneSession = function (s) {
      const before = ctx.tokenMeter.measure(s).totalTokens
      const result = prune.call(this, s)
      passes.push({ atRequest: requests.length, before, after: ctx.tokenMeter.measure(s).totalTokens, contextWindow: s.requestContext()?.contextWindow, pruned: result?.pruned?.length ?? 0 })
      return result
    }
    await ctx.plugin(BasicCompaction, compaction)
    await ctx.plugin({
      name: 'session-bench-tools',
      inject: ['tools'],
      apply(c) {
        for (const spec of TOOL_SPECS) {
          c.tools.register(
            defineTool({
              ...spec,
              output: { schema: { type: 'string' }, render: (_args, text) => [{ type: 'text', text }] },
              async execute(args) {
                const entry = pending.shift()
                if (entry === undefined || entry.tool !== spec.name || JSON.stringify(entry.args) !== JSON.stringify(args)) {
                  offScript.push(`${spec.name} ${JSON.stringify(args).slice(0, 200)}`)
                  throw new Error(`${spec.name}: called out of script`)
                }
                // The meter's price of the result as it lands, for the recent-window measure.
                entry.tokens = ctx.tokenMeter.estimateMessage(createToolResultMessage({ callId: entry.callId, content: [{ type: 'text', text: entry.output }], isError: false }))
                return entry.output
              },
            }),
          )
        }
      },
    })
    if (!ctx.compaction || !ctx.agentLoop) throw new Error('the dsh stack did not come up (compaction, agentLoop)')

    agent = ctx.agentLoop.create('session-bench', { provider: PROVIDER, model: MODEL })
    for (const turn of session.turns) {
      agent.followup(createUserMessage({ content: [{ type: 'text', text: turn.prompt }], source: { kind: 'user' } }))
      await agent.whenIdle()
    }
    // The events the metrics read, without their payloads.
    const events = agent.session.events
      .filter((e) => e.type.startsWith('compaction/') || e.type === 'turn/end')
      .map((e) => ({
        seq: e.seq,
        type: e.type,
        ...(e.type === 'compaction/prune' ? { shadowed: e.data.shadowedSeqs.length } : {}),
        ...(e.type === 'compaction/end' && e.data.error !== undefined ? { error: e.data.error } : {}),
        ...(e.type === 'turn/end' ? { reason: e.data.reason } : {}),
      }))
    const turnEnds = events.filter((e) => e.type === 'turn/end').map((e) => e.reason)
    if (offScript.length > 0) throw new Error(`${contender.name}/${session.name}: tools called out of script: ${offScript.join('; ')}`)
    if (cursor !== actions.length) throw new Error(`${contender.name}/${session.name}: the replay stopped at action ${cursor} of ${actions.length} (${JSON.stringify(turnEnds)})`)
    return { requests, calls, events, turnEnds, passes, thresholdRatio: ctx.compaction.config?.thresholdRatio }
  } finally {
    await ctx?.fiber?.dispose?.()
    await mock.close()
  }
}
