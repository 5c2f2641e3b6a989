// measureContent / pruneContent / codePointLength: the stated rules, checked
// against a reference written from the rule and against the upstream package.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { deepFreeze } from '@deepseek-ai/dsh-llm'
import * as upstream from '@deepseek-ai/dsh-compaction-tool-result-pruner'
import * as ours from '../lib/index.js'
import { Ours, Upstream, pruner } from './support/dsh.js'

const MARKER = '\n\n[... tool result middle pruned ...]\n\n'

/** The rule, written independently: keep `head` and `tail` code points of the joined text. */
function expectedText(texts, head, tail) {
  const points = texts.flatMap((t) => Array.from(t))
  return points.slice(0, head).join('') + MARKER + points.slice(points.length - tail).join('')
}

describe('codePointLength', () => {
  test('counts code points as Array.from does, lone surrogates as one', () => {
    for (const s of ['', 'abc', 'a😀b', '\uD800', '\uDC00\uD800', '👨‍👩‍👧', 'e\u0301', '漢字']) {
      assert.equal(ours.codePointLength(s), Array.from(s).length, JSON.stringify(s))
      assert.equal(ours.codePointLength(s), upstream.codePointLength(s))
    }
  })

  test('rejects a non-string with a TypeError', () => {
    assert.throws(() => ours.codePointLength(42), { name: 'TypeError', message: /text must be a string/ })
  })

  test('exports the same constants as upstream', () => {
    assert.equal(ours.PRUNE_MARKER, upstream.PRUNE_MARKER)
    assert.deepEqual(ours.DEFAULTS, { ...upstream.DEFAULTS, strategy: 'head-tail', keepChars: upstream.DEFAULTS.headChars + upstream.PRUNE_MARKER.length + upstream.DEFAULTS.tailChars, contextLines: 2, edgeLines: 2 })
    assert.ok(Object.isFrozen(ours.DEFAULTS))
    assert.equal(ours.default, ours.ToolResultPruner)
  })
})

describe('measureContent', async () => {
  const p = await pruner(Ours, {})
  test('counts text blocks only', () => {
    const blocks = [
      { type: 'text', text: 'a😀' },
      { type: 'reasoning', text: 'not counted' },
      { type: 'image', attachment: { id: 'x' } },
      { type: 'text', text: '\uD800b' },
    ]
    assert.equal(p.measureContent(blocks), 4)
    assert.equal(p.measureContent([]), 0)
  })
})

describe('pruneContent', async () => {
  const cfg = { thresholdChars: 100, headChars: 20, tailChars: 10 }
  const p = await pruner(Ours, cfg)

  test('returns null at and under the threshold', () => {
    assert.equal(p.pruneContent([{ type: 'text', text: 'x'.repeat(100) }]), null)
    assert.equal(p.pruneContent([{ type: 'text', text: '😀'.repeat(100) }]), null)
    assert.equal(p.pruneContent([]), null)
  })

  test('keeps exactly head and tail code points around one marker', () => {
    const text = '😀'.repeat(30) + 'm'.repeat(60) + '\uDC00' + 'é'.repeat(19)
    const out = p.pruneContent([{ type: 'text', text }])
    assert.equal(out.length, 1)
    assert.equal(out[0].text, expectedText([text], 20, 10))
    assert.equal(p.measureContent(out), 20 + MARKER.length + 10)
  })

  test('puts the marker in the first text block touching the removed span and drops emptied blocks', () => {
    const image = { type: 'image', attachment: { id: 'img' } }
    const blocks = [
      { type: 'text', text: '' },
      { type: 'text', text: 'a'.repeat(15) },
      image,
      { type: 'text', text: 'b'.repeat(60), cacheControl: { type: 'ephemeral' } },
      { type: 'text', text: 'c'.repeat(40) },
    ]
    const out = p.pruneContent(blocks)
    assert.deepEqual(out, [
      { type: 'text', text: 'a'.repeat(15) },
      image,
      { type: 'text', text: 'b'.repeat(5) + MARKER, cacheControl: { type: 'ephemeral' } },
      { type: 'text', text: 'c'.repeat(10) },
    ])
    assert.equal(out[1], image, 'non-text blocks are carried over as the same object')
    assert.notEqual(out[0], blocks[1], 'text blocks are copies')
  })

  test('keeps the key order and every other field of a text block', () => {
    const block = { cacheControl: { type: 'ephemeral' }, text: 'x'.repeat(200), type: 'text', extra: 1 }
    const [out] = p.pruneContent([block])
    assert.deepEqual(Object.keys(out), ['cacheControl', 'text', 'type', 'extra'])
    assert.equal(out.cacheControl, block.cacheControl)
  })

  test('does not mutate its input, frozen or not', () => {
    const blocks = deepFreeze([{ type: 'text', text: 'y'.repeat(300) }, { type: 'image', attachment: { id: 'i' } }])
    const before = structuredClone(blocks)
    assert.ok(p.pruneContent(blocks))
    assert.deepEqual(blocks, before)
  })

  test('every result is within the threshold, smaller, and final', () => {
    for (let n = 95; n < 400; n += 7) {
      const blocks = [{ type: 'text', text: '😀a\uD800'.repeat(n) }]
      const out = p.pruneContent(blocks)
      const before = p.measureContent(blocks)
      if (before <= 100) { assert.equal(out, null); continue }
      const after = p.measureContent(out)
      assert.ok(after <= 100 && after < before)
      assert.equal(p.pruneContent(out), null, 'a second pass changes nothing')
    }
  })

  test('matches upstream on hand-picked edge cases', async () => {
    const up = await pruner(Upstream, cfg)
    const cases = [
      [{ type: 'text', text: 'x'.repeat(101) }],
      [{ type: 'text', text: 'x'.repeat(20) }, { type: 'text', text: 'y'.repeat(82) }],
      [{ type: 'text', text: 'x'.repeat(19) + '😀' }, { type: 'text', text: '\uDC00'.repeat(100) }],
      [{ type: 'image', attachment: { id: 'a' } }, { type: 'text', text: 'z'.repeat(500) }, { type: 'image', attachment: { id: 'b' } }],
      [{ type: 'text', text: '' }, { type: 'text', text: 'q'.repeat(101) }, { type: 'text', text: '' }],
    ]
    for (const blocks of cases) {
      assert.equal(JSON.stringify(p.pruneContent(blocks)), JSON.stringify(up.pruneContent(blocks)))
    }
  })
})
