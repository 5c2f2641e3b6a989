// Config resolution and the plugin's static surface, against upstream's
// conditions and messages.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { Context } from '@deepseek-ai/cordis'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import * as upstream from '@deepseek-ai/dsh-compaction-tool-result-pruner'
import * as ours from '../lib/index.js'
import { Ours, Upstream, pruner } from './support/dsh.js'

const UPSTREAM_KEYS = ['thresholdChars', 'headChars', 'tailChars']
const OUR_KEYS = ', strategy, keepChars, contextLines, edgeLines, recentTokens, readKeepChars, contextWindow, thresholdRatio, tools'

/**
 * The outcome of `fn` in upstream's terms: the upstream keys of its value,
 * or the message of what it threw. Our unknown-key message lists our four
 * extra keys after upstream's list; that is the one stated difference.
 */
function outcome(fn) {
  try {
    const value = fn()
    return { value: Object.fromEntries(UPSTREAM_KEYS.map((k) => [k, value[k]])) }
  } catch (error) {
    return { error: error.message.replace(OUR_KEYS, '') }
  }
}

const VALUES = [undefined, 0, 1, 38, 39, 40, 100, 4096, 8192, -1, 1.5, -0, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 53 + 2, 1e21, '8192', null, true, {}, [], 10n]

describe('resolveConfig', () => {
  test('defaults, frozen and detached', () => {
    const input = { thresholdChars: 9000 }
    const resolved = ours.resolveConfig(input)
    // keepChars defaults to what head/tail emits: head + marker + tail.
    const keepChars = 4096 + upstream.PRUNE_MARKER.length + 1024
    assert.deepEqual(resolved, { thresholdChars: 9000, headChars: 4096, tailChars: 1024, strategy: 'head-tail', keepChars, contextLines: 2, edgeLines: 2 })
    assert.ok(Object.isFrozen(resolved))
    input.thresholdChars = 1
    assert.equal(resolved.thresholdChars, 9000)
    assert.deepEqual(outcome(() => ours.resolveConfig()), outcome(() => upstream.resolveConfig()))
  })

  test('the unknown-key message is upstream\'s with our keys added to the list', () => {
    assert.throws(() => ours.resolveConfig({ bogus: 1 }), {
      name: 'TypeError',
      message: 'ToolResultPruneConfig: unknown key "bogus" (allowed: thresholdChars, headChars, tailChars, strategy, keepChars, contextLines, edgeLines, recentTokens, readKeepChars, contextWindow, thresholdRatio, tools)',
    })
  })

  test('strategy, contextLines and edgeLines are validated like the other keys', () => {
    assert.equal(ours.resolveConfig({ strategy: 'lines', contextLines: 0, edgeLines: 5 }).strategy, 'lines')
    for (const strategy of ['Lines', 'head/tail', '', 1, null]) {
      if (strategy === null) continue // null means "use the default", as for the other keys
      assert.throws(() => ours.resolveConfig({ strategy }), { name: 'TypeError', message: /strategy .* must be 'head-tail' or 'lines'/ })
    }
    for (const key of ['contextLines', 'edgeLines']) {
      assert.throws(() => ours.resolveConfig({ [key]: -1 }), { name: 'RangeError', message: new RegExp(`${key} \\(-1\\) must be a non-negative integer`) })
      assert.throws(() => ours.resolveConfig({ [key]: 1.5 }), { name: 'RangeError', message: new RegExp(key) })
      assert.throws(() => ours.resolveConfig({ [key]: '2' }), { name: 'TypeError', message: new RegExp(key) })
      assert.equal(ours.resolveConfig({ [key]: 2 ** 53 })[key], 2 ** 53)
    }
  })

  test('keepChars: an integer from the marker\'s length to thresholdChars, defaulting to head + marker + tail', () => {
    const marker = upstream.PRUNE_MARKER.length
    assert.equal(ours.resolveConfig({ thresholdChars: 3000, headChars: 1000, tailChars: 500 }).keepChars, 1000 + marker + 500)
    assert.equal(ours.resolveConfig({ thresholdChars: 3000, keepChars: marker, headChars: 0, tailChars: 0 }).keepChars, marker)
    assert.equal(ours.resolveConfig({ thresholdChars: 9000, keepChars: 9000 }).keepChars, 9000)
    for (const keepChars of [marker - 1, 0, -1, 9001, 1.5, NaN, Infinity]) {
      assert.throws(() => ours.resolveConfig({ thresholdChars: 9000, keepChars }), { name: 'RangeError', message: /keepChars .* must be an integer from 39 to thresholdChars \(9000\)/ })
    }
    for (const keepChars of ['4096', true, {}]) {
      assert.throws(() => ours.resolveConfig({ keepChars }), { name: 'TypeError', message: /keepChars/ })
    }
  })

  test('agrees with upstream on every value of every key: same result or same message', () => {
    let compared = 0
    for (const key of ['thresholdChars', 'headChars', 'tailChars']) {
      for (const value of VALUES) {
        const config = { thresholdChars: 10 ** 6, [key]: value }
        const a = outcome(() => upstream.resolveConfig(config))
        const b = outcome(() => ours.resolveConfig(config))
        assert.deepEqual(b, a, `${key}: ${String(value)}`)
        compared++
      }
    }
    assert.equal(compared, 3 * VALUES.length)
  })

  test('agrees with upstream on the budget sum and unknown keys', () => {
    const configs = [
      { thresholdChars: 100, headChars: 50, tailChars: 12 },
      { thresholdChars: 100, headChars: 50, tailChars: 11 },
      { thresholdChars: 39, headChars: 0, tailChars: 0 },
      { thresholdChars: 38, headChars: 0, tailChars: 0 },
      { thresholdChars: 100, extra: 1 },
      JSON.parse('{"__proto__": 1}'),
      { constructor: 1 },
      Object.assign(Object.create(null), { thresholdChars: 5000, headChars: 10 }),
    ]
    for (const config of configs) {
      assert.deepEqual(outcome(() => ours.resolveConfig(config)), outcome(() => upstream.resolveConfig(config)))
    }
  })

  test('agrees with upstream on huge, fractional and boundary budgets (its double sum), and the pruner builds from each it accepts', async () => {
    // Around 2^53 a double sum rounds; past 1e21 numbers print as exponents.
    const numbers = [0, -0, 0.5, 1, 1.5, 38, 39, 40, 1e-7, 5e-324, 2 ** 52 + 0.5, 2 ** 53 - 39, 2 ** 53 - 38, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, 2 ** 54, 2 ** 64, 1e21, 1e21 + 2 ** 20, 2e21, Number.MAX_VALUE, Infinity, NaN]
    const tails = [0, -0, 0.5, 1, 2, 2 ** 53, 1e21]
    let compared = 0
    let accepted = 0
    for (const thresholdChars of numbers) {
      for (const headChars of numbers) {
        for (const tailChars of tails) {
          const config = { thresholdChars, headChars, tailChars }
          const theirs = outcome(() => upstream.resolveConfig(config))
          assert.deepEqual(outcome(() => ours.resolveConfig(config)), theirs, JSON.stringify(config))
          if (theirs.value !== undefined) {
            const p = new Ours(new Context(), config)
            const blocks = [{ type: 'text', text: 'x'.repeat(64) }]
            assert.deepEqual(p.pruneContent(blocks), new Upstream(new Context(), config).pruneContent(blocks), JSON.stringify(config))
            accepted++
          }
          compared++
        }
      }
    }
    assert.equal(compared, numbers.length ** 2 * tails.length)
    assert.ok(accepted > 100, `${accepted} accepted configs`)
    // The two, which a saturating integer sum refused.
    for (const config of [{ thresholdChars: 2 ** 53, headChars: 2 ** 53 - 39, tailChars: 1 }, { thresholdChars: 2e21, headChars: 1e21 }]) {
      assert.deepEqual(ours.resolveConfig(config).headChars, upstream.resolveConfig(config).headChars)
      const p = await pruner(Ours, config)
      assert.equal(p.pruneContent([{ type: 'text', text: 'x'.repeat(10_000) }]), null)
    }
  })

  test('errors are TypeError for wrong keys and types, RangeError for numbers out of range', () => {
    assert.throws(() => ours.resolveConfig({ foo: 1 }), TypeError)
    assert.throws(() => ours.resolveConfig({ thresholdChars: '8192' }), TypeError)
    assert.throws(() => ours.resolveConfig({ thresholdChars: 0 }), RangeError)
    assert.throws(() => ours.resolveConfig({ headChars: 1.5 }), RangeError)
    assert.throws(() => ours.resolveConfig({ thresholdChars: 10 }), RangeError)
    assert.throws(() => ours.resolveConfig(null), { name: 'TypeError', message: /config/ })
    assert.throws(() => ours.resolveConfig({ thresholdChars: Symbol('x') }), { name: 'TypeError', message: /thresholdChars/ })
  })
})

