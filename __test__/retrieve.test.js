// Lines mode on real dsh Sessions: what the pruned entries carry, retrieval
// of exact bytes from the log (also after replay), markers that lie, and
// the tool_result_retrieve tool through the real tool registry.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { Context } from '@deepseek-ai/cordis'
import { Ours, Session, Upstream, appendTurn, pruner, sessionWith } from './support/dsh.js'
import { corpus, expand, markers, sha24 } from './support/lines.js'

const LINES = { strategy: 'lines', thresholdChars: 4096, headChars: 1024, tailChars: 512 }
const cases = corpus()
const logOf = (name) => cases.find((c) => c.name === name).text

/** A session whose tool results are real CI logs (plus a lone surrogate and a rich block). */
function logSession(id = 'logs') {
  return sessionWith(
    [
      [[{ content: [{ type: 'text', text: logOf('pnpm-jest-config-v2-001') }], isError: true, extra: { meta: { exit: 1 } } }]],
      [[
        { content: [{ type: 'text', text: logOf('lint-react-001') + '\uDC00 lone surrogate\n' }, { type: 'image', attachment: { id: 'shot' } }] },
        { content: [{ type: 'text', text: 'short and within budget\n' }] },
      ]],
    ],
    id,
  )
}

const textOf = (event) => event.data.message.content[0].content.filter((b) => b.type === 'text').map((b) => b.text).join('')

