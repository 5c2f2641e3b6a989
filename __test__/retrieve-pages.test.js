// Retrieval pages within thresholdChars (issue 18, finding 1): the header's
// size is bounded whatever the search, the page gets what is left, and a
// threshold with no room for a page is one RangeError, at load or at call.
// Real dsh Sessions pruned by this package's service; the tool itself
// through the real registry and a real agent on Node 22.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import { checkRetrievalThreshold, retrievePage } from '../index.js'
import { Ours, appendTurn, pruner, sessionWith } from './support/dsh.js'
import { cp } from './support/lines.js'

// The search: 161 code points, quotes and backslashes that JSON
// doubles, a control character and lone surrogates that it writes as \u escapes.
const LONG_SEARCH = `"quoted\\" \u0001 \uD800 \uDC00 ${'"'.repeat(60)}${'x'.repeat(85)}`
const SEARCHES = [LONG_SEARCH, 'x'.repeat(300), '\uDC00', '"', 'needle line 7']

/** A log whose dropped middle holds every search above, many times. */
function log() {
  const lines = []
  for (let i = 0; i < 600; i++) {
    // Some matching lines longer than a page, so a page is filled to its budget.
    if (i % 100 === 0) lines.push(`needle line ${i} ${LONG_SEARCH} ${'x'.repeat(5000)}`)
    else if (i % 7 === 0) lines.push(`needle line ${i} ${LONG_SEARCH} ${'x'.repeat(300)}`)
    else lines.push(`plain progress line ${i} with some words to fill it up`)
  }
  return `${lines.join('\n')}\nerror: the one failure\n`
}

/** A real session holding one pruned log, the pruner that pruned it, and its longest dropped run. */
async function pruned(config) {
  const service = await pruner(Ours, { strategy: 'lines', ...config })
  const session = sessionWith([[[{ content: [{ type: 'text', text: log() }] }]]])
  const [entry] = service.pruneSession(session).pruned
  const [hash, run] = Object.entries(entry.recoverable).sort((a, b) => b[1].length - a[1].length)[0]
  return { service, session, hash, run }
}

/** Every page of one selection; each checked to fit `threshold` and left alone by the pruner. */
function allPages(service, session, hash, threshold, selection) {
  const pages = []
  for (let page = 1; ; page++) {
    const p = retrievePage(session, hash, { thresholdChars: threshold, page, ...selection })
    const result = p.header + p.text
    assert.ok(cp(result) <= threshold, `page ${page}: ${cp(result)} code points over ${threshold}`)
    assert.equal(service.pruneContent([{ type: 'text', text: result }]), null, `page ${page} is left alone`)
    assert.equal(p.header.indexOf('\n'), p.header.length - 1, 'the header is one line')
    pages.push(p)
    if (page === p.pages) return pages
  }
}

describe('retrieval pages fit thresholdChars', () => {
  test('any search (long, quoted, control characters, lone surrogates) keeps every page within the threshold', async () => {
    for (const config of [{ thresholdChars: 4096, headChars: 1024, tailChars: 512 }, { thresholdChars: 1000, headChars: 300, tailChars: 100 }]) {
      const { service, session, hash, run } = await pruned(config)
      assert.ok(run.includes(LONG_SEARCH), 'the dropped run holds the search')
      const whole = allPages(service, session, hash, config.thresholdChars, {})
      assert.equal(whole.map((p) => p.text).join(''), run, 'the pages join to the run exactly')
      for (const search of SEARCHES) {
        const pages = allPages(service, session, hash, config.thresholdChars, { search })
        assert.ok(pages[0].matches > 0, `${JSON.stringify(search).slice(0, 40)} matches`)
        // The search is shown as JSON.stringify writes it, or a prefix of it then `…`.
        const shown = /, \d+ matching ("(?:[^"\\]|\\.)*")(…?), page /.exec(pages[0].header)
        assert.ok(shown, pages[0].header)
        const parsed = JSON.parse(shown[1])
        if (shown[2] === '') assert.equal(shown[1], JSON.stringify(search))
        else assert.ok(search.startsWith(parsed) && parsed.length < search.length, 'a shortened search is a prefix')
        assert.ok(cp(shown[1] + shown[2]) <= 64, 'the shown search is bounded')
      }
    }
  })

  test('a threshold with no room for a page is one RangeError naming thresholdChars, at call and at load', async () => {
    // Issue 18: thresholdChars 100 is a valid config, and every page was 137 code points.
    const { session, hash } = await pruned({ thresholdChars: 4096, headChars: 1024, tailChars: 512 })
    assert.throws(() => retrievePage(session, hash, { thresholdChars: 100 }), {
      name: 'RangeError',
      message: /^retrievePage: options\.thresholdChars \(100\) is too small for a retrieval page: .* need at least \d+$/,
    })
    assert.throws(() => checkRetrievalThreshold(100), { name: 'RangeError', message: /^thresholdChars \(100\) is too small for a retrieval page/ })
    assert.doesNotThrow(() => checkRetrievalThreshold(1000))
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity]) {
      assert.throws(() => retrievePage(session, hash, { thresholdChars: bad }), { name: 'RangeError', message: /^retrievePage: options\.thresholdChars \(.*\) must be a positive integer$/ })
    }
    // The smallest threshold the load check accepts serves every page.
    let least = 1000
    while (least > 1) {
      try {
        checkRetrievalThreshold(least - 1)
        least--
      } catch {
        break
      }
    }
    const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8')
    assert.match(readme, new RegExp(`128 code points of text, ${least} at least`), 'the README states the smallest threshold')
    const { service: small, session: s2, hash: h2 } = await pruned({ thresholdChars: least, headChars: 100, tailChars: 50 })
    for (const search of [undefined, LONG_SEARCH]) allPages(small, s2, h2, least, search === undefined ? {} : { search })
  })
})

