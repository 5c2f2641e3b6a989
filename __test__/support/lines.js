// Independent helpers for checking line plans: marker expansion, the LogDx
// signal rule, and the dev corpus.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const MARKER = /<<ccr:([0-9a-f]{24}) (\d+)_(lines|chars)_offloaded>>/g

/** Headroom's resolver pattern: what an agent-side resolver accepts. */
export const HEADROOM_MARKER = /<<ccr:([a-f0-9]{12,24})[^>]*>>/

/**
 * Undoes a plan by the README's rule: each marker whose hash is known is
 * replaced by its text; a lines marker also takes the `\n` that closed it
 * when its text ends in one.
 */
export function expand(content, recoverable) {
  return content.replace(new RegExp(`${MARKER.source}(\\n?)`, 'g'), (whole, hash, _n, unit, newline) => {
    const text = recoverable[hash]
    if (text === undefined) return whole
    return unit === 'lines' && text.endsWith('\n') ? text : text + newline
  })
}

/** Every marker in `text`: `{ hash, count, unit }`. */
export function markers(text) {
  return [...text.matchAll(MARKER)].map((m) => ({ hash: m[1], count: Number(m[2]), unit: m[3] }))
}

/** Code points, as Array.from counts them. */
export const cp = (s) => Array.from(s).length

/** UTF-8 bytes of a JS string with lone surrogates as three bytes each (WTF-8). */
export function wtf8(s) {
  const bytes = []
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i)
    const next = s.charCodeAt(i + 1)
    if (c >= 0xd800 && c < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
      c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00)
      i++
    }
    if (c < 0x80) bytes.push(c)
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63))
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
  }
  return Buffer.from(bytes)
}

/** The stated hash rule, computed with node:crypto. */
export const sha24 = (s) => createHash('sha256').update(wtf8(s)).digest('hex').slice(0, 24)

// The LogDx-CI text rule: ANSI stripped, CRLF folded, then a signal is kept
// when its value, an alias, or its file path appears.
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(?:\x07|\x1b\\)/g
export const normalize = (s) => s.replace(ANSI, '').replace(/\r\n/g, '\n').replace(/\r/g, '\n')
export function kept(signal, text) {
  const probes = [signal.value, ...(signal.aliases ?? []), signal.file]
  return probes.some((p) => typeof p === 'string' && p.trim() !== '' && text.includes(p.trim()))
}

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures')

/**
 * A labelled corpus (`logdx-dev`: the LogDx-CI dev cases; `generated`: real
 * failing runs produced here): `{ name, text, signals }` per case.
 */
export function corpus(name = 'logdx-dev') {
  const dir = join(FIXTURES, name)
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({
      name: d.name,
      text: readFileSync(join(dir, d.name, 'raw.log'), 'utf8'),
      signals: JSON.parse(readFileSync(join(dir, d.name, 'ground_truth.json'), 'utf8')).required_signals,
    }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

/** Macro critical recall of `prune(text) -> output` over the corpus. */
export function criticalRecall(cases, prune) {
  let sum = 0
  for (const c of cases) {
    const view = normalize(prune(c.text))
    const critical = c.signals.filter((s) => s.importance === 'critical')
    sum += critical.length === 0 ? 1 : critical.filter((s) => kept(s, view)).length / critical.length
  }
  return sum / cases.length
}
