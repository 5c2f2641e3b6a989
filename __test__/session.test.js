// pruneSession on real dsh Sessions: the events it appends, replay, the real
// invariant plugin, and errors from the session.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { Context } from '@deepseek-ai/cordis'
import Invariants from '@deepseek-ai/dsh-invariants'
import { SessionStore } from '@deepseek-ai/dsh-session'
import * as SessionInvariant from '@deepseek-ai/dsh-session/invariant'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import { Ours, Session, Upstream, appendTurn, comparable, pruner, sessionWith } from './support/dsh.js'

const MARKER = '\n\n[... tool result middle pruned ...]\n\n'
const big = (n, ch = 'x') => [{ type: 'text', text: ch.repeat(n) }]

function isDeepFrozen(value) {
  if (value === null || typeof value !== 'object') return true
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen)
}

function sample() {
  return sessionWith([
    [
      [
        { content: big(9000), isError: true, extra: { meta: { card: 'diff' }, error: { name: 'ToolError', code: 'E_TOOL' }, futureField: { kept: [1, 2] } } },
        { content: big(100, 'y') },
      ],
      [{ content: [{ type: 'text', text: '😀'.repeat(5000) }, { type: 'image', attachment: { id: 'att' } }, { type: 'text', text: 'z'.repeat(4000) }] }],
    ],
    [[{ content: big(20000, 'w') }]],
  ])
}

describe('pruneSession on a real Session', async () => {
  const p = await pruner(Ours, {})
  const meter = p.ctx.tokenMeter

  test('appends a priced compaction/prune, then a content-only replacement, per over-budget result', () => {
    const session = sample()
    const before = session.events
    const results = before.filter((e) => e.type === 'tool/result')
    const over = results.filter((e) => p.measureContent(e.data.message.content[0].content) > 8192)
    assert.equal(over.length, 3)

    const report = p.pruneSession(session)
    const added = session.events.slice(before.length)
    assert.equal(added.length, 2 * over.length)
    assert.equal(report.pruned.length, over.length)
    let removed = 0
    over.forEach((original, i) => {
      const [price, replacement] = [added[2 * i], added[2 * i + 1]]
      assert.equal(price.type, 'compaction/prune')
      assert.deepEqual(price.data, {
        shadowedRange: { start: original.seq, end: original.seq },
        shadowedSeqs: [original.seq],
        shadowedTokenCount: meter.estimateMessage(original.data.message),
      })
      assert.equal(replacement.type, 'tool/result')
      assert.deepEqual(replacement.surfaceOp, { op: 'replace', start: original.seq, end: original.seq })
      assert.deepEqual(replacement.sourceEventSeqs, [original.seq])
      // Every data field carried over; only the inner content differs.
      const { message, ...rest } = replacement.data
      const { message: originalMessage, ...originalRest } = original.data
      assert.deepEqual(rest, originalRest)
      assert.deepEqual(Object.keys(replacement.data), Object.keys(original.data))
      assert.equal(message.id, originalMessage.id)
      assert.deepEqual(message.source, originalMessage.source)
      const { content: newBlocks, ...resultRest } = message.content[0]
      const { content: oldBlocks, ...originalResultRest } = originalMessage.content[0]
      assert.deepEqual(resultRest, originalResultRest)
      assert.deepEqual(newBlocks, p.pruneContent(oldBlocks))
      assert.ok(isDeepFrozen(message))
      const entry = report.pruned[i]
      assert.deepEqual(entry, {
        originalSeq: original.seq,
        replacementSeq: replacement.seq,
        callId: originalMessage.source.callId,
        charsBefore: p.measureContent(oldBlocks),
        charsAfter: p.measureContent(newBlocks),
      })
      assert.ok(entry.charsAfter <= 8192 && entry.charsAfter < entry.charsBefore)
      removed += entry.charsBefore - entry.charsAfter
    })
    assert.equal(report.charsRemoved, removed)
    // The surface now shows the replacements in place of the originals.
    for (const entry of report.pruned) {
      assert.ok(!session.surface.nodes.includes(entry.originalSeq))
      assert.ok(session.surface.nodes.includes(entry.replacementSeq))
    }
    const derived = session.deriveMessages().flatMap((m) => m.content).filter((b) => b.type === 'tool-result')
    assert.ok(derived.every((b) => p.measureContent(b.content) <= 8192))
    assert.ok(derived.some((b) => b.content.some((c) => c.type === 'text' && c.text.includes(MARKER))))
  })

  test('a second pass appends nothing', () => {
    const session = sample()
    p.pruneSession(session)
    const n = session.events.length
    assert.deepEqual(p.pruneSession(session), { pruned: [], charsRemoved: 0 })
    assert.equal(session.events.length, n)
  })

  test('replays: Session.create(id, events) derives the same history and replace generation', () => {
    const session = sample()
    p.pruneSession(session)
    const replayed = Session.create(session.id, session.events)
    assert.deepEqual(replayed.deriveMessages(), session.deriveMessages())
    assert.equal(replayed.surface.replaceGeneration, session.surface.replaceGeneration)
    assert.ok(session.surface.replaceGeneration > 0)
  })

  test('the originals stay in the append-only log', () => {
    const session = sample()
    const before = JSON.stringify(session.events)
    p.pruneSession(session)
    assert.equal(JSON.stringify(session.events.slice(0, JSON.parse(before).length)), before)
  })

  test('matches upstream event for event on the same session', async () => {
    const up = await pruner(Upstream, {})
    const base = sample()
    const a = Session.create(base.id, base.events)
    const b = Session.create(base.id, base.events)
    assert.deepEqual(p.pruneSession(b), up.pruneSession(a))
    assert.equal(JSON.stringify(comparable(b.events)), JSON.stringify(comparable(a.events)))
  })
})

