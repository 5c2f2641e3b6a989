#!/usr/bin/env node
// Run under Node 22: loads a session log with the real JSONL backend, as dsh
// would on resume, and prints its events' types and the derived tool-result
// texts as JSON.   node load-session-log.js FILE
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import { Session, SessionStore } from '@deepseek-ai/dsh-session'
import Jsonl from '@deepseek-ai/dsh-session-persistence-jsonl'

const file = process.argv[2]
const zstd = file.endsWith('.zstd')
// The backend finds logs by layout: <root>/--<cwd>--/<id>/session.jsonl[.zstd].
const root = mkdtempSync(join(tmpdir(), 'trp-load-'))
const id = process.argv[3]
const dir = join(root, '--work-project--', id)
mkdirSync(dir, { recursive: true })
copyFileSync(file, join(dir, zstd ? 'session.jsonl.zstd' : 'session.jsonl'))
const ctx = new Context()
await ctx.plugin(SessionStore)
await ctx.plugin(Jsonl, { root, compression: zstd ? 'zstd' : 'none' })
const { meta, events } = await ctx.sessionPersistence.load(id)
const session = Session.create(meta.id, events, meta)
const texts = session.deriveMessages().flatMap((m) => m.content).filter((b) => b.type === 'tool-result')
  .map((b) => b.content.filter((c) => c.type === 'text').map((c) => c.text).join(''))
console.log(JSON.stringify({ types: events.map((e) => e.type), texts, name: basename(file) }))
await ctx.fiber.dispose()