describe('plugin surface', () => {
  test('static inject and Config behave as upstream', () => {
    assert.deepEqual(Ours.inject, Upstream.inject)
    assert.deepEqual(outcome(() => Ours.Config({})), outcome(() => Upstream.Config({})))
    assert.deepEqual(outcome(() => Ours.Config({ thresholdChars: 100, headChars: 1 })), outcome(() => Upstream.Config({ thresholdChars: 100, headChars: 1 })))
    assert.equal(Ours.Config({}).strategy, 'head-tail')
    assert.throws(() => Ours.Config({ strategy: 'middle' }))
    for (const bad of [{ thresholdChars: 1.5 }, { thresholdChars: 0 }, { headChars: -1 }, { tailChars: 'x' }]) {
      assert.deepEqual(outcome(() => Ours.Config(bad)), outcome(() => Upstream.Config(bad)))
      assert.ok(outcome(() => Ours.Config(bad)).error)
    }
  })

  test('loading with a bad config fails with upstream\'s message', async () => {
    for (const config of [{ thresholdChars: 10 }, { thresholdChars: 2.5 }, { nope: true }, { headChars: 9000 }]) {
      const messages = []
      for (const Pruner of [Upstream, Ours]) {
        const ctx = new Context()
        await ctx.plugin(TokenMeter)
        messages.push(await ctx.plugin(Pruner, config).then(() => 'loaded', (error) => error.message.replace(OUR_KEYS, '')))
        assert.equal(ctx.toolResultPruner, undefined, 'nothing registers')
      }
      assert.notEqual(messages[0], 'loaded')
      assert.equal(messages[1], messages[0], JSON.stringify(config))
    }
  })

  test('the service registers as ctx.toolResultPruner with a frozen config', async () => {
    const p = await pruner(Ours, { thresholdChars: 6000 })
    assert.ok(p instanceof Ours)
    assert.deepEqual(p.config, { thresholdChars: 6000, headChars: 4096, tailChars: 1024, strategy: 'head-tail', keepChars: 4096 + upstream.PRUNE_MARKER.length + 1024, contextLines: 2, edgeLines: 2 })
    assert.ok(Object.isFrozen(p.config))
    assert.throws(() => { 'use strict'; p.config.thresholdChars = 1 }, TypeError)
  })
})
