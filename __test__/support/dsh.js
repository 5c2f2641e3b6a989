// Real dsh building blocks for the tests: contexts with the real token meter,
// and real Sessions grown through the real append path.
import { Context } from '@deepseek-ai/cordis'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import { Session } from '@deepseek-ai/dsh-session'
import { createAssistantMessage, createToolResultMessage, createUserMessage } from '@deepseek-ai/dsh-llm'
import Upstream from '@deepseek-ai/dsh-compaction-tool-result-pruner'
import Ours from '../../lib/index.js'

export { Upstream, Ours, Session }

/** A root context with the real token meter and `Pruner` loaded with `config`. */
export async function pruner(Pruner, config) {
  const ctx = new Context()
  await ctx.plugin(TokenMeter)
  await ctx.plugin(Pruner, config)
  if (!ctx.toolResultPruner) throw new Error('toolResultPruner did not register')
  return ctx.toolResultPruner
}

/**
 * Appends one closed turn to `session`: a user prompt, then per step an
 * assistant message calling tools and one `tool/result` per call with the
 * given content blocks (and optional extra data fields); the prompt is
 * `turn N` unless `prompt` is given.
 * @param steps - array of steps; a step is an array of `{ content, isError?, extra?, tool?, args? }`
 *   (`tool` and `args`, the call's name and raw JSON arguments, default to `bash` and `{"k":K}`).
 */
export function appendTurn(session, turn, steps, { close = true, prompt = `turn ${turn}` } = {}) {
  session.append('turn/start', { turn })
  session.append('user/message', createUserMessage({ content: [{ type: 'text', text: prompt }], source: { kind: 'user' } }), { surfaceOp: 'append' })
  steps.forEach((results, i) => {
    const step = i + 1
    session.append('step/start', { turn, step })
    const calls = results.map((r, k) => ({ type: 'tool-call', id: `call-${turn}-${step}-${k}`, name: r.tool ?? 'bash', arguments: r.args ?? `{"k":${k}}` }))
    const assistant = createAssistantMessage({ content: calls, source: { provider: 'test', model: 'test-model' } })
    session.append('assistant/message', { turn, step, message: assistant }, { surfaceOp: 'append' })
    results.forEach((r, k) => {
      const callId = calls[k].id
      session.append('tool/call', { turn, step, callId, name: calls[k].name, arguments: calls[k].arguments })
      const message = createToolResultMessage({ callId, content: r.content, isError: r.isError ?? false })
      session.append('tool/result', { turn, step, message, ...(r.extra ?? {}) }, { surfaceOp: 'append' })
    })
    session.append('step/end', { turn, step })
  })
  if (close) session.append('turn/end', { turn, reason: { kind: 'completed' } })
}

/** A detached session holding `turns` (each an array of steps, see `appendTurn`). */
export function sessionWith(turns, id = 'test-session') {
  const session = Session.create(id)
  turns.forEach((steps, i) => appendTurn(session, i + 1, steps))
  return session
}

/**
 * Events with volatile parts made comparable: `time` dropped, and every
 * message id replaced by its order of first appearance.
 */
export function comparable(events) {
  const ids = new Map()
  const walk = (value, key) => {
    if (Array.isArray(value)) return value.map((v) => walk(v))
    if (value && typeof value === 'object') {
      const out = {}
      for (const [k, v] of Object.entries(value)) if (k !== 'time') out[k] = walk(v, k)
      return out
    }
    if (key === 'id' && typeof value === 'string') {
      if (!ids.has(value)) ids.set(value, `id#${ids.size}`)
      return ids.get(value)
    }
    return value
  }
  return walk(events)
}
