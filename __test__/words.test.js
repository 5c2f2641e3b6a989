// The core's word lists against their JS spellings: for every variant of
// every list (strategies, kinds, keep reasons, line classes, fates), the
// core's name() is the string napi-rs writes for the binding's value it
// converts to, and the binding's type in index.d.ts has no other value;
// each marker unit JS names is the core's unit of that name.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { configKeys, formatMarker } from '../index.js'
import { hooks } from './support/testing-addon.js'

const LISTS = hooks.__wordLists()

/** The string literals of `export type NAME = 'a' | 'b'` in index.d.ts. */
function union(name) {
  const types = readFileSync(new URL('../index.d.ts', import.meta.url), 'utf8')
  const line = types.split('\n').find((l) => l.startsWith(`export type ${name} = `))
  assert.ok(line, `index.d.ts declares ${name}`)
  return [...line.matchAll(/'([^']*)'/g)].map((m) => m[1])
}

const TYPES = { strategies: 'StrategyName', kinds: 'TextKind', reasons: 'KeepReason', classes: 'LineClass', fates: 'LineFate' }

test('every word list is read off the core', () => {
  assert.deepEqual(Object.keys(LISTS).sort(), [...Object.keys(TYPES), 'units'].sort())
})

for (const [list, type] of Object.entries(TYPES)) {
  test(`${list}: each core name is the JS string of its ${type}, and ${type} has no other`, () => {
    const entries = LISTS[list]
    assert.ok(entries.length >= 2, `${list} lists its variants`)
    for (const [name, value] of entries) assert.equal(value, name, `${list}: the core's '${name}' reaches JS as '${value}'`)
    const names = entries.map(([name]) => name)
    assert.equal(new Set(names).size, names.length, `${list}: no spelling twice`)
    assert.deepEqual([...union(type)].sort(), [...names].sort(), `${type} in index.d.ts: the core's names`)
  })
}

test("the strategy key's values are the core's strategies, the default first", () => {
  const key = configKeys().find((k) => k.range === 'strategy')
  assert.deepEqual(key.values, LISTS.strategies.map(([name]) => name))
  assert.equal(key.values[0], key.default)
})

test("units: each MarkerUnit is the core's unit of that name, and MarkerUnit has no other", () => {
  const hash = '3beed198ae3c33ef1574f2c4'
  for (const unit of union('MarkerUnit')) assert.equal(formatMarker(hash, 7, unit), `<<ccr:${hash} 7_${unit}_offloaded>>`)
  assert.deepEqual(union('MarkerUnit').sort(), [...LISTS.units].sort())
})
