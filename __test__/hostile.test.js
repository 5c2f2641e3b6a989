// Hostile and broken input at the JS boundary: each row either works or
// throws a TypeError/RangeError naming the field, leaves its inputs as they
// were, and never takes the process down.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { Worker } from 'node:worker_threads'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { deepFreeze } from '@deepseek-ai/dsh-llm'
import { Context } from '@deepseek-ai/cordis'
import * as trp from '../lib/index.js'
import { node22 } from '../scripts/node22.js'
import { Ours, Session, Upstream, pruner, sessionWith } from './support/dsh.js'
import { hooks } from './support/testing-addon.js'
import { expand } from './support/lines.js'

const big = (n) => [{ type: 'text', text: 'line of output\n'.repeat(n) }]

describe('content blocks: a bad-input table', async () => {
  const headTail = await pruner(Ours, { thresholdChars: 100, headChars: 20, tailChars: 10 })
  const linesConfig = { strategy: 'lines', thresholdChars: 200, headChars: 100, tailChars: 50 }
  const lines = await pruner(Ours, linesConfig)
  const throwing = { type: 'text', get text() { throw new Error('getter exploded') } }
  const rows = [
    ['blocks is null', null, TypeError, /blocks must be an array/],
    ['blocks is a string', 'text', TypeError, /blocks must be an array/],
    ['blocks is a number', 42, TypeError, /blocks must be an array/],
    ['blocks is a plain object', { length: 1, 0: { type: 'text', text: 'x' } }, TypeError, /blocks must be an array/],
    ['a block is null', [null], TypeError, /blocks\[0\] must be a content block object/],
    ['a block is a string', [{ type: 'text', text: 'ok' }, 'text'], TypeError, /blocks\[1\] must be a content block object/],
    ['text is a number', [{ type: 'text', text: 5 }], TypeError, /blocks\[0\]\.text must be a string/],
    ['text is undefined', [{ type: 'text' }], TypeError, /blocks\[0\]\.text must be a string/],
    ['text is an object', [{ type: 'text', text: { toString: () => 'x' } }], TypeError, /blocks\[0\]\.text must be a string/],
    ['text is a String object', [{ type: 'text', text: new String('x') }], TypeError, /blocks\[0\]\.text must be a string/],
    ['a getter throws', [throwing], Error, /getter exploded/],
  ]
  for (const [name, blocks, type, message] of rows) {
    test(`${name}: ${type.name} from measureContent and pruneContent, in both strategies`, () => {
      for (const p of [headTail, lines]) {
        assert.throws(() => p.measureContent(blocks), (e) => e instanceof type && message.test(e.message))
        assert.throws(() => p.pruneContent(blocks), (e) => e instanceof type && message.test(e.message))
      }
    })
  }

  test('a block without a type, or with an unknown type, is a rich block: it works and is kept', () => {
    const odd = [{ kind: 'no type' }, { type: 7 }, { type: 'TEXT', text: 'x' }, ...big(20)]
    for (const p of [headTail, lines]) {
      const out = p.pruneContent(odd)
      assert.deepEqual(out.slice(0, 3), odd.slice(0, 3))
      assert.equal(out[0], odd[0])
      assert.equal(p.measureContent(odd), p.measureContent(big(20)))
    }
  })

  test('a Proxy of an array works, and so does a Proxy of a block', () => {
    const block = new Proxy({ type: 'text', text: 'y'.repeat(300) }, {})
    for (const p of [headTail, lines]) {
      assert.ok(p.pruneContent(new Proxy([...big(30)], {})))
      assert.ok(p.pruneContent([block]))
    }
  })

  test('a huge or lying length is a TypeError naming the argument, never an abort', () => {
    const sparse = []
    sparse.length = 2 ** 30
    const liar = new Proxy([], { get: (target, key) => (key === 'length' ? 2 ** 32 - 1 : target[key]) })
    for (const p of [headTail, lines]) {
      for (const blocks of [sparse, liar]) {
        assert.throws(() => p.pruneContent(blocks), { name: 'TypeError', message: /blocks\[0\] must be a content block object/ })
        assert.throws(() => p.measureContent(blocks), { name: 'TypeError', message: /blocks\[0\] must be a content block object/ })
      }
    }
    const spans = []
    spans.length = 2 ** 30
    assert.throws(() => trp.planLines('line\n'.repeat(100), { ...linesConfig, spans }), { name: 'TypeError', message: /spans\[0\]/ })
  })

  test('frozen inputs are not mutated and still work', () => {
    const blocks = deepFreeze([{ type: 'text', text: 'frozen line\n'.repeat(100), meta: { a: [1] } }, { type: 'image', attachment: { id: 'i' } }])
    const before = JSON.stringify(blocks)
    for (const p of [headTail, lines]) {
      const out = p.pruneContent(blocks)
      assert.ok(out && !Object.isFrozen(out))
      assert.equal(out[1], blocks[1])
    }
    assert.equal(JSON.stringify(blocks), before)
  })

  test('lone surrogates survive byte for byte', () => {
    const text = '\uDC00first\n' + 'filler line\n'.repeat(50) + 'error: bad \uD800 byte\n' + 'tail\uDBFF\n'
    const out = lines.pruneContent([{ type: 'text', text }])[0].text
    assert.ok(out.startsWith('\uDC00first\n') && out.includes('error: bad \uD800 byte\n') && out.endsWith('tail\uDBFF\n'))
    const plan = trp.planLines(text, linesConfig)
    assert.equal(plan.content, out)
    assert.equal(expand(plan.content, plan.recoverable), text)
  })
})

