// The session policy on real dsh Sessions (dsh-session, dsh-token-meter):
// recentTokens against the pressure the meter reports, per-tool rules, the
// kind the call names, and the meter tokens each rewrite reports.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import { Ours, Session, Upstream, appendTurn, comparable, pruner, sessionWith } from './support/dsh.js'
import { resolveConfig } from '../lib/index.js'
import { configKeys } from '../index.js'
import { createAssistantMessage, createToolResultMessage, createUserMessage } from '@deepseek-ai/dsh-llm'

const here = dirname(fileURLToPath(import.meta.url))
const fixture = (path) => readFileSync(join(here, 'fixtures', path, 'raw.log'), 'utf8')
const text = (t) => [{ type: 'text', text: t }]
const lines = (n, word) => Array.from({ length: n }, (_, i) => `${word} ${i}: compiling module number ${i}\n`).join('')

/**
 * Three large bash results, oldest first, and a small one: the first in a
 * step the model has answered (read), the others in the last step, which
 * it has not seen yet.
 */
function threeLarge() {
  return sessionWith([[[{ content: text(lines(600, 'a')) }], [{ content: text(lines(600, 'b')) }, { content: text(lines(500, 'c')) }, { content: text('ok') }]]])
}

const resultSeqs = (session) => session.surface.nodes.filter((s) => session.events[s].type === 'tool/result')
const totalTokens = (p, session) => p.ctx.tokenMeter.measure(session).totalTokens

