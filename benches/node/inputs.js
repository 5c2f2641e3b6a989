// Deterministic benchmark inputs: text classes of an exact code-point
// length, as content block lists.

/** A tiny seeded PRNG (mulberry32), so every run sees the same bytes. */
function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Log-like ASCII lines, one in a hundred a failure. */
function asciiLine(r, i) {
  if (r() < 0.01) return `2026-11-30T04:12:40.${String(i % 1000).padStart(3, '0')}Z ERROR worker-${i % 7}: request ${i} failed: connection reset by peer (attempt ${i % 5})\n`
  return `2026-11-30T04:12:40.${String(i % 1000).padStart(3, '0')}Z INFO  worker-${i % 7}: test suite/module_${i % 97} case ${i} ... ok (${(i * 37) % 900} ms)\n`
}

const CJK = '漢字仮名交じり文错误失败测试日本語한국어처리완료데이터베이스連線逾時'
function cjkLine(r, i) {
  let s = `${i} `
  const n = 20 + Math.floor(r() * 40)
  for (let k = 0; k < n; k++) s += CJK[Math.floor(r() * CJK.length)]
  return s + (r() < 0.01 ? ' 错误: 失败\n' : '\n')
}

const ASTRAL = ['😀', '🚀', '🔥', '𝔘', '𠀋', '🧪', '👩🏽‍💻', 'é', 'ñ']
function emojiLine(r, i) {
  let s = `case ${i}: `
  const n = 10 + Math.floor(r() * 30)
  for (let k = 0; k < n; k++) s += r() < 0.3 ? ASTRAL[Math.floor(r() * ASTRAL.length)] : String.fromCharCode(97 + Math.floor(r() * 26))
  return s + (r() < 0.01 ? ' FAILED\n' : '\n')
}

/** Pretty-printed JSON, a package registry's shape: objects in arrays in objects. */
function jsonLine(r, i) {
  const depth = i % 40 === 0 ? 1 : i % 8 === 0 ? 2 : 3
  const pad = '  '.repeat(depth)
  if (i % 40 === 0) return `${pad}"package-${i}": {\n`
  if (i % 8 === 0) return `${pad}"versions": [\n`
  return `${pad}{ "version": "1.${i % 97}.${Math.floor(r() * 20)}", "integrity": "sha512-${Math.floor(r() * 1e12).toString(36)}" },\n`
}

/** Source code: documented functions, classes and their methods. */
function codeLine(r, i) {
  const n = i % 12
  if (n === 0) return `/** Computes part ${i} of the result. */\n`
  if (n === 1) return i % 36 === 1 ? `export class Part${i} {\n` : `export function part${i}(input, options = {}) {\n`
  if (n === 11) return '}\n'
  return `  const value${n} = input.items.map((x) => x * ${Math.floor(r() * 100)} + options.offset${n})\n`
}

// ---- floods: every line matches a rule (the worst inputs for the line rules) ----

/** `FAILED tests/test_mod.py::test_case_N - AssertionError: assert N == N+1`, every line. */
function failureLine(r, i) {
  return `FAILED tests/test_mod.py::test_case_${i} - AssertionError: assert ${i} == ${i + 1}\n`
}

/** A type checker's flood: one diagnostic code on every line. */
function tscLine(r, i) {
  return `src/file${i % 300}.ts(${(i % 900) + 1},${(i % 70) + 1}): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\n`
}

/** A test runner's passes: a check glyph on every line. */
function passLine(r, i) {
  return `  \u2713 renders component number ${i} with props (${(i * 7) % 90} ms)\n`
}

/** Status lines with emoji (a dingbat and astral pictographs on every line). */
function statusLine(r, i) {
  return `[${i}] \u2705 batch ${i} done \ud83d\ude00 records 128 \ud83d\ude80 lag ${(i * 13) % 500}ms\n`
}

/** A stack frame on every line. */
function frameLine(r, i) {
  return `    at Object.<anonymous> (/app/src/mod${i % 400}.js:${(i % 900) + 1}:${(i % 60) + 1})\n`
}

