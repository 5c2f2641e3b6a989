// `--explain` (issue 18, finding 4): the rows are made natively and written a
// chunk at a time, so the heap holds the text, not an object per line.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { NativePruner, TextKind } from '../index.js'
import * as trp from '../lib/index.js'

const here = dirname(fileURLToPath(import.meta.url))
const bin = join(here, '..', 'bin', 'tool-result-pruner.js')
const example = join(here, '..', 'examples', 'pytest-failure.log')
const LINES = ['--strategy', 'lines']

let work
before(() => {
  work = mkdtempSync(join(tmpdir(), 'trp-cli-explain-'))
})
after(() => rmSync(work, { recursive: true, force: true }))

/** The rows as the README describes them, from `explain`'s per-line records. */
function expectedRows(text, config) {
  const explained = new NativePruner(config).explain(text)
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  const width = String(lines.length).length
  return explained
    .map(({ class: kind, fate, why }, i) => {
      let line = lines[i]
      if (line.length > 160) {
        // Cut at 157 units, one fewer rather than between a pair's halves.
        const pairAt = /[\uD800-\uDBFF]/.test(line[156]) && /[\uDC00-\uDFFF]/.test(line[157])
        line = `${line.slice(0, pairAt ? 156 : 157)}...`
      }
      return `${String(i + 1).padStart(width)}  ${fate.padEnd(4)}  ${(why || '-').padEnd(8)}  ${(kind || '-').padEnd(7)}  ${line}\n`
    })
    .join('')
}

test('--explain prints the same rows as explain() describes, for a log, long lines and pairs at the cut', () => {
  const long = `${'y'.repeat(156)}😀 and more\n`
  const texts = [readFileSync(example, 'utf8'), `${'plain line\n'.repeat(3000)}${long}error: failed\n${long}`, '\n'.repeat(50_000)]
  for (const [i, text] of texts.entries()) {
    const file = join(work, `text-${i}.log`)
    writeFileSync(file, text)
    const r = spawnSync(process.execPath, [bin, '--explain', ...LINES, file], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 })
    assert.equal(r.status, 0, r.stderr)
    assert.equal(r.stdout, expectedRows(text, { ...trp.DEFAULTS, strategy: 'lines' }), `text ${i}`)
    const [, kind] = r.stderr.match(/^kind: (\S+) \(from the sample\)\n$/) ?? []
    assert.ok(Object.values(TextKind).includes(kind), r.stderr)
  }
})

test('--explain on 20 MB of blank lines finishes within a 256 MB heap (it ran out of heap, exit 134)', () => {
  const file = join(work, 'blank.log')
  writeFileSync(file, '\n'.repeat(20 * 2 ** 20))
  const out = openSync('/dev/null', 'w')
  try {
    const r = spawnSync(process.execPath, ['--max-old-space-size=256', bin, '--explain', ...LINES, file], { stdio: ['ignore', out, 'pipe'], encoding: 'utf8' })
    assert.equal(r.status, 0, `status ${r.status} signal ${r.signal}: ${r.stderr.slice(0, 500)}`)
    assert.equal(r.stderr, 'kind: log (from the sample)\n')
  } finally {
    closeSync(out)
  }
})

test('--explain follows the strategy: under head-tail a line is kept only within the head or the tail', () => {
  const file = join(work, 'ht.log')
  const text = Array.from({ length: 3000 }, (_, i) => `step ${i}: error in case ${i}`).join('\n') + '\n'
  writeFileSync(file, text)
  const r = spawnSync(process.execPath, [bin, '--explain', '--strategy', 'head-tail', file], { encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  const rows = r.stdout.trimEnd().split('\n')
  assert.equal(rows.length, 3000)
  const cps = [...text].length
  let at = 0
  for (const [i, row] of rows.entries()) {
    const len = [...`step ${i}: error in case ${i}\n`].length
    const fate = row.trim().split(/\s+/)[1]
    const expected = at + len <= trp.DEFAULTS.headChars || at >= cps - trp.DEFAULTS.tailChars ? 'keep' : at < trp.DEFAULTS.headChars || at + len > cps - trp.DEFAULTS.tailChars ? 'cut' : 'drop'
    assert.equal(fate, expected, `line ${i + 1}: ${row}`)
    at += len
  }
})