describe('recentTokens on a real Session', () => {
  test('the newest large result stays whole when pruning the older ones relieves the pressure', async () => {
    const probe = await pruner(Ours, {})
    const session = threeLarge()
    const total = totalTokens(probe, session)
    // Pressure at exactly the session's measure (the host compacts at >=).
    const p = await pruner(Ours, { strategy: 'lines', recentTokens: 8000, contextWindow: total, thresholdRatio: 1 })
    const [a, b, c] = resultSeqs(session)
    const report = p.pruneSession(session)
    assert.deepEqual(report.pruned.map((e) => e.originalSeq), [a, b])
    assert.deepEqual(report.keptRecent, [c])
    assert.ok(resultSeqs(session).includes(c), 'the newest is still the original on the surface')
    assert.ok(totalTokens(p, session) < total, 'and the session is under the threshold')
    // The meter moved by exactly what the entries say each rewrite relieved.
    const relieved = report.pruned.reduce((n, e) => n + e.tokensBefore - e.tokensAfter, 0)
    assert.equal(totalTokens(p, session), total - relieved)
  })

  test('when the older ones do not suffice, the recent are pruned too, newest last: upstream\'s events', async () => {
    const probe = await pruner(Ours, {})
    const base = threeLarge()
    const [a, b] = resultSeqs(base)
    const blocks = (seq) => base.events[seq].data.message.content[0].content
    const relief = (seq) => probe.ctx.tokenMeter.estimateMessage(base.events[seq].data.message) - probe.ctx.tokenMeter.estimateMessage({ ...base.events[seq].data.message, content: [{ ...base.events[seq].data.message.content[0], content: probe.pruneContent(blocks(seq)) }] })
    const total = totalTokens(probe, base)
    // Under the threshold only once the second is pruned too.
    const threshold = total - relief(a) - relief(b) + 1
    const policy = await pruner(Ours, { recentTokens: 100000, contextWindow: threshold, thresholdRatio: 1 })
    const ours = threeLarge()
    const report = policy.pruneSession(ours)
    assert.deepEqual(report.pruned.map((e) => e.originalSeq), [a, b])
    assert.deepEqual(report.keptRecent, [resultSeqs(base)[2]], 'only the newest stays whole')
    assert.ok(totalTokens(policy, ours) < threshold)
    // With a threshold no pass can reach, a summary comes anyway: the
    // unread recent stay whole; the one the model has read is pruned.
    const hopeless = await pruner(Ours, { recentTokens: 100000, contextWindow: 10, thresholdRatio: 1 })
    const h = threeLarge()
    const hr = hopeless.pruneSession(h)
    assert.deepEqual(hr.pruned.map((e) => e.originalSeq), [a])
    assert.deepEqual(hr.keptRecent, resultSeqs(base).slice(1, 3))
    // A recent window of 0 keeps nothing: the pass is upstream's, event for event.
    const up = await pruner(Upstream, {})
    const zero = await pruner(Ours, { recentTokens: 0, contextWindow: 10, thresholdRatio: 1 })
    const [x, y] = [threeLarge(), threeLarge()]
    up.pruneSession(x)
    const zr = zero.pruneSession(y)
    assert.deepEqual(comparable(y.events), comparable(x.events))
    assert.deepEqual(zr.keptRecent, [])
  })

  test('a result the model has answered is pruned as upstream prunes it, however much room the window has', async () => {
    const probe = await pruner(Ours, {})
    // One large result per step: each but the last was followed by the model's next message.
    const steps = ['a', 'b', 'c'].map((w) => [{ content: text(lines(300, w)) }])
    const session = sessionWith([steps])
    const total = totalTokens(probe, session)
    const p = await pruner(Ours, { strategy: 'lines', recentTokens: 100000, contextWindow: total, thresholdRatio: 1 })
    const [a, b, c] = resultSeqs(session)
    const report = p.pruneSession(session)
    // Pruning the oldest alone would relieve the pressure; the second goes too, read as it is.
    assert.deepEqual(report.pruned.map((e) => e.originalSeq), [a, b])
    assert.deepEqual(report.keptRecent, [c])
  })

  test('a result the model has read is cut to readKeepChars, one it has not read to keepChars', async () => {
    const probe = await pruner(Ours, {})
    const total = totalTokens(probe, threeLarge())
    const cut = async (config) => {
      // A window of 0: every large result is pruned; the first was read.
      const p = await pruner(Ours, { strategy: 'lines', recentTokens: 0, contextWindow: total, thresholdRatio: 1, ...config })
      return p.pruneSession(threeLarge()).pruned.map((e) => e.charsAfter)
    }
    const fallback = configKeys().find((k) => k.name === 'readKeepChars').fallback
    assert.equal(fallback, 2048, 'the README\'s default')
    const [read, b, c] = await cut({})
    assert.ok(read <= fallback, `read: ${read}`)
    assert.ok(b > fallback && b <= 5159 && c > fallback && c <= 5159, `unread: ${b}, ${c}`)
    const [short, ...unread] = await cut({ readKeepChars: 1000 })
    assert.ok(short <= 1000, `read: ${short}`)
    assert.deepEqual(unread, [b, c], 'the unread ones are cut by their rule')
    // Over the rule's keepChars, the rule's.
    const [whole] = await cut({ readKeepChars: 100000 })
    assert.ok(whole > fallback && whole <= 5159, `read: ${whole}`)
    assert.throws(() => resolveConfig({ readKeepChars: 38 }), { name: 'RangeError', message: 'ToolResultPruneConfig: readKeepChars (38) must be an integer of at least 39' })
    assert.throws(() => resolveConfig({ readKeepChars: '2048' }), { name: 'TypeError', message: /readKeepChars/ })
    assert.ok(!('readKeepChars' in resolveConfig({ recentTokens: 0 })), 'not given, not there')
  })

  test('called under the threshold (a context overflow) or with no window known, it prunes as upstream', async () => {
    const up = await pruner(Upstream, {})
    for (const config of [{ recentTokens: 100000, contextWindow: 10_000_000 }, { recentTokens: 100000 }]) {
      const p = await pruner(Ours, config)
      const [x, y] = [threeLarge(), threeLarge()]
      up.pruneSession(x)
      const report = p.pruneSession(y)
      assert.deepEqual(comparable(y.events), comparable(x.events), JSON.stringify(config))
      assert.deepEqual(report.keptRecent, [])
    }
  })

  test('the window the session\'s last request recorded (request/context) comes before the contextWindow key', async () => {
    const probe = await pruner(Ours, {})
    const session = threeLarge()
    const total = totalTokens(probe, session)
    session.append('request/context', { provider: 'test', model: 'test-model', contextWindow: total })
    // The key alone (10) would leave no pass able to relieve the pressure, so nothing would be pruned.
    const p = await pruner(Ours, { recentTokens: 8000, contextWindow: 10, thresholdRatio: 1 })
    assert.equal(p.pruneSession(session).pruned.length, 2)
  })

  test('a bad key fails at construction, naming it', () => {
    assert.throws(() => resolveConfig({ recentTokens: -1 }), { name: 'RangeError', message: /recentTokens \(-1\) must be a non-negative integer/ })
    assert.throws(() => resolveConfig({ recentTokens: '8000' }), { name: 'TypeError', message: /recentTokens/ })
    assert.throws(() => resolveConfig({ contextWindow: 0 }), { name: 'RangeError', message: /contextWindow/ })
    assert.throws(() => resolveConfig({ thresholdRatio: 1.5 }), { name: 'RangeError', message: /thresholdRatio/ })
    assert.throws(() => resolveConfig({ thresholdRatio: '0.8' }), { name: 'TypeError', message: /thresholdRatio/ })
    assert.equal(resolveConfig({ recentTokens: 0 }).recentTokens, 0)
    assert.ok(!('recentTokens' in resolveConfig()), 'not given, not there: the default config is upstream\'s')
  })

  test('the plugin schema and the resolver agree on thresholdRatio: 0 is refused by both, with one message', () => {
    const message = 'ToolResultPruneConfig: thresholdRatio (0) must be a number greater than 0 and at most 1'
    assert.throws(() => resolveConfig({ thresholdRatio: 0 }), { name: 'RangeError', message })
    assert.throws(() => Ours.Config({ thresholdRatio: 0 }), { name: 'RangeError', message })
    assert.throws(() => Ours.Config({ thresholdRatio: -0.5 }), { name: 'RangeError', message: /thresholdRatio \(-0.5\)/ })
    assert.equal(Ours.Config({ thresholdRatio: 0.8 }).thresholdRatio, 0.8)
    assert.equal(Ours.Config({ thresholdRatio: 1 }).thresholdRatio, 1)
    assert.ok(!('thresholdRatio' in Ours.Config({})))
  })
})