describe("pruneSession with strategy 'lines'", async () => {
  const p = await pruner(Ours, LINES)

  test('each entry carries recoverable, and expanding its markers gives the original text exactly', () => {
    const session = logSession()
    const report = p.pruneSession(session)
    assert.equal(report.pruned.length, 2)
    for (const entry of report.pruned) {
      const original = session.events[entry.originalSeq]
      const replacement = session.events[entry.replacementSeq]
      const text = textOf(replacement)
      assert.ok(entry.charsAfter <= LINES.thresholdChars && entry.charsAfter < entry.charsBefore)
      const found = markers(text)
      assert.ok(found.length > 0)
      assert.deepEqual(new Set(found.map((m) => m.hash)), new Set(Object.keys(entry.recoverable)))
      for (const [hash, dropped] of Object.entries(entry.recoverable)) assert.equal(hash, sha24(dropped))
      assert.equal(expand(text, entry.recoverable), textOf(original))
    }
    // The rich block stays where it was.
    const second = session.events[report.pruned[1].replacementSeq].data.message.content[0].content
    assert.deepEqual(second.map((b) => b.type), ['text', 'image'])
    assert.deepEqual(p.pruneSession(session), { pruned: [], charsRemoved: 0 }, 'a second pass changes nothing')
  })

  test('retrieve returns the exact dropped text from the log, also after a replay', () => {
    const session = logSession()
    const report = p.pruneSession(session)
    const replayed = Session.create(session.id, session.events)
    let checked = 0
    for (const entry of report.pruned) {
      for (const [hash, dropped] of Object.entries(entry.recoverable)) {
        assert.equal(p.retrieve(session, hash), dropped)
        assert.equal(p.retrieve(replayed, hash), dropped)
        checked++
      }
    }
    assert.ok(checked >= 4)
  })

  test('a hash it did not write returns undefined: unknown, malformed, from another session, or printed by a tool', () => {
    const other = logSession('other')
    const otherReport = p.pruneSession(other)
    const foreign = Object.keys(otherReport.pruned[0].recoverable)[0]
    // A tool printed a marker naming a run dropped from the other session.
    const session = sessionWith([[[{ content: [{ type: 'text', text: `retry output:\n<<ccr:${foreign} 12_lines_offloaded>>\n` + 'noise line\n'.repeat(800) }] }]]], 'victim')
    const report = p.pruneSession(session)
    assert.equal(report.pruned.length, 1)
    assert.ok(textOf(session.events[report.pruned[0].replacementSeq]).includes(`<<ccr:${foreign} 12_lines_offloaded>>`), 'the printed marker was kept as text')
    assert.equal(p.retrieve(session, foreign), undefined)
    assert.equal(p.retrieve(session, '0'.repeat(24)), undefined)
    assert.equal(p.retrieve(session, 'not-a-hash'), undefined)
    assert.equal(p.retrieve(session, foreign.toUpperCase()), undefined)
    assert.throws(() => p.retrieve(session, 42), { name: 'TypeError', message: /hash/ })
  })

  test('retrieve answers only for its own replacements still on the surface', () => {
    const text = Array.from({ length: 800 }, (_, i) => `build step ${i} done\n`).join('') + 'error: boom\n'
    const withResult = (id) => sessionWith([[[{ content: [{ type: 'text', text }] }]]], id)
    const withContent = (event, content) => {
      const { message } = event.data
      return { ...event.data, message: { ...message, content: [{ ...message.content[0], content }] } }
    }
    const replace = (session, seq, data) => session.append('tool/result', data, { surfaceOp: { op: 'replace', start: seq, end: seq }, sourceEventSeqs: [seq] })
    // Another plugin appends the very replacement this pruner would write, without its compaction/prune event.
    const forged = withResult('forged')
    const seq = forged.surface.nodes.find((n) => forged.events[n].type === 'tool/result')
    const content = p.pruneContent(forged.events[seq].data.message.content[0].content)
    const [{ hash }] = markers(content[0].text)
    replace(forged, seq, withContent(forged.events[seq], content))
    assert.equal(p.retrieve(forged, hash), undefined)
    // Ours, answered; then a redaction replaces it on the surface, and its markers go with it.
    const redacted = withResult('redacted')
    const [entry] = p.pruneSession(redacted).pruned
    const [ours, dropped] = Object.entries(entry.recoverable)[0]
    assert.equal(p.retrieve(redacted, ours), dropped)
    replace(redacted, entry.replacementSeq, withContent(redacted.events[entry.replacementSeq], [{ type: 'text', text: '[redacted]\n' }]))
    assert.equal(p.retrieve(redacted, ours), undefined)
  })

  test('head/tail replacements hold no retrievable markers', async () => {
    const headTail = await pruner(Ours, {})
    const session = sessionWith([[[{ content: [{ type: 'text', text: 'x\n'.repeat(9000) }] }]]])
    assert.equal(headTail.pruneSession(session).pruned.length, 1)
    assert.equal(headTail.retrieve(session, sha24('x\n'.repeat(100))), undefined)
  })

  test('two dropped runs with the same text share one hash, and both markers resolve to it', () => {
    // Failure lines far apart inside two identical blocks; distinct sections
    // at both ends soak up the budget left after their context.
    const block = Array.from({ length: 2000 }, (_, i) => `step ${i}: compiling\n`).join('')
    const section = (name) => Array.from({ length: 300 }, (_, i) => `${name} line ${i} with distinct text\n`).join('')
    const text = `${section('head')}FAILED first\n${block}FAILED second\n${block}FAILED third\n${section('tail')}`
    const session = sessionWith([[[{ content: [{ type: 'text', text }] }]]])
    const [entry] = p.pruneSession(session).pruned
    const out = textOf(session.events[entry.replacementSeq])
    const hashes = markers(out).map((m) => m.hash)
    const repeated = hashes.filter((h, i) => hashes.indexOf(h) !== i)
    assert.ok(repeated.length >= 1, out)
    assert.equal(p.retrieve(session, repeated[0]), entry.recoverable[repeated[0]])
    assert.equal(expand(out, entry.recoverable), text)
  })
})