describe('sessions that are not what they claim', async () => {
  const p = await pruner(Ours, {})
  const rows = [
    ['session is null', null, /session must be a Session object/],
    ['session is a string', 'session', /session must be a Session object/],
    ['surface is missing', { events: [] }, /session\.surface must be an object/],
    ['surface.nodes is not an array', { surface: { nodes: 'x' }, events: [] }, /session\.surface\.nodes must be an array/],
    ['a surface node is not a number', { surface: { nodes: ['1'] }, events: [] }, /session\.surface\.nodes\[0\] must be an event sequence number/],
    ['a surface node is fractional', { surface: { nodes: [1.5] }, events: [] }, /session\.surface\.nodes\[0\]/],
    ['events is not an array', { surface: { nodes: [0] }, events: {} }, /session\.events must be an array/],
    ['a tool result has no data', { surface: { nodes: [0] }, events: [{ type: 'tool/result' }] }, /session\.events\[0\] must be an object|session\.events\[0\]\.data must be an object/],
    ['a tool result has no message content', { surface: { nodes: [0] }, events: [{ type: 'tool/result', data: { message: {} } }] }, /session\.events\[0\]\.data\.message\.content must be an array/],
  ]
  for (const [name, session, message] of rows) {
    test(`${name}: TypeError naming the field`, () => {
      assert.throws(() => p.pruneSession(session), (e) => e instanceof TypeError && message.test(e.message))
    })
  }

  test('a result whose text block holds no string is left, and the rest pruned, where upstream fails the pass', async () => {
    // A null text (Array.from throws), and a number beside an over-budget
    // text (priced NaN by the token meter, which the session refuses).
    const odd = [[{ type: 'text', text: null }], [{ type: 'text', text: 7 }, ...big(9000)]]
    const session = sessionWith([[[{ content: odd[0] }, { content: big(9000) }, { content: odd[1] }, { content: big(9500) }]]])
    const before = session.events.length
    const up = await pruner(Upstream, {})
    assert.throws(() => up.pruneSession(Session.create(session.id, session.events)))
    const report = p.pruneSession(session)
    assert.equal(report.pruned.length, 2)
    const results = session.events.slice(0, before).filter((e) => e.type === 'tool/result').map((e) => e.seq)
    assert.deepEqual(report.pruned.map((e) => e.originalSeq), [results[1], results[3]])
    assert.deepEqual(session.surface.nodes.filter((seq) => results.includes(seq)), [results[0], results[2]], 'the odd ones stay on the surface')
  })

  test('surface seqs past the log and non-tool events are passed over, as upstream does', () => {
    const session = { surface: { nodes: [0, 5, 99] }, events: [{ type: 'user/message' }, null, 7], append() { throw new Error('nothing to append') } }
    assert.deepEqual(p.pruneSession(session), { pruned: [], charsRemoved: 0 })
  })

  test('session.append throwing at the k-th replacement: earlier ones stay, the error is unchanged, every landed event is whole', async () => {
    for (let k = 1; k <= 6; k++) {
      const real = sessionWith([[[{ content: big(1000) }, { content: big(1100) }, { content: big(1200) }]]])
      real.append('turn/start', { turn: 2 })
      const start = real.events.length
      const failure = new Error(`append ${k} refused`)
      let calls = 0
      const original = real.append
      real.append = function (...args) {
        if (++calls === k) throw failure
        return original.apply(this, args)
      }
      assert.throws(() => p.pruneSession(real), (e) => e === failure)
      const landed = real.events.slice(start)
      assert.equal(landed.length, k - 1)
      landed.forEach((e, i) => {
        assert.equal(e.type, i % 2 === 0 ? 'compaction/prune' : 'tool/result')
        assert.equal(e.seq, start + i)
      })
      // The log still replays, with the replacements that landed in place.
      const replayed = Session.create(real.id, real.events)
      assert.equal(replayed.surface.replaceGeneration, Math.floor((k - 1) / 2))
    }
  })
})

