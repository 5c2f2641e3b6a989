// strategy 'lines': the line functions' contracts, the budget guarantees on
// random input and on the real dev corpus, and recall on that corpus.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import * as trp from '../lib/index.js'
import { NativePruner } from '../index.js'
import { Ours, pruner } from './support/dsh.js'
import * as random from './support/random.js'
import { HEADROOM_MARKER, corpus, cp, expand, markers, sha24 } from './support/lines.js'
import { readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { evaluate, loadCases, manifest } from '../scripts/recall.js'
import { evaluateTasks, loadTaskCases } from '../scripts/task-recall.js'

describe('line plan functions', () => {
  test('pruneContent\'s options: the command and the task rank lines mode\'s cut; head-tail ignores them; a bad one is a TypeError naming it', async () => {
    const source = Array.from({ length: 600 }, (_, i) =>
      i === 300 ? '    fn parse_date_iso(s: &str) -> Day { day_of(s, 10) }\n' : `    fn helper_${i}(x: u32) -> u32 { x + ${i} }\n`,
    ).join('')
    const blocks = [{ type: 'text', text: source }]
    const lines = await pruner(Ours, { strategy: 'lines' })
    const options = { command: 'cat src/calendar.rs', task: 'parse_date_iso is off by one day' }
    const asked = lines.pruneContent(blocks, options)[0].text
    assert.match(asked, /fn parse_date_iso/)
    // The plan planLines makes for the same text, command and task.
    assert.equal(asked, trp.planLines(source, options).content)
    // Without options, or with none of the task's words in the text, the cut is the task-blind one.
    const blind = lines.pruneContent(blocks)[0].text
    assert.doesNotMatch(blind, /fn parse_date_iso/)
    assert.equal(lines.pruneContent(blocks, { task: 'zebra quokka' })[0].text, blind)
    assert.equal(lines.pruneContent(blocks, {})[0].text, blind)
    // head-tail, upstream's rule, is upstream's with or without them.
    const headTail = await pruner(Ours, {})
    assert.deepEqual(headTail.pruneContent(blocks, options), headTail.pruneContent(blocks))
    // null, like undefined, is no options.
    assert.equal(lines.pruneContent(blocks, null)[0].text, blind)
    for (const [bad, field] of [[5, 'pruneContent: options must be an object'], ['task', 'pruneContent: options must be an object'], [{ task: 5 }, 'pruneContent: options.task must be a string'], [{ command: [] }, 'pruneContent: options.command must be a string']]) {
      assert.throws(() => lines.pruneContent(blocks, bad), { name: 'TypeError', message: field })
    }
  })

  test('explain: failure signal across ecosystems, whole Python tracebacks, and not identifiers', () => {
    const lines = [
      'collected 3 items\n',
      'Traceback (most recent call last):\n',
      '  File "app.py", line 3, in <module>\n',
      '    main()\n',
      'ValueError: bad input\n',
      'all good here\n',
      'E       assert 1 == 2\n',
      'error[E0308]: mismatched types\n',
      "thread 'main' panicked at src/main.rs:2:5:\n",
      '--- FAIL: TestParse (0.00s)\n',
      '    at Object.<anonymous> (test/get.ts:32:38)\n',
      'npm ERR! code ELIFECYCLE\n',
      '##[error]Process completed with exit code 1.\n',
      'src/a.c:3:1: error: expected declaration\n',
      'Compiling error-chain v0.12\n',
    ]
    // Padding makes the text long enough to plan; the explained lines come first.
    const text = lines.join('') + 'filler line of a log\n'.repeat(400)
    const explained = new NativePruner({ ...trp.DEFAULTS, strategy: 'lines' }).explain(text)
    const signal = explained.slice(0, lines.length).flatMap((line, i) => (['failure', 'weak', 'frame'].includes(line.class) ? [i] : []))
    assert.deepEqual(signal, [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13])
    assert.equal(explained.length, lines.length + 400)
    assert.equal(new NativePruner({ ...trp.DEFAULTS, strategy: 'lines' }).explain('short\n'), null)
  })

  test('contentHash is the first 24 hex digits of SHA-256 of the UTF-8 bytes', () => {
    for (const s of ['', 'hello\n', 'é😀漢\n', 'a\uD800b']) assert.equal(trp.contentHash(s), sha24(s))
    assert.equal(trp.contentHash('hello\n'), '5891b5b522d5df086d0ff0b1')
  })

  test('planLines: markers of the shape Headroom resolvers accept, exact round trip, lone surrogates kept', () => {
    const text = Array.from({ length: 200 }, (_, i) => (i === 120 ? 'FAILED tests/x.py::test_y - AssertionError\n' : i === 7 ? 'lone \uDC00 surrogate\n' : `ok ${i}\n`)).join('')
    const plan = trp.planLines(text, { thresholdChars: 300, headChars: 100, tailChars: 50 })
    assert.ok(cp(plan.content) <= 300)
    assert.ok(plan.content.includes('FAILED tests/x.py::test_y'))
    assert.equal(expand(plan.content, plan.recoverable), text)
    const found = markers(plan.content)
    assert.ok(found.length > 0)
    for (const m of found) {
      assert.equal(`<<ccr:${m.hash} ${m.count}_${m.unit}_offloaded>>`.match(HEADROOM_MARKER)[1], m.hash)
      assert.equal(m.hash, sha24(plan.recoverable[m.hash]))
    }
    assert.equal(plan.droppedLines, found.filter((m) => m.unit === 'lines').reduce((n, m) => n + m.count, 0))
    // Joined lines are the input: what is kept is byte-exact, lone surrogates included.
    const kept = plan.content.split('\n').filter((l) => !l.startsWith('<<ccr:'))
    for (const line of kept.slice(0, -1)) assert.ok(text.includes(`${line}\n`), line)
  })

  test('planLines: spans keep the lines they touch (UTF-16 offsets), and the plan is the service\'s', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `ok ${i}\n`).join('')
    const at = text.indexOf('ok 50\n')
    const config = { strategy: 'lines', thresholdChars: 300, headChars: 150, tailChars: 100 }
    const spans = trp.planLines(text, { ...config, spans: [[at, at + 2]] })
    assert.ok(spans.content.includes('ok 50\n'))
    assert.ok(!trp.planLines(text, config).content.includes('ok 50\n'))
    const service = await pruner(Ours, config)
    assert.equal(trp.planLines(text, config).content, service.pruneContent([{ type: 'text', text }])[0].text)
    assert.deepEqual(trp.planLines('short\n', { thresholdChars: 100, headChars: 10, tailChars: 10 }), { content: 'short\n', recoverable: {}, droppedLines: 0, kinds: ['log'], kindFrom: 'sample' })
    assert.throws(() => trp.planLines(text, { thresholdChars: 10 }), { name: 'RangeError', message: /headChars \+ marker \+ tailChars \(5159\) must be at most thresholdChars \(10\)/ })
    assert.throws(() => trp.planLines(text, { ...config, spans: [[1]] }), { name: 'TypeError', message: /spans\[0\]/ })
    assert.throws(() => trp.planLines(42, config), { name: 'TypeError', message: /text must be a string/ })
  })
})

