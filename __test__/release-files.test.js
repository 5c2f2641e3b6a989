// What a release holds besides binaries: one version (package.json's; the
// platform packages follow it), each platform package's manifest right for
// the platform npm and pnpm pick it on, the main package's contents (what
// `npm pack` takes: no fixtures, no build leftovers, within a size budget),
// and a hand-kept CHANGELOG.md with an entry for the version.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { platformName } from '../platform.js'
import { versionMismatches } from '../scripts/publish.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const platformPkg = (p) => JSON.parse(readFileSync(join(root, 'npm', p, 'package.json'), 'utf8'))

/** Unpacked and packed size the main package may reach (it is 144 kB and 41 kB now: code, types, README). */
const BUDGET = { unpacked: 250_000, packed: 70_000 }

/** What npm and pnpm read to pick a platform package: `os`, `cpu` and (Linux) `libc`, from the Rust target. */
function expectedFields(triple) {
  const [arch, vendor, os, abi] = triple.split('-')
  const cpu = { x86_64: 'x64', aarch64: 'arm64' }[arch]
  if (vendor === 'apple') return { os: ['darwin'], cpu: [cpu] }
  if (os === 'windows') return { os: ['win32'], cpu: [cpu] }
  return { os: ['linux'], cpu: [cpu], libc: [abi === 'musl' ? 'musl' : 'glibc'] }
}

test('the version is set once: every platform package has package.json\'s', () => {
  assert.deepEqual(versionMismatches(root), [])
})

test('a platform package out of step is named, so the publish refuses it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trp-versions-'))
  try {
    cpSync(join(root, 'package.json'), join(dir, 'package.json'))
    cpSync(join(root, 'npm'), join(dir, 'npm'), { recursive: true })
    const file = join(dir, 'npm', 'darwin-arm64', 'package.json')
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), version: '0.0.9' }))
    assert.deepEqual(versionMismatches(dir), [`npm/darwin-arm64/package.json has version 0.0.9; package.json has ${pkg.version}`])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

for (const triple of pkg.napi.targets) {
  const p = platformName(triple)
  test(`npm/${p}: named for its platform, os/cpu/libc for ${triple}, the main package's engines and license, the addon its only file`, () => {
    const m = platformPkg(p)
    const binary = `${pkg.napi.binaryName}.${p}.node`
    assert.equal(m.name, `${pkg.name}-${p}`)
    const fields = expectedFields(triple)
    assert.deepEqual({ os: m.os, cpu: m.cpu, libc: m.libc }, { os: fields.os, cpu: fields.cpu, libc: fields.libc })
    assert.deepEqual(m.engines, pkg.engines)
    assert.equal(m.license, pkg.license)
    assert.equal(m.main, binary)
    assert.deepEqual(m.files, [binary])
  })
}

test('npm pack: the runtime, its types, README, CHANGELOG and the bundle patch; no tests, fixtures, sources or build leftovers; within the size budget', () => {
  const [listing] = JSON.parse(execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }))
  const files = listing.files.map((f) => f.path)
  for (const needed of ['package.json', 'README.md', 'CHANGELOG.md', 'cordis.patch.yml', 'index.js', 'index.d.ts', 'native.js', 'platform.js', 'bin/tool-result-pruner.js', 'cli/main.js', 'lib/index.js', 'lib/index.d.ts', 'lib/invariant.js', 'lib/retrieve-tool.js']) {
    assert.ok(files.includes(needed), `${needed} is packed`)
  }
  const stray = files.filter((f) => /(^|\/)(__test__|fixtures|src|target|npm|scripts|benches|fuzz|docs|examples|corpus|tests|\.cache|scratch|node_modules)\//.test(f) || /\.(node|tgz|log|rs|ts)$/.test(f.replace(/\.d\.ts$/, '')) || /\.tsbuildinfo$|\.map$/.test(f))
  assert.deepEqual(stray, [])
  // Everything exported or run is in the package.
  for (const target of Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)))) {
    assert.ok(files.includes(target.replace(/^\.\//, '')), `${target} (exports) is packed`)
  }
  assert.ok(files.includes(pkg.bin['tool-result-pruner']))
  assert.ok(listing.unpackedSize <= BUDGET.unpacked, `unpacked ${listing.unpackedSize} B over ${BUDGET.unpacked}`)
  assert.ok(listing.size <= BUDGET.packed, `packed ${listing.size} B over ${BUDGET.packed}`)
})

test('CHANGELOG.md has an entry for this version', () => {
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8')
  assert.match(changelog, new RegExp(`^## ${pkg.version.replaceAll('.', '\\.')}( |$)`, 'm'))
})
