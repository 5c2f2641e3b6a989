// The committed napi-rs outputs, native.js (the loader) and index.d.ts (the
// type source the plugin re-exports), are what a fresh build writes: a
// binding change that was not regenerated and committed, or a hand edit,
// fails here. The build goes to a temporary directory and reuses cargo's
// target directory, so after `npm run build` it compiles nothing.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const GENERATED = ['native.js', 'index.d.ts']

/** `path` as committed at HEAD, or `undefined` outside a git checkout. */
function committed(path) {
  const r = spawnSync('git', ['show', `HEAD:${path}`], { cwd: root, maxBuffer: 1 << 26 })
  return r.status === 0 ? r.stdout : undefined
}

const inGit = committed('package.json') !== undefined

test('a fresh build writes the committed native.js and index.d.ts byte for byte', { skip: !inGit && 'not a git checkout: nothing committed to compare' }, () => {
  const out = mkdtempSync(join(tmpdir(), 'trp-generated-'))
  try {
    // The build:native script's flags, with the outputs sent elsewhere.
    const script = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts['build:native']
    const args = script.split(/\s+/).slice(1).concat(['--output-dir', out])
    assert.deepEqual(args.slice(0, 2), ['build', '--platform'], script)
    const r = spawnSync(join(root, 'node_modules', '.bin', 'napi'), args, { cwd: root, encoding: 'utf8' })
    assert.equal(r.status, 0, r.stderr)
    for (const file of GENERATED) {
      const fresh = readFileSync(join(out, file))
      assert.ok(fresh.equals(committed(file)), `a fresh build's ${file} differs from the committed one: run \`npm run build\` and commit ${file}`)
    }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
})
