// Seeded generators for differential tests. A failure prints its seed, and
// TRP_SEED=<seed> reruns exactly that case.

/** mulberry32: a small, fast, seedable PRNG. */
export function rng(seed) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1))
  const pick = (items) => items[Math.floor(next() * items.length)]
  const chance = (p) => next() < p
  return { next, int, pick, chance }
}

/** Seeds for `count` cases, or the one in TRP_SEED. */
export function seeds(count, base = 0x5eed) {
  if (process.env.TRP_SEED) return [Number(process.env.TRP_SEED)]
  return Array.from({ length: count }, (_, i) => (base + i * 2654435761) >>> 0)
}

// Text atoms: each is a short string of one class.
const ATOMS = {
  ascii: () => 'abcdefghijklmnopqrstuvwxyz0123456789 .,:;-_/=()[]{}',
  cjk: () => '漢字仮名交じり文错误失败测试日本語한국어',
  emoji: () => ['😀', '🚀', '🔥', '𝔘', '𠀋', '🧪'],
  zwj: () => ['👨‍👩‍👧‍👦', '🏳️‍🌈', '👩🏽‍💻', '🧑‍🚀'],
  combining: () => ['é', 'ñ', 'ộ', 'a\u0301\u0323', 'ก\u0e35\u0e49'],
  lone: () => ['\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uDC00\uD800'],
  lines: () => ['\n', '\r\n', '\n\n', '\t', '\r'],
  log: () => ['ERROR: failed to compile', 'Traceback (most recent call last):', '    at foo (bar.js:1:2)', 'PASS src/a.test.ts', 'npm ERR! code 1'],
}

/** A string of about `target` UTF-16 units mixing the given atom classes. */
export function text(r, target, classes = Object.keys(ATOMS)) {
  let out = ''
  while (out.length < target) {
    const cls = r.pick(classes)
    const atoms = ATOMS[cls]()
    if (typeof atoms === 'string') {
      const n = r.int(1, 12)
      for (let i = 0; i < n; i++) out += atoms[r.int(0, atoms.length - 1)]
    } else {
      out += r.pick(atoms)
    }
  }
  return out
}

/** A random valid config: head + 39 + tail <= threshold. */
export function config(r) {
  if (r.chance(0.1)) return {}
  const head = r.int(0, 400)
  const tail = r.int(0, 400)
  const threshold = head + 39 + tail + r.int(0, 300)
  const cfg = { thresholdChars: threshold, headChars: head, tailChars: tail }
  if (r.chance(0.2)) delete cfg.headChars
  if (r.chance(0.2)) delete cfg.tailChars
  if (cfg.headChars === undefined || cfg.tailChars === undefined) cfg.thresholdChars = Math.max(threshold, (cfg.headChars ?? 4096) + 39 + (cfg.tailChars ?? 1024))
  return cfg
}

function richBlock(r) {
  return r.pick([
    () => ({ type: 'image', attachment: { id: `att-${r.int(0, 99)}`, mimeType: 'image/png', width: 10, height: 10 } }),
    () => ({ type: 'reasoning', text: 'x'.repeat(r.int(0, 200)) }),
    () => ({ type: 'tool-call', id: 'c', name: 'n', arguments: '{}' }),
    () => ({ type: 'future-block', payload: [1, 2, 3] }),
  ])()
}

/**
 * A random block list whose text totals about `size` units, spread over up
 * to four text blocks, with rich blocks between them and extra fields.
 */
export function blocks(r, size) {
  const out = []
  const nText = r.int(0, 4)
  const classes = r.chance(0.5) ? Object.keys(ATOMS) : [r.pick(Object.keys(ATOMS))]
  for (let i = 0; i < nText; i++) {
    if (r.chance(0.3)) out.push(richBlock(r))
    const share = r.chance(0.15) ? 0 : Math.max(0, Math.round((size / nText) * (0.3 + r.next() * 1.4)))
    const block = r.chance(0.2) ? { text: text(r, share, classes), type: 'text' } : { type: 'text', text: text(r, share, classes) }
    if (r.chance(0.25)) block.cacheControl = { type: 'ephemeral' }
    if (r.chance(0.1)) block.annotations = [{ at: r.int(0, 9) }]
    out.push(block)
  }
  if (r.chance(0.3)) out.push(richBlock(r))
  return out
}