describe('tool_result_retrieve within thresholdChars, through the real registry and a real agent', () => {
  const node22 = Number(process.versions.node.split('.')[0]) >= 22
  const skip = !node22 && 'dsh-agent-loop needs Node 22 (dsh\'s runtime); the Node 22 run covers it'

  async function harness(config) {
    const { SessionStore } = await import('@deepseek-ai/dsh-session')
    const { default: AgentRegistry } = await import('@deepseek-ai/dsh-agent')
    const { default: LlmRuntime } = await import('@deepseek-ai/dsh-llm')
    const { default: SystemPrompt } = await import('@deepseek-ai/dsh-system-prompt')
    const { default: ToolRuntime } = await import('@deepseek-ai/dsh-tools')
    const { default: AgentLoop } = await import('@deepseek-ai/dsh-agent-loop')
    const { default: TokenMeter } = await import('@deepseek-ai/dsh-token-meter')
    const ctx = new Context()
    for (const plugin of [SessionStore, AgentRegistry, LlmRuntime, SystemPrompt, ToolRuntime, AgentLoop, TokenMeter]) await ctx.plugin(plugin)
    await ctx.plugin(Ours, config)
    return ctx
  }

  test('a 161-code-point search at thresholdChars 4096 gives pages within 4096', { skip }, async () => {
    const RetrieveTool = await import('../lib/retrieve-tool.js')
    const config = { strategy: 'lines', thresholdChars: 4096, headChars: 1024, tailChars: 512 }
    const ctx = await harness(config)
    await ctx.plugin(RetrieveTool)
    const agent = ctx.agentLoop.create('pages-agent')
    appendTurn(agent.session, 1, [[{ content: [{ type: 'text', text: log() }] }]])
    agent.session.append('turn/start', { turn: 2 })
    const [entry] = ctx.toolResultPruner.pruneSession(agent.session).pruned
    const [hash] = Object.entries(entry.recoverable).sort((a, b) => b[1].length - a[1].length)[0]
    assert.equal(cp(LONG_SEARCH), 161)
    const call = (args) => ctx.tools.execute({ callId: `c-${Math.random()}`, name: 'tool_result_retrieve', arguments: args, signal: new AbortController().signal, agent })
    for (let page = 1, pages = 1; page <= pages; page++) {
      const r = await call({ hash, search: LONG_SEARCH, page })
      pages = Number(/, page \d+ of (\d+)/.exec(r.value)?.[1] ?? 0)
      assert.equal(r.isError, false, JSON.stringify(r.content).slice(0, 300))
      assert.ok(cp(r.value) <= config.thresholdChars, `page ${page}: ${cp(r.value)} code points`)
      assert.equal(ctx.toolResultPruner.pruneContent(r.content), null, 'the pruner leaves the page alone')
    }
  })

  test('a thresholdChars with no room for a page fails at load with a RangeError naming it', { skip }, async () => {
    const RetrieveTool = await import('../lib/retrieve-tool.js')
    const ctx = await harness({ strategy: 'lines', thresholdChars: 200, headChars: 100, tailChars: 50 })
    const errors = []
    ctx.on('internal/error', (error) => errors.push(error))
    try {
      await ctx.plugin(RetrieveTool)
    } catch (error) {
      errors.push(error)
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
    assert.equal(ctx.tools.get('tool_result_retrieve'), undefined, 'the tool is not offered')
    const error = errors.find((e) => /thresholdChars \(200\) is too small for a retrieval page/.test(String(e?.message ?? e)))
    assert.ok(error, String(errors))
    assert.equal(error.name, 'RangeError')
    assert.match(error.message, /^tool-result-retrieve: thresholdChars \(200\)/)
  })
})
