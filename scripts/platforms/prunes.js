// One fixed set of prunes, run through a build's own loader, written as JSON.
// scripts/test-platforms.js runs it under every runtime (native Node, qemu,
// the musl loader, Wine) against every build and compares the files byte for
// byte: the same inputs must give the same bytes on every platform.
//
//   node scripts/platforms/prunes.js PATH/TO/index.js OUT.json
//
// The inputs are made here, deterministically, and cover: both strategies,
// lines mode with its retrievable markers, outlines (source, diff, search
// results, JSON), content of several blocks with non-text blocks between,
// and lone surrogates at the cut points. Output goes to a file, not stdout,
// because Wine's console mangles piped output.
import { writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

const [entry, out] = process.argv.slice(2)
if (!entry || !out) {
  console.error('usage: prunes.js PATH/TO/index.js OUT.json')
  process.exit(2)
}
const native = await import(pathToFileURL(entry).href)

const lines = (n, f) => Array.from({ length: n }, (_, i) => f(i)).join('\n') + '\n'

const log =
  lines(1200, (i) => `[${String(i).padStart(4, '0')}] test suite/case_${i} ... ok (${(i * 37) % 101} ms)`) +
  'Traceback (most recent call last):\n  File "app/main.py", line 42, in run\n    result = compute(payload)\n' +
  '  File "app/compute.py", line 7, in compute\n    raise ValueError("bad payload")\nValueError: bad payload\n' +
  lines(800, (i) => `[${String(1200 + i).padStart(4, '0')}] test suite/tail_${i} ... ok`) +
  'error[E0308]: mismatched types\n  --> src/lib.rs:10:5\nFAILED: 1 test, exit code 101\n'

const source = lines(900, (i) =>
  i % 30 === 0 ? `pub fn handler_${i}(input: &str) -> Result<String, Error> {` : i % 30 === 29 ? '}' : `    let value_${i} = input.len() + ${i}; // step ${i}`,
)
const diff =
  'diff --git a/src/a.rs b/src/a.rs\nindex 1111111..2222222 100644\n--- a/src/a.rs\n+++ b/src/a.rs\n' +
  lines(60, (h) => `@@ -${h * 20 + 1},12 +${h * 20 + 1},13 @@ fn f${h}()\n` + lines(12, (i) => (i === 5 ? `-    old_${h}_${i}();\n+    new_${h}_${i}();` : `     same_${h}_${i}();`)).trimEnd())
const search = lines(700, (i) => `src/module_${i % 40}/file_${i % 7}.rs:${i + 1}:    let needle_${i} = find(&haystack);`)
const json = JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => ({ id: i, name: `item-${i}`, tags: ['a', 'b', String(i % 9)], ok: i % 13 !== 0 })) }, null, 2)

// Astral characters and lone surrogates where the head and tail cuts fall.
const surrogates = '🚀'.repeat(700) + '\uD800' + 'x'.repeat(50) + '\uDFFF' + '漢'.repeat(900) + '\uDC00\uD800' + '👩🏽‍💻'.repeat(300) + '\uDBFF'
const blocks = [
  { type: 'text', text: 'first block\n'.repeat(200), cache: { ephemeral: true } },
  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
  { type: 'text', text: surrogates },
  { type: 'tool_reference', id: 'r1' },
  { type: 'text', text: 'last block\n'.repeat(300) },
]

const config = (strategy) => ({ thresholdChars: 4000, headChars: 2000, tailChars: 1000, strategy, contextLines: 2, edgeLines: 2 })
const results = {}
for (const strategy of native.configKeys().find((k) => k.range === 'strategy').values) {
  const pruner = new native.NativePruner(config(strategy))
  const content = (text) => [{ type: 'text', text }]
  results[strategy] = {
    multiBlock: pruner.pruneContent(blocks),
    measured: pruner.measureContent(blocks),
    surrogates: pruner.pruneContent(content(surrogates)),
    log: pruner.pruneContent(content(log)),
    under: pruner.pruneContent(content('short')),
  }
  if (strategy === 'lines') {
    for (const [name, text] of Object.entries({ log, source, diff, search, json })) results.lines[`plan:${name}`] = pruner.plan(text)
    results.lines['plan:spans'] = pruner.plan(log, [[100, 160]])
    results.lines.explain = pruner.explain(log)?.filter((line) => line.fate !== 'drop')
  }
}
results.hashes = [log, surrogates, json].map((t) => native.contentHash(t))
results.codePoints = [log, surrogates, '\uD800\uDC00\uD800'].map((t) => native.codePointLength(t))
results.markers = native.countMarkers(results.lines['plan:log'].content)

writeFileSync(out, JSON.stringify(results) + '\n')