describe('with the real session invariant plugin', async () => {
  async function live(Pruner) {
    const ctx = new Context()
    await ctx.plugin(Invariants)
    await ctx.plugin(SessionInvariant)
    await ctx.plugin(SessionStore)
    await ctx.plugin(TokenMeter)
    await ctx.plugin(Pruner)
    const session = ctx.sessions.create()
    appendTurn(session, 1, [[{ content: big(9000) }, { content: big(9500) }]])
    return { pruner: ctx.toolResultPruner, session }
  }

  test('pruning outside an open turn is rejected, as upstream, and leaves what landed', async () => {
    const outcomes = []
    for (const Pruner of [Upstream, Ours]) {
      const { pruner: p, session } = await live(Pruner)
      const n = session.events.length
      let error
      assert.throws(() => p.pruneSession(session), (e) => { error = e; return true })
      assert.equal(error.code, 'INVARIANT')
      assert.match(error.message, /outside any open turn/)
      outcomes.push({ message: error.message, added: session.events.slice(n).map((e) => e.type) })
    }
    assert.deepEqual(outcomes[1], outcomes[0])
    assert.deepEqual(outcomes[1].added, ['compaction/prune'])
  })

  test('inside an open turn it prunes', async () => {
    const { pruner: p, session } = await live(Ours)
    session.append('turn/start', { turn: 2 })
    const report = p.pruneSession(session)
    assert.equal(report.pruned.length, 2)
  })

  test('the session\'s own error reaches the caller unchanged', async () => {
    const { pruner: p, session } = await live(Ours)
    const seen = []
    const original = session.append
    const error = new Error('disk full')
    // Fault injection on the real session: the second append fails.
    session.append = function (...args) {
      seen.push(args[0])
      if (seen.length === 2) throw error
      return original.apply(this, args)
    }
    session.append('turn/start', { turn: 2 })
    assert.throws(() => p.pruneSession(session), (e) => e === error)
    assert.deepEqual(seen, ['turn/start', 'compaction/prune'])
  })
})