describe('config values: a bad-input table', () => {
  const rows = [
    [{ thresholdChars: NaN }, RangeError, /thresholdChars \(NaN\)/],
    [{ thresholdChars: Infinity }, RangeError, /thresholdChars \(Infinity\)/],
    [{ thresholdChars: -Infinity }, RangeError, /thresholdChars \(-Infinity\)/],
    [{ thresholdChars: '8192' }, TypeError, /thresholdChars \(8192\)/],
    [{ headChars: -1 }, RangeError, /headChars \(-1\)/],
    [{ tailChars: 1.5 }, RangeError, /tailChars \(1\.5\)/],
    [{ thresholdChars: 2 ** 53 }, null, null],
    [{ thresholdChars: 2 ** 53, headChars: 2 ** 52, tailChars: 2 ** 52 - 39 }, null, null],
    [{ unknown: 1 }, TypeError, /unknown key "unknown"/],
    [JSON.parse('{"__proto__": {"thresholdChars": 1}}'), TypeError, /unknown key "__proto__"/],
    [{ constructor: 8192 }, TypeError, /unknown key "constructor"/],
    [Object.assign(Object.create(null), { thresholdChars: 9000 }), null, null],
    [{ contextLines: 2 ** 53, strategy: 'lines' }, null, null],
    [{ edgeLines: NaN }, RangeError, /edgeLines \(NaN\)/],
    [{ strategy: ['lines'] }, TypeError, /strategy \(lines\)/],
  ]
  for (const [config, type, message] of rows) {
    test(`${JSON.stringify(config) ?? String(config)} ${type ? `→ ${type.name}` : 'works'}`, async () => {
      if (type) {
        assert.throws(() => trp.resolveConfig(config), (e) => e instanceof type && message.test(e.message))
        assert.throws(() => new Ours(new Context(), config), (e) => e instanceof type)
      } else {
        const resolved = trp.resolveConfig(config)
        assert.ok(Object.isFrozen(resolved))
        const p = await pruner(Ours, config)
        const out = p.pruneContent(big(1000))
        assert.ok(out === null || p.measureContent(out) <= resolved.thresholdChars)
        if (resolved.thresholdChars >= 2 ** 53) assert.equal(out, null, 'a threshold past any string: nothing to prune')
      }
    })
  }

  test('a huge contextLines and edgeLines in lines mode cost nothing extra', async () => {
    const p = await pruner(Ours, { strategy: 'lines', thresholdChars: 4096, headChars: 0, tailChars: 0, contextLines: 2 ** 53, edgeLines: 2 ** 53 })
    const out = p.pruneContent(big(5000))
    assert.ok(p.measureContent(out) <= 4096)
  })
})

