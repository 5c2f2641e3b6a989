// Independent helpers for checking line plans: marker expansion and hashes
// by the stated rules, and the labelled corpora.
import { createHash } from 'node:crypto'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { criticalRecall, kept, loadCases, normalize } from '../../scripts/recall.js'

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

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures')

/**
 * A labelled corpus (`logdx-dev`: the LogDx-CI dev cases; `generated`: real
 * failing runs produced here): `{ name, text, signals }` per case, scored
 * by the repository's scorer (`scripts/recall.js`).
 */
export const corpus = (name = 'logdx-dev') => loadCases(join(FIXTURES, name))

export { criticalRecall, kept, normalize }
