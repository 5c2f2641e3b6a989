// A local stand-in for the DeepSeek chat-completions API, for tests that run
// the real dsh LLM adapter: it speaks the streaming wire format (SSE chunks,
// usage, `[DONE]`) on 127.0.0.1 and answers each request as a script says,
// keeping every request it received.
import { createServer } from 'node:http'

/**
 * Starts the server.
 * @param {(request: { body: object, headers: object, index: number }) => ({ content: string } | { toolCall: { name: string, arguments: object } })} script
 *   what to answer each request with: text, or one tool call.
 * @returns {Promise<{ url: string, requests: { body: object, headers: object }[], close: () => Promise<void> }>}
 */
export async function startMockDeepSeek(script) {
  const requests = []
  const server = createServer((req, res) => {
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (d) => (raw += d))
    req.on('end', () => {
      const body = raw === '' ? {} : JSON.parse(raw)
      const request = { body, headers: req.headers, index: requests.length }
      requests.push(request)
      let answer
      try {
        answer = script(request)
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { message: String(error?.stack ?? error) } }))
        return
      }
      const id = `mock-${request.index}`
      const chunk = (delta, finish = null, usage) => ({
        id,
        object: 'chat.completion.chunk',
        created: 0,
        model: body.model ?? 'mock',
        choices: [{ index: 0, delta, finish_reason: finish }],
        ...(usage ? { usage } : {}),
      })
      const usage = { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: 8, total_tokens: Math.ceil(raw.length / 4) + 8 }
      const chunks = [chunk({ role: 'assistant', content: '' })]
      if ('toolCall' in answer) {
        const { name, arguments: args } = answer.toolCall
        chunks.push(chunk({ tool_calls: [{ index: 0, id: `call-${request.index}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }))
        chunks.push(chunk({}, 'tool_calls', usage))
      } else {
        chunks.push(chunk({ content: answer.content }))
        chunks.push(chunk({}, 'stop', usage))
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      for (const c of chunks) res.write(`data: ${JSON.stringify(c)}\n\n`)
      res.end('data: [DONE]\n\n')
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** The tool messages of a chat-completions request body, in order. */
export const toolMessages = (body) => (body.messages ?? []).filter((m) => m.role === 'tool')

/** Whether a request is a conversation step (it offers tools), not a title or summary call. */
export const isConversation = (request) => Array.isArray(request.body.tools) && request.body.tools.length > 0 && request.headers['x-deepseek-harness-compact'] === undefined
