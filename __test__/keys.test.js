// The one key table (the core's configKeys) against every place a key is
// spelled: the resolver's allowed lists, the plugin's schema, the command
// line's flags and help, and the published .d.ts; and its defaults against
// upstream's and compaction-basic's own.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as upstream from '@deepseek-ai/dsh-compaction-tool-result-pruner'
import { configKeys } from '../index.js'
import { resolveConfig } from '../lib/index.js'
import { CONFIG_FLAGS } from '../cli/options.js'
import { Ours } from './support/dsh.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const KEYS = configKeys()
const names = (keys) => keys.map((k) => k.name)
const PRUNER_KEYS = KEYS.filter((k) => k.scope !== 'policy')
const POLICY_KEYS = KEYS.filter((k) => k.scope === 'policy')

/** The field names of `interface NAME` in a declaration file, in order. */
function fields(file, name) {
  const text = readFileSync(join(root, file), 'utf8')
  const start = text.indexOf(`export interface ${name} {`)
  assert.ok(start >= 0, `${file} declares ${name}`)
  const body = text.slice(start, text.indexOf('\n}', start))
  return [...body.matchAll(/^ +(?:readonly )?(\w+)\??:/gm)].map((m) => m[1])
}

/** The allowed list a refusal names. */
function allowed(fn) {
  try {
    fn()
  } catch (error) {
    return error.message.match(/\(allowed: (.*)\)$/)[1].split(', ')
  }
  assert.fail('no refusal')
}

test('upstream\'s keys come first, with upstream\'s defaults', () => {
  assert.deepEqual(names(KEYS.slice(0, 3)), Object.keys(upstream.DEFAULTS))
  for (const key of KEYS.slice(0, 3)) assert.equal(key.default, upstream.DEFAULTS[key.name], key.name)
  assert.ok(KEYS.slice(0, 3).every((k) => k.scope === 'budget'))
})

test('thresholdRatio falls back to compaction-basic\'s default', () => {
  const source = readFileSync(createRequire(import.meta.url).resolve('@deepseek-ai/dsh-compaction-basic'), 'utf8')
  const theirs = Number(source.match(/const DEFAULT_THRESHOLD_RATIO = ([\d.]+);/)[1])
  assert.equal(KEYS.find((k) => k.name === 'thresholdRatio').fallback, theirs)
})

test('the resolver allows the table\'s keys, and a tool rule the pruner\'s keys and prune', () => {
  assert.deepEqual(allowed(() => resolveConfig({ bogus: 1 })), names(KEYS))
  assert.deepEqual(allowed(() => resolveConfig({ tools: { bash: { bogus: 1 } } })), [...names(PRUNER_KEYS), 'prune'])
  // Every default the table states is what an empty config resolves to; no policy key is there.
  const resolved = resolveConfig()
  assert.deepEqual(Object.keys(resolved), names(PRUNER_KEYS))
  for (const key of KEYS) if (key.default !== undefined) assert.equal(resolved[key.name], key.default, key.name)
})

test('the plugin\'s schema has the table\'s keys, minimums and defaults', () => {
  assert.deepEqual(Object.keys(Ours.Config.dict), names(KEYS))
  // A key without a default is absent, but for the rules: a loader's dict is `{}`, no rules.
  const defaults = Ours.Config({})
  for (const key of KEYS) assert.deepEqual(defaults[key.name], key.range === 'tool-rules' ? {} : key.default, key.name)
  for (const key of KEYS.filter((k) => k.min !== undefined)) {
    assert.throws(() => Ours.Config({ [key.name]: key.min - 1 }), undefined, key.name)
    assert.equal(Ours.Config({ [key.name]: key.min })[key.name], key.min, key.name)
  }
})

test('the command line has a flag per pruner key, the key in kebab case, in the help in the table\'s order', () => {
  const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
  assert.deepEqual(CONFIG_FLAGS, Object.fromEntries(PRUNER_KEYS.map((k) => [kebab(k.name), k.name])))
  assert.ok(POLICY_KEYS.every((k) => k.flag === undefined))
  const help = spawnSync(process.execPath, [join(root, 'bin', 'tool-result-pruner.js'), '--help'], { encoding: 'utf8' }).stdout
  const shown = [...help.matchAll(/^ {2}--([a-z-]+) [NS] +(.*)$/gm)].map((m) => [m[1], m[2]])
  assert.deepEqual(shown, PRUNER_KEYS.map((k) => [kebab(k.name), k.help]))
})

test('the .d.ts declares the table\'s keys: the config, a tool rule, and the resolved config', () => {
  assert.deepEqual(fields('index.d.ts', 'ToolResultPruneConfig'), names(KEYS))
  assert.deepEqual(fields('index.d.ts', 'ToolRuleConfig'), [...names(PRUNER_KEYS), 'prune'])
  assert.deepEqual(fields('index.d.ts', 'ResolvedConfig'), names(KEYS))
})

test('the README\'s config table lists the table\'s keys in order, with their defaults and fallbacks', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Config'), readme.indexOf('\n## ', readme.indexOf('## Config') + 1))
  const rows = [...section.matchAll(/^\| `(\w+)` \| ([^|]*) \|/gm)]
  assert.deepEqual(rows.map((m) => m[1]), names(KEYS))
  for (const [, name, required] of rows) {
    const key = KEYS.find((k) => k.name === name)
    const stated = key.default ?? key.fallback
    if (stated !== undefined) assert.match(required, new RegExp(`\`'?${String(stated).replace('.', '\\.')}'?\``), name)
  }
})
