// The published types: compile a user's file against them with the repo's
// TypeScript. A type error fails the test with the compiler's output.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')

test('a user file type-checks against the package types (exports, Context merge, readonly config)', () => {
  const r = spawnSync(process.execPath, [tsc, '-p', join(here, 'types', 'tsconfig.json')], { encoding: 'utf8' })
  assert.equal(r.status, 0, r.stdout + r.stderr)
})