describe('markers that lie', async () => {
  const config = { strategy: 'lines', thresholdChars: 2000, headChars: 0, tailChars: 0, keepChars: 2000 }
  const p = await pruner(Ours, config)
  test('input that already holds PRUNE_MARKER or <<ccr:…>> lines is kept as text and still round-trips', () => {
    const fake = `<<ccr:${'a'.repeat(24)} 12_lines_offloaded>>\n`
    const text = `start\n${trp.PRUNE_MARKER}\n${fake}` + 'noise line here\n'.repeat(400) + `FAILED tests/x.py\n${fake}end\n`
    const plan = trp.planLines(text, config)
    assert.equal(p.pruneContent([{ type: 'text', text }])[0].text, plan.content)
    assert.ok(plan.content.includes(fake))
    assert.equal(expand(plan.content, plan.recoverable), text)
    const session = sessionWith([[[{ content: [{ type: 'text', text }] }]]])
    p.pruneSession(session)
    assert.equal(p.retrieve(session, 'a'.repeat(24)), undefined)
  })
})

describe('the process survives', () => {
  test('a Rust panic becomes a JS error, and the addon keeps working', () => {
    assert.throws(() => hooks.__testPanic('probe'), (e) => e instanceof Error && /probe/.test(e.message))
    assert.equal(hooks.codePointLength('still 👍 here'), 12)
  })

  test('the test and bench hooks are only in the testing addon, not in the published one or its types', async () => {
    const published = await import('../index.js')
    const types = readFileSync(new URL('../index.d.ts', import.meta.url), 'utf8')
    for (const hook of ['__testPanic', 'receiveTexts', '__wordLists']) {
      assert.equal(typeof hooks[hook], 'function', `${hook} in the testing addon`)
      assert.equal(published[hook], undefined, `${hook} not exported`)
      assert.ok(!types.includes(hook), `${hook} not declared in index.d.ts`)
    }
  })

  test('one 256 MiB text: no crash, time linear, memory bounded', (t) => {
    // Each size in a fresh string; the peak memory of the prune alone is
    // VmHWM after resetting it (Linux), less the memory in use before.
    const script = `
      const { readFileSync, writeFileSync } = await import('node:fs')
      const { NativePruner } = await import(${JSON.stringify(new URL('../index.js', import.meta.url).href)})
      const p = new NativePruner({ thresholdChars: 8192, headChars: 4096, tailChars: 1024, strategy: process.argv[1], contextLines: 2, edgeLines: 2 })
      const status = (key) => Number(/(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8').split('\\n').find((l) => l.startsWith(key)))[1]) * 1024
      // Each size prunes the same string three times and keeps the least CPU
      // time: the first touch of fresh memory on a new machine costs page
      // faults that say nothing about the algorithm, and the large size runs
      // first so its pages are already the process's when the small one runs.
      const run = (mib) => {
        let text = Buffer.alloc(mib * 2 ** 20, 'all work and no play makes a long log\\n').toString('latin1')
        let ms = Infinity
        let extra = 0
        let after = Infinity
        for (let i = 0; i < 3; i++) {
          globalThis.gc()
          const before = status('VmRSS:')
          writeFileSync('/proc/self/clear_refs', '5')
          // CPU time (all threads), not wall time: a busy machine stretches
          // the wall clock of the long run far more than that of the short one.
          const t = process.cpuUsage()
          const out = p.pruneContent([{ type: 'text', text }])
          const used = process.cpuUsage(t)
          ms = Math.min(ms, (used.user + used.system) / 1000)
          extra = Math.max(extra, (status('VmHWM:') - before) / (mib * 2 ** 20))
          after = out.map((b) => b.text.length).reduce((a, b) => a + b, 0)
        }
        text = null
        globalThis.gc()
        return { ms, extra, after }
      }
      const large = run(256)
      const small = run(16)
      console.log(JSON.stringify({ small, large }))
    `
    // Extra memory while pruning, in multiples of the input: our UTF-16 copy
    // (2x), and for lines a few words per line of plan.
    for (const [strategy, bound] of [['head-tail', 2.5], ['lines', 4]]) {
      const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script, strategy], { encoding: 'utf8' })
      assert.equal(r.status, 0, r.stderr)
      const { small, large } = JSON.parse(r.stdout)
      assert.ok(large.after <= 8192 && small.after <= 8192)
      t.diagnostic(`${strategy}: 16 MiB ${small.ms.toFixed(1)} ms, 256 MiB ${large.ms.toFixed(1)} ms CPU; peak extra ${large.extra.toFixed(2)}x`)
      // 16x the input in well under 256x the time: linear, with room for
      // first-touch page faults and a noisy machine.
      assert.ok(large.ms < small.ms * 48 + 500, `${strategy}: 16 MiB ${small.ms} ms, 256 MiB ${large.ms} ms`)
      assert.ok(large.extra < bound, `${strategy}: ${large.extra.toFixed(2)}x the input while pruning`)
    }
  })
})