describe('retrievePage: a page, a line range or a search, and errors in its own words', async () => {
  const { retrievePage } = await import('../index.js')
  const p = await pruner(Ours, LINES)
  const session = logSession('pages')
  const [entry] = p.pruneSession(session).pruned
  const [hash, dropped] = Object.entries(entry.recoverable).sort((a, b) => b[1].length - a[1].length)[0]
  const lines = dropped.split('\n')

  test('a line range gives those lines, a search the lines holding it; both together is refused, never one silently winning', () => {
    assert.equal(retrievePage(session, hash, { thresholdChars: 1e6, firstLine: 2, lastLine: 3 }).text, `${lines[1]}\n${lines[2]}\n`)
    const needle = lines[4].slice(0, 12)
    assert.ok(retrievePage(session, hash, { thresholdChars: 1e6, search: needle }).matches >= 1)
    for (const range of [{ firstLine: 2, lastLine: 3 }, { firstLine: 2 }, { lastLine: 3 }]) {
      assert.throws(() => retrievePage(session, hash, { thresholdChars: 1e6, search: needle, ...range }), {
        name: 'TypeError',
        message: /^retrievePage: options\.search and options\.firstLine\/options\.lastLine do not go together/,
      })
    }
    assert.throws(() => retrievePage(session, hash, { thresholdChars: 1e6, firstLine: 2 }), { name: 'TypeError', message: /^retrievePage: options\.firstLine and options\.lastLine go together/ })
    // null is unset, as JSON tool arguments may spell it.
    assert.equal(retrievePage(session, hash, { thresholdChars: 1e6, page: null, firstLine: null, lastLine: null, search: null }).text, dropped)
  })

  const rows = [
    ['a session that is not one', [null, hash, { thresholdChars: 10 }], TypeError, /^retrievePage: session must be a Session object/],
    ['session.events not an array', [{ surface: { nodes: [] }, events: {} }, hash, { thresholdChars: 10 }], TypeError, /^retrievePage: session\.events must be an array/],
    ['a hash that is not a string', [session, 42, { thresholdChars: 10 }], TypeError, /^retrievePage: hash must be a string/],
    ['no options', [session, hash], TypeError, /^retrievePage: options must be an object/],
    ['a thresholdChars that is not a number', [session, hash, { thresholdChars: '10' }], TypeError, /^retrievePage: options\.thresholdChars must be a number/],
    ['a fractional thresholdChars', [session, hash, { thresholdChars: 1.5 }], RangeError, /^retrievePage: options\.thresholdChars \(1\.5\) must be a positive integer/],
    ['page 0', [session, hash, { thresholdChars: 10, page: 0 }], RangeError, /^retrievePage: options\.page \(0\) must be a positive integer/],
    ['page NaN', [session, hash, { thresholdChars: 10, page: NaN }], RangeError, /options\.page \(NaN\)/],
    ['a negative line', [session, hash, { thresholdChars: 10, firstLine: -1, lastLine: 2 }], RangeError, /options\.firstLine \(-1\)/],
    ['a search that is not a string', [session, hash, { thresholdChars: 10, search: 5 }], TypeError, /^retrievePage: options\.search must be a string/],
    ['a page past the last', [session, hash, { thresholdChars: 1e6, page: 2 }], RangeError, /^retrievePage: page 2 does not exist: there are 1/],
  ]
  for (const [name, args, type, message] of rows) {
    test(`${name}: ${type.name} naming retrievePage and the field`, () => {
      assert.throws(() => retrievePage(...args), (e) => e instanceof type && message.test(e.message), String(name))
    })
  }
})