/** rustc's unused-variable warning blocks, seven lines each. */
function rustcLine(r, i) {
  const k = Math.floor(i / 7)
  const line = (k % 800) + 1
  return [
    `warning: unused variable: \`x${k}\`\n`,
    `  --> src/mod${k % 50}.rs:${line}:9\n`,
    '   |\n',
    `${String(line).padEnd(3)}|     let x${k} = compute(${k});\n`,
    `   |         ^^ help: if this is intentional, prefix it with an underscore: \`_x${k}\`\n`,
    '   |\n',
    '   = note: `#[warn(unused_variables)]` on by default\n',
  ][i % 7]
}

/** flake8's line-too-long flood. */
function lintLine(r, i) {
  return `src/pkg/mod${i % 200}.py:${(i % 900) + 1}:80: E501 line too long (${80 + (i % 40)} > 79 characters)\n`
}

/** Exactly `points` code points of lines from `line`, as a flat string. */
function text(points, line, seed) {
  const r = rng(seed)
  const parts = []
  let have = 0
  for (let i = 0; have < points; i++) {
    let l = line(r, i)
    const n = countPoints(l)
    if (have + n > points) l = Array.from(l).slice(0, points - have).join('')
    parts.push(l)
    have += Math.min(n, points - have)
  }
  // Joined through a Buffer so the result is one flat string, as a tool's
  // output decoded from bytes is (one-byte in V8 when it can be).
  const joined = parts.join('')
  const encoding = /^[\x00-\xff]*$/.test(joined) ? 'latin1' : 'utf16le'
  return Buffer.from(joined, encoding).toString(encoding)
}

function countPoints(s) {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d < 0xe000) i++
    }
    n++
  }
  return n
}

/** The text classes, each `(points) => blocks`. */
export const CLASSES = {
  ascii: (points) => [{ type: 'text', text: text(points, asciiLine, 1) }],
  json: (points) => [{ type: 'text', text: `{\n${text(Math.max(0, points - 4), jsonLine, 7)}}\n` }],
  code: (points) => [{ type: 'text', text: text(points, codeLine, 8) }],
  cjk: (points) => [{ type: 'text', text: text(points, cjkLine, 2) }],
  emoji: (points) => [{ type: 'text', text: text(points, emojiLine, 3) }],
  multi: (points) => {
    const a = Math.floor(points * 0.4)
    const b = Math.floor(points * 0.3)
    return [
      { type: 'text', text: text(a, asciiLine, 4) },
      { type: 'image', attachment: { id: 'screenshot-1', mimeType: 'image/png', width: 640, height: 480 } },
      { type: 'text', text: text(b, emojiLine, 5), cacheControl: { type: 'ephemeral' } },
      { type: 'future-block', payload: { kind: 'table', rows: 3 } },
      { type: 'text', text: text(points - a - b, cjkLine, 6) },
    ]
  },
}

/** Floods: outputs agents really see where (almost) every line matches a rule. */
export const FLOODS = {
  failures: (points) => [{ type: 'text', text: text(points, failureLine, 11) }],
  tsc: (points) => [{ type: 'text', text: text(points, tscLine, 12) }],
  passes: (points) => [{ type: 'text', text: text(points, passLine, 13) }],
  status: (points) => [{ type: 'text', text: text(points, statusLine, 14) }],
  frames: (points) => [{ type: 'text', text: text(points, frameLine, 15) }],
  rustc: (points) => [{ type: 'text', text: text(points, rustcLine, 16) }],
  lint: (points) => [{ type: 'text', text: text(points, lintLine, 17) }],
}

/** Sizes in code points; the default threshold is 8192. */
export const SIZES = [
  ['1 KiB', 1024],
  ['8 KiB-', 8190],
  ['8 KiB+', 8194],
  ['64 KiB', 65536],
  ['1 MiB', 1 << 20],
  ['16 MiB', 1 << 24],
]

export { countPoints, asciiLine }
