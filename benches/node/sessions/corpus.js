// The raw material of the replayed sessions: real tool outputs from the
// repository's corpora (__test__/fixtures/*/*/raw.log), cut and framed the
// way dsh's own tools would hand them to the model, and a seeded PRNG.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '__test__', 'fixtures')

/**
 * dsh-base's spill policy (`maxInlineBytes: 50000` in its cordis.patch.yml)
 * moves a bash result over 50,000 UTF-8 bytes out of the context, so a real
 * session never shows the model more than that from one command. Longer logs
 * are replayed as the tail (or head) a command piped through `tail`/`head`
 * would print, inside this budget.
 */
export const BASH_MAX_BYTES = 48_000
/** dsh-tool-fs's `read`: at most 2,000 lines and 50 KiB per call. */
export const READ_MAX_LINES = 2000
export const READ_MAX_BYTES = 50 * 1024

const cache = new Map()

/** The raw text of one fixture, e.g. `runs-tune-b/py-pytest-dateutil`. */
export function raw(name) {
  if (!cache.has(name)) cache.set(name, readFileSync(join(fixtures, name, 'raw.log'), 'utf8'))
  return cache.get(name)
}

/** The lines of a fixture, each with its `\n` (the last one may lack it). */
export function lines(name) {
  return raw(name).match(/[^\n]*\n|[^\n]+$/g) ?? []
}

const bytes = (s) => Buffer.byteLength(s, 'utf8')

/**
 * Whole lines of `text` within `max` UTF-8 bytes: the last ones (`from:
 * 'tail'`) or the first ones (`from: 'head'`); the text itself when it fits.
 * @returns {{ text: string, cut: boolean, lines: number }}
 */
export function fit(text, max = BASH_MAX_BYTES, from = 'tail') {
  if (bytes(text) <= max) return { text, cut: false, lines: 0 }
  const all = text.match(/[^\n]*\n|[^\n]+$/g) ?? []
  const kept = []
  let used = 0
  const order = from === 'tail' ? [...all].reverse() : all
  for (const line of order) {
    const n = bytes(line)
    if (used + n > max) break
    kept.push(line)
    used += n
  }
  if (from === 'tail') kept.reverse()
  return { text: kept.join(''), cut: true, lines: kept.length }
}

/**
 * A bash result as dsh-tool-bash renders one: the output, then
 * `[exit code: N]` for a non-zero exit.
 */
export function bashResult(output, exitCode = 0) {
  let body = output.length === 0 ? '(no output)' : output
  if (exitCode !== 0) body += `${body.endsWith('\n') ? '' : '\n'}[exit code: ${exitCode}]`
  return body
}

/**
 * A `read` result as dsh-tool-fs renders one: `<path>`, `<type>`, and the
 * 1-based numbered lines `offset..offset+limit-1` of the file, with its
 * continuation footer, capped at 2,000 lines and 50 KiB.
 */
export function readResult(path, fileLines, offset = 1, limit = READ_MAX_LINES) {
  const total = fileLines.length
  const shown = []
  let used = 0
  let capped = false
  for (let n = offset; n < offset + Math.min(limit, READ_MAX_LINES) && n <= total; n++) {
    const text = fileLines[n - 1].replace(/\n$/, '')
    const size = bytes(text) + 1
    if (used + size > READ_MAX_BYTES) {
      capped = true
      break
    }
    shown.push(`${n}: ${text}`)
    used += size
  }
  const end = shown.length === 0 ? offset - 1 : offset + shown.length - 1
  const footer = capped
    ? `(Output capped. Showing lines ${offset}-${end}. Use offset=${end + 1} to continue.)`
    : end < total
      ? `(Showing lines ${offset}-${end} of ${total}. Use offset=${end + 1} to continue.)`
      : `(End of file - total ${total} lines)`
  const body = shown.length > 0 ? `${shown.join('\n')}\n\n${footer}` : footer
  return `<path>${path}</path>\n<type>file</type>\n<content>\n${body}\n</content>`
}

/** An `edit` result as dsh-tool-fs renders one. */
export const editResult = (path) => `The file ${path} has been updated successfully.`

/** The seeded generator of the differential tests, so every run replays the same sessions. */
export { rng } from '../../../__test__/support/random.js'

/**
 * The same run once more, as a re-run after a small edit prints it: every
 * duration re-timed, and a few lines that carry numbers (counts, line
 * numbers, addresses, values in an assertion) changed in those numbers.
 * Sizes and the order of lines stay as they were.
 */
export function rerun(text, r, changedLines = 3) {
  let out = text.replace(/\b(\d+)\.(\d+)(s|ms| sec| seconds)\b/g, (_m, whole, frac, unit) => {
    const w = Math.max(0, Number(whole) + r.int(-1, 1))
    return `${w}.${String(r.int(0, 10 ** frac.length - 1)).padStart(frac.length, '0')}${unit}`
  })
  const all = out.match(/[^\n]*\n|[^\n]+$/g) ?? []
  const numbered = all.map((line, i) => (/\d/.test(line) ? i : -1)).filter((i) => i >= 0)
  for (let k = 0; k < changedLines && numbered.length > 0; k++) {
    const i = r.pick(numbered)
    // The first number on the line, redrawn with as many digits.
    all[i] = all[i].replace(/\d+/, (d) => Array.from(d, (_c, j) => String(j === 0 && d.length > 1 ? r.int(1, 9) : r.int(0, 9))).join(''))
  }
  out = all.join('')
  return out
}