/** A random log-like text around `size` units. */
function randomLog(r, size) {
  const shapes = [
    () => `test case_${r.int(0, 999)} ... ok`,
    () => `error: ${random.text(r, r.int(0, 40), ['ascii'])}`,
    () => `FAILED tests/test_${r.int(0, 99)}.py::test_${r.int(0, 9)} - AssertionError`,
    () => `    at fn${r.int(0, 9)} (src/a.js:${r.int(1, 99)}:${r.int(1, 9)})`,
    () => random.text(r, r.int(0, 120)),
    () => 'x'.repeat(r.int(200, 4000)),
    () => `${r.int(1, 500)} passed, ${r.int(0, 3)} failed`,
    () => `<<ccr:${'0123456789abcdef'.repeat(2).slice(0, 24)} 3_lines_offloaded>>`,
    () => '',
  ]
  const lines = []
  let length = 0
  while (length < size) {
    const line = r.pick(shapes)()
    lines.push(line)
    length += line.length + 1
  }
  return lines.join(r.chance(0.9) ? '\n' : '\r\n') + (r.chance(0.5) ? '\n' : '')
}

describe("strategy 'lines' keeps every budget guarantee", () => {
  test('on random block lists and configs: within budget, smaller, final, deterministic, fully recoverable', async () => {
    let pruned = 0
    for (const seed of random.seeds(120, 11)) {
      const r = random.rng(seed)
      const threshold = r.int(200, 6000)
      const head = r.int(0, Math.floor((threshold - 39) / 2))
      const config = { strategy: 'lines', thresholdChars: threshold, headChars: head, tailChars: r.int(0, threshold - 39 - head), contextLines: r.int(0, 4), edgeLines: r.int(0, 4) }
      if (r.chance(0.5)) config.keepChars = r.int(39, threshold)
      const p = await pruner(Ours, config)
      // keepChars defaults to what head/tail emits: head + marker + tail.
      const keep = config.keepChars ?? config.headChars + trp.PRUNE_MARKER.length + config.tailChars
      for (let i = 0; i < 6; i++) {
        const image = { type: 'image', attachment: { id: `a${i}` } }
        const blocks = [{ type: 'text', text: randomLog(r, r.int(0, threshold * 3)) }]
        if (r.chance(0.4)) blocks.push(image, { type: 'text', text: randomLog(r, r.int(0, threshold)), cacheControl: { type: 'ephemeral' } })
        const where = `seed ${seed} case ${i} ${JSON.stringify(config)}`
        const before = p.measureContent(blocks)
        const out = p.pruneContent(blocks)
        if (before <= threshold) {
          assert.equal(out, null, where)
          continue
        }
        pruned++
        const after = p.measureContent(out)
        assert.ok(after <= keep && after < before, `${where}: ${after} of ${before}, keepChars ${keep}`)
        assert.equal(p.pruneContent(out), null, `${where}: second pass`)
        assert.equal(JSON.stringify(p.pruneContent(blocks)), JSON.stringify(out), `${where}: deterministic`)
        if (blocks.length > 1) {
          assert.equal(out[1], image, `${where}: rich block carried over in place`)
          continue
        }
        // One text block: planLines with the same options gives the same text and its map.
        const plan = trp.planLines(blocks[0].text, config)
        assert.equal(out[0].text, plan.content, `${where}: planLines agrees`)
        assert.equal(expand(plan.content, plan.recoverable), blocks[0].text, `${where}: round trip`)
      }
    }
    assert.ok(pruned > 200, `pruned ${pruned}`)
  })

  test('every labelled corpus at many budgets: within keepChars, and every marker expands back to the log', async () => {
    const cases = ['logdx-dev', 'generated', 'runs-tune', 'runs-tune-b', 'runs-holdout', 'kinds-tune', 'kinds-holdout'].flatMap((name) => corpus(name))
    assert.equal(cases.length, 8 + 6 + 19 + 19 + 15 + 16 + 14)
    for (const threshold of [512, 2048, 8192, 32768, 131072]) {
      const keep = threshold / 4 + trp.PRUNE_MARKER.length + threshold / 8
      const p = await pruner(Ours, { strategy: 'lines', thresholdChars: threshold, headChars: threshold / 4, tailChars: threshold / 8 })
      for (const c of cases) {
        const out = p.pruneContent([{ type: 'text', text: c.text }])
        if (cp(c.text) <= threshold) { assert.equal(out, null); continue }
        const plan = trp.planLines(c.text, { thresholdChars: threshold, headChars: threshold / 4, tailChars: threshold / 8 })
        assert.equal(out[0].text, plan.content, `${c.name} @${threshold}: pruneContent and planLines agree`)
        assert.ok(cp(out[0].text) <= keep, `${c.name} @${threshold}`)
        assert.equal(expand(out[0].text, plan.recoverable), c.text, `${c.name} @${threshold}: round trip`)
      }
    }
  })
})

