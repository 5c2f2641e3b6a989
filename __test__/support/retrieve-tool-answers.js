#!/usr/bin/env node
// Run under Node 22 (dsh-agent-loop's runtime): a real agent whose session
// holds one long tool result, pruned in lines mode by this package's
// service, asked for the dropped text through the real tool registry's
// tool_result_retrieve with each argument given. Writes the agent's
// session as a JSONL log (the header line, then its events) to FILE, for
// the CLI to be asked the same, and prints as JSON the hash of the largest
// dropped run, its text, and per argument whether the tool answered and
// the text of its page. In an argument, {hash} stands for that hash,
// {HASH} for it in capitals and {short} for its first 23 digits.
//   node retrieve-tool-answers.js FILE '["{hash}", "<<ccr:{hash} 3_lines_offloaded>>", …]'
import { writeFileSync } from 'node:fs'
import { Context } from '@deepseek-ai/cordis'
import { SessionStore } from '@deepseek-ai/dsh-session'
import AgentRegistry from '@deepseek-ai/dsh-agent'
import LlmRuntime from '@deepseek-ai/dsh-llm'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import Ours from '../../lib/index.js'
import * as RetrieveTool from '../../lib/retrieve-tool.js'
import { appendTurn } from './dsh.js'
import { corpus } from './lines.js'

const [file, argsJson] = process.argv.slice(2)
const ctx = new Context()
for (const plugin of [SessionStore, AgentRegistry, LlmRuntime, SystemPrompt, ToolRuntime, AgentLoop, TokenMeter]) await ctx.plugin(plugin)
await ctx.plugin(Ours, { strategy: 'lines' })
await ctx.plugin(RetrieveTool)

const agent = ctx.agentLoop.create('retrieve-agent')
appendTurn(agent.session, 1, [[{ content: [{ type: 'text', text: corpus().find((c) => c.name === 'lint-react-001').text }] }]])
const [entry] = ctx.toolResultPruner.pruneSession(agent.session).pruned
const [hash, text] = Object.entries(entry.recoverable).sort((a, b) => b[1].length - a[1].length)[0]
const header = { type: 'session', ...agent.session.header }
writeFileSync(file, [header, ...agent.session.events].map((e) => JSON.stringify(e) + '\n').join(''))

const answers = []
for (const template of JSON.parse(argsJson)) {
  const arg = template.replaceAll('{hash}', hash).replaceAll('{HASH}', hash.toUpperCase()).replaceAll('{short}', hash.slice(0, 23))
  const r = await ctx.tools.execute({ callId: `c-${answers.length}`, name: 'tool_result_retrieve', arguments: { hash: arg }, signal: new AbortController().signal, agent })
  answers.push({ arg, answered: r.isError === false, page: r.isError === false ? r.value.slice(r.value.indexOf('\n') + 1) : null })
}
console.log(JSON.stringify({ hash, text, answers }))
await ctx.fiber.dispose()