describe('tool_result_retrieve through the real tool registry and a real agent', () => {
  const node22 = Number(process.versions.node.split('.')[0]) >= 22
  const skip = !node22 && 'dsh-agent-loop needs Node 22 (dsh\'s runtime); the Node 22 run covers it'
  // A small threshold, so a dropped run spans several pages.
  const SMALL = { strategy: 'lines', thresholdChars: 1000, headChars: 300, tailChars: 100 }

  async function harness(pruner, config) {
    const { SessionStore } = await import('@deepseek-ai/dsh-session')
    const { default: AgentRegistry } = await import('@deepseek-ai/dsh-agent')
    const { default: LlmRuntime } = await import('@deepseek-ai/dsh-llm')
    const { default: SystemPrompt } = await import('@deepseek-ai/dsh-system-prompt')
    const { default: ToolRuntime } = await import('@deepseek-ai/dsh-tools')
    const { default: AgentLoop } = await import('@deepseek-ai/dsh-agent-loop')
    const { default: TokenMeter } = await import('@deepseek-ai/dsh-token-meter')
    const ctx = new Context()
    for (const plugin of [SessionStore, AgentRegistry, LlmRuntime, SystemPrompt, ToolRuntime, AgentLoop, TokenMeter]) await ctx.plugin(plugin)
    await ctx.plugin(pruner, config)
    return ctx
  }

  test('pages of whole lines within thresholdChars that join to the exact text; ranges, searches, unknown hashes', { skip }, async () => {
    const RetrieveTool = await import('../lib/retrieve-tool.js')
    const ctx = await harness(Ours, SMALL)
    await ctx.plugin(RetrieveTool)
    assert.ok(ctx.tools.get('tool_result_retrieve'))

    const agent = ctx.agentLoop.create('retrieve-agent')
    appendTurn(agent.session, 1, [[{ content: [{ type: 'text', text: logOf('lint-react-001') }] }]])
    agent.session.append('turn/start', { turn: 2 })
    const [entry] = ctx.toolResultPruner.pruneSession(agent.session).pruned
    const [hash, dropped] = Object.entries(entry.recoverable).sort((a, b) => b[1].length - a[1].length)[0]
    assert.ok(Array.from(dropped).length > 3 * SMALL.thresholdChars, 'the run is several pages long')
    const call = (args) => ctx.tools.execute({ callId: `c-${Math.random()}`, name: 'tool_result_retrieve', arguments: args, signal: new AbortController().signal, agent })

    // Page by page, as the first line says, until the last.
    let joined = ''
    for (let page = 1; ; page++) {
      const r = await call({ hash, page })
      assert.equal(r.isError, false, JSON.stringify(r.content))
      assert.ok(Array.from(r.value).length <= SMALL.thresholdChars, `page ${page} fits the threshold, so the pruner leaves it alone`)
      assert.deepEqual(r.content, [{ type: 'text', text: r.value }])
      const [head, ...rest] = r.value.split('\n')
      assert.match(head, new RegExp(`^\\[tool_result_retrieve ${hash}: lines \\d+-\\d+ of \\d+, page ${page} of \\d+`))
      joined += rest.join('\n')
      if (/this is the last page/.test(head)) break
      assert.match(head, new RegExp(`next: call tool_result_retrieve again with page ${page + 1}`))
    }
    assert.equal(joined, dropped)
    const whole = await call({ hash: `<<ccr:${hash} 7_lines_offloaded>>` })
    assert.equal(whole.isError, false, 'the whole marker is accepted too')

    // Narrowing: a line range gives exactly those lines; a search the lines holding it.
    const lines = dropped.split('\n')
    const range = await call({ hash, firstLine: 3, lastLine: 5 })
    assert.equal(range.value.slice(range.value.indexOf('\n') + 1), lines.slice(2, 5).map((l) => `${l}\n`).join(''))
    const needle = lines.find((l) => l.includes('error')).slice(0, 20)
    const found = await call({ hash, search: needle })
    assert.equal(found.isError, false)
    assert.ok(found.value.includes(needle))
    assert.match(found.value.split('\n')[0], /matching/)
    const both = await call({ hash, search: needle, firstLine: 1, lastLine: 3 })
    assert.equal(both.isError, true, 'a range and a search together are refused, not one silently winning')
    assert.match(both.content[0].text, /options\.search and options\.firstLine\/options\.lastLine do not go together/)
    const none = await call({ hash, search: 'no line holds this' })
    assert.equal(none.isError, true)
    assert.match(none.content[0].text, /no line of the text matches/)

    const unknown = await call({ hash: 'f'.repeat(24) })
    assert.equal(unknown.isError, true)
    assert.match(unknown.content[0].text, /unknown hash "f{24}"/)
    const missing = await call({})
    assert.equal(missing.isError, true)
    const past = await call({ hash, page: 999 })
    assert.equal(past.isError, true)
    assert.match(past.content[0].text, /page 999 does not exist/)
  })

  test('next to another pruner (dsh\'s own) it fails at load with one message, not at the first call', { skip }, async () => {
    const RetrieveTool = await import('../lib/retrieve-tool.js')
    const ctx = await harness(Upstream, {})
    const errors = []
    ctx.on('internal/error', (error) => errors.push(error))
    try {
      await ctx.plugin(RetrieveTool)
    } catch (error) {
      errors.push(error)
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
    assert.equal(ctx.tools.get('tool_result_retrieve'), undefined, 'the tool is not offered')
    assert.ok(errors.some((e) => /toolResultPruner service is not tool-result-pruner's/.test(String(e?.message ?? e))), String(errors))
  })
})