describe('signal recall at the same output size as the blind cuts (scripts/recall.js)', () => {
  // Floors sit under the measured figures (docs/recall.md) so a regression
  // fails; lines must also match or beat both blind cuts on each corpus.
  // Each corpus, its role and its floors: __test__/fixtures/manifest.json.
  const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures')
  const rows = manifest().corpora.map((c) => [c.name, Object.entries(c.floors).map(([b, f]) => [Number(b), f]), c.count])
  const taskCorpora = new Set(manifest().corpora.filter((c) => c.task).map((c) => c.name))
  for (const [name, floors] of rows.filter(([name]) => taskCorpora.has(name))) {
    test(`${name}: lines recall with the task over its floors, over the task-blind plan's and the blind cuts'`, () => {
      const results = evaluateTasks(loadTaskCases(join(fixtures, name)), floors.map(([b]) => b))
      for (const [budget, floor] of floors) {
        const at = (rule) => results.find((r) => r.budget === budget && r.rule === rule).recall
        assert.ok(at('task') >= floor, `${name} @${budget}: ${at('task').toFixed(3)} < ${floor}`)
        assert.ok(at('task') >= at('lines') + 0.15, `${name} @${budget}: task ${at('task').toFixed(3)}, task-blind ${at('lines').toFixed(3)}`)
        assert.ok(at('task') >= Math.max(at('head-tail'), at('tail')), `${name} @${budget}: below a blind cut`)
      }
    })
  }
  test('the manifest names every labelled corpus, with its case count', () => {
    const listed = new Set(rows.map(([name]) => name))
    const onDisk = readdirSync(fixtures).filter((d) => statSync(join(fixtures, d)).isDirectory() && loadCases(join(fixtures, d)).length > 0)
    assert.deepEqual([...onDisk].sort(), [...listed].sort())
    for (const [name, , count] of rows) assert.equal(corpus(name).length, count, name)
  })
  for (const [name, floors] of rows.filter(([name]) => !taskCorpora.has(name))) {
    test(`${name}: lines recall over its floors, at least head-tail's and tail's, never over budget`, () => {
      const cases = corpus(name)
      assert.ok(cases.length >= 6, `${cases.length} cases`)
      const results = evaluate(cases, floors.map(([b]) => b))
      for (const [budget, floor] of floors) {
        const at = (rule) => results.find((r) => r.budget === budget && r.rule === rule)
        const lines = at('lines')
        assert.equal(lines.over, 0, `${name} @${budget}: outputs over budget`)
        assert.ok(lines.recall >= floor, `${name} @${budget}: lines ${lines.recall.toFixed(3)} < ${floor}`)
        assert.ok(lines.recall >= Math.max(at('head-tail').recall, at('tail').recall), `${name} @${budget}: below a blind cut`)
      }
    })
  }
})

