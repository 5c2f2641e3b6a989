// Upstream and ours on the same randomized inputs must agree exactly:
// results (values, key order, object identity of carried-over blocks) and,
// on real Sessions, every appended event.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Ours, Session, Upstream, comparable, pruner, sessionWith } from './support/dsh.js'
import * as random from './support/random.js'

const CONTENT_CONFIGS = 200
const LISTS_PER_CONFIG = 15
const SESSIONS = 60

/** Positions of carried-over (non-copied) input blocks in a result. */
function identities(input, output) {
  return output?.map((block) => input.indexOf(block))
}

test(`pruneContent and measureContent agree with upstream on ${CONTENT_CONFIGS * LISTS_PER_CONFIG} random block lists`, async () => {
  let cases = 0
  let pruned = 0
  for (const seed of random.seeds(CONTENT_CONFIGS)) {
    const r = random.rng(seed)
    const config = random.config(r)
    const [up, ours] = [await pruner(Upstream, config), await pruner(Ours, config)]
    const threshold = ours.config.thresholdChars
    for (let i = 0; i < LISTS_PER_CONFIG; i++) {
      const blocks = random.blocks(r, Math.round(threshold * (0.3 + r.next() * 1.8)))
      const where = `seed ${seed} case ${i} config ${JSON.stringify(config)}`
      assert.equal(ours.measureContent(blocks), up.measureContent(blocks), where)
      const a = up.pruneContent(blocks)
      const b = ours.pruneContent(blocks)
      assert.equal(JSON.stringify(b), JSON.stringify(a), where)
      assert.deepStrictEqual(b, a, where)
      assert.deepEqual(identities(blocks, b), identities(blocks, a), where)
      cases++
      if (a !== null) pruned++
    }
  }
  assert.equal(cases, CONTENT_CONFIGS * LISTS_PER_CONFIG)
  // The generator must exercise both outcomes substantially.
  assert.ok(pruned > cases / 4 && pruned < (cases * 3) / 4, `pruned ${pruned} of ${cases}`)
})

test('codePointLength agrees with upstream on random strings', async () => {
  const { codePointLength: ours } = await import('../lib/index.js')
  const { codePointLength: theirs } = await import('@deepseek-ai/dsh-compaction-tool-result-pruner')
  for (const seed of random.seeds(2000, 7)) {
    const r = random.rng(seed)
    const s = random.text(r, r.int(0, 300))
    assert.equal(ours(s), theirs(s), `seed ${seed}`)
  }
})

/** A random session spec: turns of steps of results. */
function sessionSpec(r, threshold) {
  return Array.from({ length: r.int(1, 4) }, () =>
    Array.from({ length: r.int(1, 3) }, () =>
      Array.from({ length: r.int(1, 3) }, () => {
        const content = random.blocks(r, Math.round(threshold * r.next() * 2.5))
        if (!content.some((b) => b.type === 'text') || r.chance(0.1)) content.push({ type: 'text', text: random.text(r, r.int(0, threshold * 2)) })
        const extra = {}
        if (r.chance(0.3)) extra.meta = { card: random.text(r, 10, ['ascii']), n: r.int(0, 9) }
        if (r.chance(0.2)) extra.error = { name: 'ToolError', code: `E${r.int(0, 9)}` }
        if (r.chance(0.2)) extra.futureField = { kept: true }
        return { content, isError: r.chance(0.2), extra }
      }),
    ),
  )
}

test(`pruneSession agrees with upstream event for event on ${SESSIONS} random real Sessions`, async () => {
  let replaced = 0
  for (const seed of random.seeds(SESSIONS, 99)) {
    const r = random.rng(seed)
    const config = random.config(r)
    const [up, ours] = [await pruner(Upstream, config), await pruner(Ours, config)]
    const base = sessionWith(sessionSpec(r, ours.config.thresholdChars), `s-${seed}`)
    // Pruning runs between turns in compaction-basic's pre-step, inside an open turn.
    base.append('turn/start', { turn: base.events.filter((e) => e.type === 'turn/start').length + 1 })
    const a = Session.create(base.id, base.events)
    const b = Session.create(base.id, base.events)
    const where = `seed ${seed} config ${JSON.stringify(config)}`
    const ra = up.pruneSession(a)
    const rb = ours.pruneSession(b)
    assert.deepStrictEqual(rb, ra, where)
    assert.equal(JSON.stringify(comparable(b.events)), JSON.stringify(comparable(a.events)), where)
    assert.deepStrictEqual(b.deriveMessages(), a.deriveMessages(), where)
    assert.equal(b.surface.replaceGeneration, a.surface.replaceGeneration, where)
    assert.deepEqual(ours.pruneSession(b), up.pruneSession(a), `${where}: second pass`)
    replaced += rb.pruned.length
  }
  assert.ok(replaced > SESSIONS, `only ${replaced} replacements over ${SESSIONS} sessions`)
})

/**
 * Text values dsh's `createToolResultMessage` and `Session.append` take in
 * a text block that are not strings, each within the threshold as upstream
 * counts it (`Array.from(text).length`: nothing for a number, a boolean or
 * a plain object, the elements of an array).
 */
const NOT_STRINGS = [0, 42, -1.5, true, false, {}, { note: 'x' }, [], ['ab', 'cd'], [1, 2, 3]]

test(`pruneSession leaves what upstream leaves: results with a text that is not a string, on ${SESSIONS} random real Sessions`, async () => {
  let odd = 0
  let replaced = 0
  for (const seed of random.seeds(SESSIONS, 1234)) {
    const r = random.rng(seed)
    const config = random.config(r)
    const [up, ours] = [await pruner(Upstream, config), await pruner(Ours, config)]
    const threshold = ours.config.thresholdChars
    const spec = sessionSpec(r, threshold)
    // Some results get a text that is not a string, beside text short
    // enough that upstream leaves them (over the threshold, upstream's
    // pass fails: see docs/guarantees.md).
    for (const result of spec.flat()) {
      if (!r.chance(0.35)) continue
      const text = NOT_STRINGS[r.int(0, NOT_STRINGS.length - 1)]
      result.content = [{ type: 'text', text }, { type: 'text', text: random.text(r, r.int(0, Math.max(0, threshold - 3)), ['ascii']) }]
      odd++
    }
    const base = sessionWith(spec, `odd-${seed}`)
    base.append('turn/start', { turn: base.events.filter((e) => e.type === 'turn/start').length + 1 })
    const a = Session.create(base.id, base.events)
    const b = Session.create(base.id, base.events)
    const where = `seed ${seed} config ${JSON.stringify(config)}`
    const ra = up.pruneSession(a)
    assert.deepStrictEqual(ours.pruneSession(b), ra, where)
    assert.equal(JSON.stringify(comparable(b.events)), JSON.stringify(comparable(a.events)), where)
    replaced += ra.pruned.length
  }
  assert.ok(odd > SESSIONS && replaced > SESSIONS / 2, `${odd} odd results, ${replaced} replacements`)
})
