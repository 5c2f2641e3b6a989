#!/usr/bin/env node
// Run under Node 22 (the JSONL backend needs node:zlib's zstd): writes real
// dsh session logs through the real @deepseek-ai/dsh-session-persistence-jsonl
// plugin, one per encoding, and prints their paths as JSON.
//   node make-session-logs.js ROOT
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import { SessionStore } from '@deepseek-ai/dsh-session'
import Jsonl from '@deepseek-ai/dsh-session-persistence-jsonl'
import { appendTurn } from './dsh.js'
import { corpus } from './lines.js'

const root = process.argv[2]
const logs = Object.fromEntries(corpus().map((c) => [c.name, c.text]))
const out = {}
for (const compression of ['none', 'zstd']) {
  const ctx = new Context()
  await ctx.plugin(SessionStore)
  await ctx.plugin(Jsonl, { root: join(root, compression), compression })
  const session = ctx.sessions.create(undefined, { meta: { cwd: '/work/project' } })
  appendTurn(session, 1, [[
    { content: [{ type: 'text', text: logs['lint-react-001'] }], isError: true, extra: { meta: { exit: 1 } } },
    { content: [{ type: 'text', text: 'small output\n' }] },
  ]])
  appendTurn(session, 2, [[{ content: [{ type: 'text', text: logs['pnpm-jest-config-v2-001'].slice(0, 60_000) }, { type: 'image', attachment: { id: 'shot' } }] }]])
  appendTurn(session, 3, [[{ content: [{ type: 'text', text: 'x\n'.repeat(5000) + '\uDC00 lone\n' }] }]], { close: false })
  await ctx.sessions.flush(session)
  const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]))
  out[compression] = walk(join(root, compression)).find((f) => f.endsWith(compression === 'zstd' ? '.jsonl.zstd' : '.jsonl'))
  await ctx.fiber.dispose()
}
console.log(JSON.stringify(out))