describe('parallel calls and odd sessions', () => {
  /** `n` large results of distinct calls in one step (the model called them in parallel), `args(k)` their arguments. */
  const parallel = (n, args = (k) => `{"command":"make target${k}"}`) =>
    sessionWith([[Array.from({ length: n }, (_, k) => ({ content: text(lines(280, `r${k}`)), args: args(k) }))]])

  test('a step of many parallel calls: the newest within the window stay whole, a superseded run goes first', async () => {
    const probe = await pruner(Ours, {})
    const base = parallel(10)
    const total = totalTokens(probe, base)
    const seqs = resultSeqs(base)
    const price = probe.ctx.tokenMeter.estimateMessage(base.events[seqs[0]].data.message)
    assert.ok(price * 3 <= 8000 && price * 4 > 8000, `three fit in 8,000 tokens (${price} each)`)
    const p = await pruner(Ours, { recentTokens: 8000, contextWindow: total, thresholdRatio: 1 })
    const report = p.pruneSession(base)
    assert.deepEqual(report.keptRecent, seqs.slice(7), 'the newest three')
    assert.deepEqual(report.pruned.map((e) => e.originalSeq), seqs.slice(0, 7))
    // The eighth runs the same command as the tenth: it is superseded, takes
    // no room, and the seventh is kept in its place.
    const again = parallel(10, (k) => `{"command":"make target${k === 7 ? 9 : k}"}`)
    const r2 = p.pruneSession(again)
    assert.deepEqual(r2.keptRecent, [seqs[6], seqs[8], seqs[9]])
    assert.deepEqual(r2.pruned.map((e) => e.originalSeq), [...seqs.slice(0, 6), seqs[7]])
    assert.ok(totalTokens(p, again) < total)
  })

  test('thousands of results: a pass\'s work grows linearly with the session (counted, not timed)', async () => {
    /** A pass over `steps` steps of 20 parallel results, with every event read and meter call counted. */
    const pass = async (steps) => {
      const turn = Array.from({ length: steps }, (_, s) => Array.from({ length: 20 }, (_, k) => ({ content: text(`${s}/${k} `.repeat(2500)), args: `{"command":"job ${s} ${k}"}` })))
      const session = sessionWith([turn])
      const probe = await pruner(Ours, {})
      const p = await pruner(Ours, { recentTokens: 8000, contextWindow: totalTokens(probe, session), thresholdRatio: 1 })
      let work = 0
      const estimate = p.ctx.tokenMeter.estimateMessage.bind(p.ctx.tokenMeter)
      p.ctx.tokenMeter.estimateMessage = (m) => (work++, estimate(m))
      // The session as the pruner reads it, each read of an event counted.
      const counted = new Proxy(session, {
        get(target, key) {
          if (key === 'events') {
            return new Proxy(target.events, { get: (events, k) => (typeof k === 'string' && /^\d+$/.test(k) && work++, Reflect.get(events, k)) })
          }
          const value = Reflect.get(target, key, target)
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
      const report = p.pruneSession(counted)
      assert.equal(report.pruned.length + report.keptRecent.length, steps * 20, 'every result is large')
      assert.ok(report.keptRecent.length > 0)
      return { work, events: session.events.length }
    }
    const small = await pass(25)
    const large = await pass(100)
    assert.ok(large.events > 4000, `${large.events} events`)
    // Linear: four times the session, at most four times the work (and a
    // bounded amount per event); a pass quadratic in results would do ~16 times.
    assert.ok(large.work <= 4.2 * small.work, `${small.work} → ${large.work}`)
    assert.ok(large.work <= 8 * large.events, `${large.work} for ${large.events} events`)
  })

  test('a session restored from its log with the last request\'s window missing: the key, else upstream\'s pass', async () => {
    const probe = await pruner(Ours, {})
    const build = () => {
      const session = threeLarge()
      // An earlier request recorded a window; the last one, to a model the
      // adapter knows no window of, did not.
      session.append('request/context', { provider: 'test', model: 'test-model', contextWindow: 10 })
      session.append('request/context', { provider: 'test', model: 'other-model' })
      const copy = JSON.parse(JSON.stringify(session.events))
      return Session.fromRestore(session.id, copy, JSON.parse(JSON.stringify(session.header)))
    }
    const restored = build()
    assert.equal(restored.requestContext().contextWindow, undefined)
    const total = totalTokens(probe, restored)
    const [a, b, c] = resultSeqs(restored)
    // The key gives the window: the newest stays whole.
    const keyed = await pruner(Ours, { recentTokens: 8000, contextWindow: total, thresholdRatio: 1 })
    const report = keyed.pruneSession(restored)
    assert.deepEqual([report.pruned.map((e) => e.originalSeq), report.keptRecent], [[a, b], [c]])
    // No key: no window is known, and the pass is upstream's, event for event.
    const up = await pruner(Upstream, {})
    const none = await pruner(Ours, { recentTokens: 8000 })
    const [x, y] = [build(), build()]
    up.pruneSession(x)
    assert.deepEqual(none.pruneSession(y).keptRecent, [])
    assert.deepEqual(comparable(y.events), comparable(x.events))
  })
})

describe('per-tool rules on a real Session', () => {
  /** One large result from each of bash, read, grep and tool_result_retrieve. */
  function mixed() {
    const big = lines(600, 'x')
    return sessionWith([[[{ content: text(big), tool: 'bash' }, { content: text(big), tool: 'read' }, { content: text(big), tool: 'grep' }, { content: text(big), tool: 'tool_result_retrieve' }]]])
  }

  test('a rule prunes with its own budgets and strategy, `prune: false` never, and retrieval pages never', async () => {
    const p = await pruner(Ours, { tools: { bash: { strategy: 'lines', keepChars: 2000 }, read: { prune: false }, tool_result_retrieve: { thresholdChars: 100, headChars: 10, tailChars: 10 } } })
    const session = mixed()
    const [bash, , grep] = resultSeqs(session)
    const report = p.pruneSession(session)
    assert.deepEqual(report.pruned.map((e) => e.originalSeq), [bash, grep])
    const [b, g] = report.pruned
    assert.ok(b.charsAfter <= 2000 && Object.keys(b.recoverable).length > 0, 'bash: lines mode within its own keepChars')
    assert.equal(g.charsAfter, 4096 + 39 + 1024, 'grep: the top level\'s head/tail')
    assert.deepEqual(g.recoverable, {})
    for (const e of report.pruned) {
      const price = session.events[e.replacementSeq - 1]
      assert.equal(e.tokensBefore, price.data.shadowedTokenCount)
      assert.equal(e.tokensAfter, p.ctx.tokenMeter.estimateMessage(session.events[e.replacementSeq].data.message))
    }
    assert.deepEqual(p.pruneSession(session).pruned, [], 'a second pass changes nothing')
  })

  test('a rule\'s missing keys are the top level\'s; its errors name the rule and the key', () => {
    const resolved = resolveConfig({ thresholdChars: 20000, tools: { read: { headChars: 100 } } })
    assert.equal(resolved.tools.read.thresholdChars, 20000)
    assert.equal(resolved.tools.read.headChars, 100)
    assert.equal(resolved.tools.read.tailChars, 1024)
    assert.ok(Object.isFrozen(resolved.tools) && Object.isFrozen(resolved.tools.read))
    assert.throws(() => resolveConfig({ tools: { bash: { headchars: 1 } } }), {
      name: 'TypeError',
      message: 'ToolResultPruneConfig: tools["bash"]: unknown key "headchars" (allowed: thresholdChars, headChars, tailChars, strategy, keepChars, contextLines, edgeLines, prune)',
    })
    assert.throws(() => resolveConfig({ tools: { bash: { headChars: -1 } } }), { name: 'RangeError', message: 'ToolResultPruneConfig: tools["bash"].headChars (-1) must be a non-negative integer' })
    assert.throws(() => resolveConfig({ tools: { bash: { strategy: 'middle' } } }), { name: 'TypeError', message: /tools\["bash"\]\.strategy/ })
    assert.throws(() => resolveConfig({ tools: { bash: { prune: 'no' } } }), { name: 'TypeError', message: /tools\["bash"\]\.prune/ })
    assert.throws(() => resolveConfig({ tools: { bash: { prune: false, headChars: 1 } } }), { name: 'TypeError', message: /prune: false takes no other key/ })
    assert.throws(() => resolveConfig({ tools: { bash: 1 } }), { name: 'TypeError', message: /tools\["bash"\]/ })
    assert.throws(() => resolveConfig({ tools: [] }), { name: 'TypeError', message: /tools/ })
  })

  test('a bad rule fails when the plugin loads', async () => {
    const ctx = new Context()
    await ctx.plugin(TokenMeter)
    const outcome = await ctx.plugin(Ours, { tools: { bash: { bogus: 1 } } }).then(() => 'loaded', (error) => error.message)
    assert.match(outcome, /tools\["bash"\]: unknown key "bogus"/)
  })
})

describe('the command names the kind, on a real Session', () => {
  test('git diff, cat of a source file and rg -n name the kind; other commands leave it to the sample', async () => {
    const p = await pruner(Ours, { strategy: 'lines' })
    // Source full of failure words: the sample takes it for a log.
    const source = Array.from({ length: 400 }, (_, i) => `    assert!(result.is_err(), "error ${i}: failed");\n`).join('')
    const diff = fixture('kinds-tune/diff-cpufeatures')
    const steps = [
      [{ content: text(source), args: '{"command":"cat src/tests.rs"}' }],
      [{ content: text(source), args: '{"command":"cat src/tests.rs | grep assert"}' }],
      [{ content: text(diff), args: JSON.stringify({ command: 'git diff HEAD~3', description: 'the changes' }) }],
    ]
    const session = sessionWith([steps])
    const report = p.pruneSession(session)
    assert.deepEqual(report.pruned.map((e) => [e.kinds, e.kindFrom]), [
      [['code'], 'bash `cat src/tests.rs`'],
      [['log'], 'sample'],
      [['diff'], 'bash `git diff`'],
    ])
    // The kind changes the plan: the code outline, not the failure rules.
    const [code, log] = report.pruned.map((e) => session.events[e.replacementSeq].data.message.content[0].content[0].text)
    assert.notEqual(code, log)
  })

  test('the task is read from the session: the request raises the lines holding its rare words', async () => {
    const p = await pruner(Ours, { strategy: 'lines' })
    // 600 helpers and, among them, the one the request names.
    const source = Array.from({ length: 600 }, (_, i) =>
      i === 300 ? '    fn parse_date_iso(s: &str) -> Day { day_of(s, 10) }\n' : `    fn helper_${i}(x: u32) -> u32 { x + ${i} }\n`,
    ).join('')
    const run = (prompt) => {
      const session = Session.create('task')
      appendTurn(session, 1, [[{ content: text(source), args: '{"command":"cat src/calendar.rs"}' }]], { prompt })
      const [entry] = p.pruneSession(session).pruned
      return [entry, session.events[entry.replacementSeq].data.message.content[0].content[0].text]
    }
    const [asked, withTask] = run('parse_date_iso returns the day before for dates after noon')
    const [blind, withoutTask] = run('turn 1')
    // The request's words, then the command's arguments (not its program).
    assert.deepEqual(asked.taskWords.slice(0, 4), ['parse_date_iso', 'parse', 'date', 'iso'])
    assert.ok(asked.taskWords.includes('calendar') && !asked.taskWords.includes('cat'), asked.taskWords.join(' '))
    assert.match(withTask, /fn parse_date_iso/)
    // Words the text does not hold change nothing of the plan.
    assert.deepEqual(blind.taskWords, ['turn', 'src/calendar.rs', 'src', 'calendar'])
    assert.doesNotMatch(withoutTask, /fn parse_date_iso/)
  })

  test('the task is the user\'s own message: one a plugin adds (dsh\'s runtime context) is not read', async () => {
    const p = await pruner(Ours, { strategy: 'lines' })
    const source = Array.from({ length: 600 }, (_, i) => `    fn helper_${i}(x: u32) -> u32 { x + ${i} }\n`).join('')
    const session = Session.create('injected')
    session.append('turn/start', { turn: 1 })
    session.append('user/message', createUserMessage({ content: [{ type: 'text', text: 'why does helper_300 overflow' }], source: { kind: 'user' } }), { surfaceOp: 'append' })
    session.append('user/message', createUserMessage({ content: [{ type: 'text', text: 'Current runtime context snapshot' }], source: { kind: 'plugin', plugin: 'runtime-context' } }), { surfaceOp: 'append' })
    session.append('step/start', { turn: 1, step: 1 })
    const call = { type: 'tool-call', id: 'call-1', name: 'bash', arguments: '{"command":"cat src/helpers.rs"}' }
    session.append('assistant/message', { turn: 1, step: 1, message: createAssistantMessage({ content: [call], source: { provider: 'test', model: 'test-model' } }) }, { surfaceOp: 'append' })
    session.append('tool/call', { turn: 1, step: 1, callId: 'call-1', name: 'bash', arguments: call.arguments })
    session.append('tool/result', { turn: 1, step: 1, message: createToolResultMessage({ callId: 'call-1', content: text(source), isError: false }) }, { surfaceOp: 'append' })
    const [entry] = p.pruneSession(session).pruned
    assert.deepEqual(entry.taskWords, ['helper_300', 'helper', '300', 'overflow', 'src/helpers.rs', 'src'])
    assert.match(session.events[entry.replacementSeq].data.message.content[0].content[0].text, /fn helper_300\(/)
  })

  test('planLines takes the command and says what decided', async () => {
    const { planLines } = await import('../lib/index.js')
    const source = Array.from({ length: 400 }, (_, i) => `    assert!(result.is_err(), "error ${i}: failed");\n`).join('')
    const named = planLines(source, { command: 'sed -n 1,400p src/tests.rs' })
    assert.deepEqual([named.kinds, named.kindFrom], [['code'], '`sed -n src/tests.rs`'])
    const sampled = planLines(source)
    assert.deepEqual([sampled.kinds, sampled.kindFrom], [['log'], 'sample'])
    assert.throws(() => planLines(source, { command: 3 }), { name: 'TypeError', message: /planLines: options\.command/ })
  })
})

// The replay bench's session (benches/node/sessions) through the real agent
// loop and compaction-basic: what the policy promises, against upstream.
const node22 = Number(process.versions.node.split('.')[0]) >= 22
describe('recentTokens through the real agent loop and compaction-basic', { skip: !node22 && "dsh-agent-loop needs Node 22; the Node 22 run covers it" }, () => {
  /** Upstream's and the policy's measures of one replay of `session` (compaction-basic loaded with `compaction`). */
  async function replayBoth(session, compaction) {
    const { replay } = await import('../benches/node/sessions/replay.js')
    const { measure } = await import('../benches/node/sessions/metrics.js')
    const run = async (plugin, config) => {
      const r = await replay(session, { name: session.name, plugin, config }, { contextWindow: 32000, compaction })
      assert.equal(r.thresholdRatio, compaction?.thresholdRatio ?? 0.8, 'compaction-basic\'s ratio')
      return measure(r, { largeChars: 8192, contextWindow: 32000, recentTokens: 8000 })
    }
    return { up: await run(Upstream, {}), ours: await run(Ours, { strategy: 'lines', recentTokens: 8000 }) }
  }
  const shapes = async () => (await import('../benches/node/sessions/shapes.js')).SHAPES

  test('no result within the window is cut unread where it had room; no more summaries than upstream', async () => {
    for (const make of await shapes()) {
      const session = make(0x5eed)
      const { up, ours } = await replayBoth(session)
      assert.ok(up.fittingCutWithRoom > 0, `${session.name}: upstream cuts a result it had room for (the measure can fail)`)
      assert.equal(ours.fittingCutWithRoom, 0, session.name)
      assert.ok(ours.fittingReadWhole > up.fittingReadWhole, session.name)
      assert.ok(ours.summaryRequests <= up.summaryRequests, session.name)
      assert.equal(ours.prunePassesBelowThreshold, 0, session.name)
    }
  })

  test('the bill at 32k and 128k: no waste, no more summaries, no result within the window cut unread with room', async () => {
    const { bill } = await import('../benches/node/sessions/bill.js')
    const { replay } = await import('../benches/node/sessions/replay.js')
    const { measure } = await import('../benches/node/sessions/metrics.js')
    for (const contextWindow of [32000, 128000]) {
      for (const make of await shapes()) {
        const session = make(0x5eed)
        const run = async (plugin, config) => measure(await replay(session, { name: session.name, plugin, config }, { contextWindow }), { largeChars: 8192, contextWindow, recentTokens: 8000 })
        const up = await run(Upstream, {})
        const ours = await run(Ours, { strategy: 'lines', recentTokens: 8000 })
        const b = bill(ours, up)
        const at = `${session.name} at ${contextWindow}`
        // Every cache-miss token beyond upstream's bought reading.
        assert.ok(b.waste <= 0, `${at}: waste ${b.waste}`)
        assert.ok(ours.summaryRequests <= up.summaryRequests, at)
        assert.equal(ours.fittingCutWithRoom, 0, at)
        assert.ok(ours.fittingReadWhole >= up.fittingReadWhole, at)
        assert.equal(bill(up, up).waste, 0)
      }
    }
  })

  test('the pressure is compaction-basic\'s own threshold ratio, read from its config', async () => {
    const { up, ours } = await replayBoth((await shapes())[0](0x5eed), { thresholdRatio: 0.6 })
    // Room is judged at 60% of the window: a policy reading 80% would keep
    // results whole that compaction-basic then summarises, or cut ones it had room for.
    assert.equal(ours.fittingCutWithRoom, 0)
    assert.ok(ours.summaryRequests <= up.summaryRequests, `${ours.summaryRequests} > ${up.summaryRequests}`)
    assert.equal(ours.prunePassesBelowThreshold, 0)
  })
})
