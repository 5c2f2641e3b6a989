// The package composed the way dsh composes it, from YAML through the real
// cordis Loader (by file URL here; package.test.js loads it by name from an
// install): dsh-llm with the real DeepSeek adapter (pointed at a local
// stand-in), sessions, the token meter, tools, the agent loop, this pruner
// and dsh-compaction-basic. A tool result over the context window's
// pressure threshold is pruned through this package before the next
// request, and the pressure re-measured below it, with no summary call.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import Loader from '@deepseek-ai/cordis-plugin-loader'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { PRUNE_MARKER } from '../index.js'
import { isConversation, startMockDeepSeek, toolMessages } from './support/mock-deepseek.js'

const here = dirname(fileURLToPath(import.meta.url))
const node22 = Number(process.versions.node.split('.')[0]) >= 22
const skip = !node22 && "dsh-agent-loop needs Node 22 (dsh's runtime); the Node 22 run covers it"

let work
let mock
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'trp-compose-'))
  mock = await startMockDeepSeek(({ body }) => {
    if (toolMessages(body).length === 0) return { toolCall: { name: 'emit_log', arguments: {} } }
    return { content: 'The config tests failed.' }
  })
})
after(async () => {
  await mock?.close()
  rmSync(work, { recursive: true, force: true })
})

test('from YAML with dsh-compaction-basic: pressure prunes through this package, re-measured below the threshold, no summary call', { skip }, async () => {
  const log = join(work, 'build.log')
  writeFileSync(log, readFileSync(join(here, 'fixtures', 'logdx-dev', 'pnpm-jest-config-v2-001', 'raw.log'), 'utf8').slice(0, 60_000))
  const yml = join(work, 'cordis.yml')
  writeFileSync(yml, `
- name: '@deepseek-ai/dsh-llm'
- name: '@deepseek-ai/dsh-llm-deepseek'
  config:
    baseURL: ${mock.url}
    thinking: disabled
    models:
      - id: deepseek-v4-flash
        contextWindow: 16000
- name: '@deepseek-ai/dsh-session'
- name: '@deepseek-ai/dsh-token-meter'
- name: '@deepseek-ai/dsh-tools'
- name: '@deepseek-ai/dsh-system-prompt'
- name: '@deepseek-ai/dsh-agent'
- name: '@deepseek-ai/dsh-agent-loop'
- name: ${JSON.stringify(pathToFileURL(join(here, '..', 'lib', 'index.js')).href)}
- name: '@deepseek-ai/dsh-compaction-basic'
- name: ${JSON.stringify(pathToFileURL(join(here, 'support', 'emit-log-tool.js')).href)}
  config:
    file: ${JSON.stringify(log)}
`)
  process.env.DEEPSEEK_API_KEY ??= 'sk-test-not-a-key'
  const root = new Context()
  await root.plugin(Loader, { baseUrl: import.meta.url })
  await root.loader.create({ name: '@deepseek-ai/cordis-plugin-include', config: { path: pathToFileURL(yml).href } })
  await root.loader.await()
  const ctx = root
  assert.equal(ctx.toolResultPruner.constructor.name, 'ToolResultPruner')
  assert.ok(ctx.compaction, 'compaction-basic loaded')

  const agent = ctx.agentLoop.create('compose', { provider: 'deepseek-official', model: 'deepseek-v4-flash' })
  agent.followup(createUserMessage({ content: [{ type: 'text', text: 'Why did the build fail?' }], source: { kind: 'user' } }))
  const deadline = Date.now() + 30_000
  while (!agent.session.events.some((e) => e.type === 'turn/end') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  assert.ok(agent.session.events.some((e) => e.type === 'turn/end'), 'the turn ended')

  const conversation = mock.requests.filter(isConversation)
  assert.equal(conversation.length, 2, JSON.stringify(agent.session.events.map((e) => [e.type, JSON.stringify(e.data).slice(0, 300)])))
  const seen = toolMessages(conversation[1].body)[0].content
  assert.ok(seen.includes(PRUNE_MARKER), 'the model saw the pruned result')
  assert.ok(Array.from(seen).length <= ctx.toolResultPruner.config.thresholdChars)
  const prunes = agent.session.events.filter((e) => e.type === 'compaction/prune')
  assert.equal(prunes.length, 1)
  assert.ok(!agent.session.events.some((e) => e.type === 'compaction/summary'), 'no summary')
  assert.ok(mock.requests.every((r) => r.headers['x-deepseek-harness-compact'] === undefined), 'no summarization request')
  // Below the pressure threshold after the prune: 80% of the window.
  assert.ok(ctx.tokenMeter.measure(agent.session).totalTokens < 0.8 * 16000)
  await root.dispose?.()
})