describe('determinism and concurrency', () => {
  const script = `
    const trp = await import(${JSON.stringify(new URL('../lib/index.js', import.meta.url).href)})
    const { readFileSync } = await import('node:fs')
    const text = readFileSync(${JSON.stringify(new URL('fixtures/logdx-dev/pnpm-jest-config-v2-001/raw.log', import.meta.url).pathname)}, 'utf8') + '\\uD800 lone\\n'
    const plan = trp.planLines(text, { thresholdChars: 6000, headChars: 1000, tailChars: 500 })
    const { createHash } = await import('node:crypto')
    console.log(createHash('sha256').update(JSON.stringify(plan)).digest('hex'))
  `
  test('the same input gives the same bytes across processes and across Node 20 and 22', () => {
    const run = (bin) => spawnSync(bin, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    const outputs = [run(process.execPath), run(process.execPath), run(node22())].map((r) => {
      assert.equal(r.status, 0, r.stderr)
      return r.stdout.trim()
    })
    assert.equal(new Set(outputs).size, 1, outputs.join(' '))
    assert.match(outputs[0], /^[0-9a-f]{64}$/)
  })

  test('the addon loaded in several worker threads at once prunes correctly in each', async () => {
    const worker = `
      const { parentPort, workerData } = require('node:worker_threads')
      import(workerData.url).then(({ NativePruner }) => {
        const config = { thresholdChars: 3000, headChars: 1000, tailChars: 500, strategy: 'lines', contextLines: 2, edgeLines: 2 }
        const p = new NativePruner(config)
        const results = []
        for (let i = 0; i < 50; i++) {
          const text = Array.from({ length: 500 }, (_, k) => k === 250 + workerData.id ? 'error: worker ' + workerData.id + ' failed\\n' : 'ok ' + k + '\\n').join('')
          const out = p.pruneContent([{ type: 'text', text }])[0].text
          results.push(out.includes('error: worker ' + workerData.id + ' failed') && out === new NativePruner(config).plan(text).content)
        }
        parentPort.postMessage(results.every(Boolean))
      })
    `
    const url = new URL('../index.js', import.meta.url).href
    const oks = await Promise.all(Array.from({ length: 6 }, (_, id) => new Promise((resolve, reject) => {
      const w = new Worker(worker, { eval: true, workerData: { url, id } })
      w.once('message', resolve)
      w.once('error', reject)
    })))
    assert.deepEqual(oks, [true, true, true, true, true, true])
    assert.equal(createHash('sha256').update('x').digest('hex').length, 64)
  })
})