describe('outlines for output that is not a log', () => {
  // The kind a case's name says it is (minified JSON, one line, too).
  const expected = (name) => ({ code: 'code', diff: 'diff', json: 'json', list: 'listing', search: 'search' })[name.split('-')[0]]

  test('minified JSON: every top-level key with the start of its value, markers inline, each expanding back', () => {
    const minified = [...corpus('runs3-tune'), ...corpus('kinds-tune')].filter((c) => c.name.startsWith('json-') && !c.text.trim().includes('\n'))
    assert.ok(minified.length >= 2, 'the tune corpora hold minified JSON')
    for (const c of minified) {
      const keys = Object.keys(JSON.parse(c.text))
      assert.ok(keys.length > 3, c.name)
      for (const budget of [2048, 4096, 8192]) {
        const plan = trp.planLines(c.text, { thresholdChars: budget, headChars: budget / 2, tailChars: budget / 2 - 39 })
        assert.deepEqual(plan.kinds, ['json'], c.name)
        assert.ok(cp(plan.content) <= budget, `${c.name} @${budget}`)
        for (const key of keys) assert.ok(plan.content.includes(`${JSON.stringify(key)}:`), `${c.name} @${budget}: ${key} missing`)
        assert.ok(/_chars_offloaded>>/.test(plan.content) && !/_lines_offloaded>>/.test(plan.content), c.name)
        assert.equal(expand(plan.content, plan.recoverable), c.text, `${c.name} @${budget}: round trip`)
      }
    }
  })

  test('each text is given its kind, shown in the plan', () => {
    for (const name of ['kinds-tune', 'kinds-holdout']) {
      for (const c of corpus(name)) {
        const plan = trp.planLines(c.text, { thresholdChars: 4096, headChars: 2048, tailChars: 1024 })
        assert.deepEqual(plan.kinds, [expected(c.name)], c.name)
      }
    }
    assert.deepEqual(trp.planLines(corpus('runs-tune')[0].text, { thresholdChars: 4096, headChars: 2048, tailChars: 1024 }).kinds, ['log'])
  })

  test('for every kind and budget, lines mode keeps at least what the better blind cut keeps (kinds-tune)', () => {
    const cases = corpus('kinds-tune')
    const budgets = [4096, 8192, 32768]
    const rows = evaluate(cases, budgets)
    for (const kind of ['code', 'diff', 'json', 'list', 'search']) {
      for (const budget of budgets) {
        const mean = (rule) => {
          const r = rows.find((x) => x.budget === budget && x.rule === rule).cases.filter((c) => c.name.startsWith(`${kind}-`))
          return r.reduce((s, c) => s + (c.criticalTotal ? c.critical / c.criticalTotal : 1), 0) / r.length
        }
        assert.ok(mean('lines') >= Math.max(mean('head-tail'), mean('tail')), `${kind} @${budget}: lines ${mean('lines').toFixed(3)}`)
      }
    }
  })
})
