// The npm package as a user gets it: the main tarball and this machine's
// platform package packed as the registry would hold them, installed into an
// empty project with no Rust toolchain on PATH, then loaded through the real
// cordis Loader from a YAML config under its package name to prune a real
// Session, on Node 20 and 22.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { node22 } from '../scripts/node22.js'
import { packForRegistry } from '../scripts/pack.js'
import { zstdDecompress } from '../index.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
let project

const CORDIS_YML = `# A dsh composition that swapped the upstream pruner for ours.
- id: meter
  name: '@deepseek-ai/dsh-token-meter'
- id: pruner
  name: tool-result-pruner
  config:
    thresholdChars: 2000
    headChars: 1000
    tailChars: 200
`

// Runs inside the temp project: only what an installed user has.
const MAIN = `
import { Context } from '@deepseek-ai/cordis'
import Loader from '@deepseek-ai/cordis-plugin-loader'
import { Session } from '@deepseek-ai/dsh-session'
import { createAssistantMessage, createToolResultMessage, createUserMessage } from '@deepseek-ai/dsh-llm'
import { PRUNE_MARKER, codePointLength } from 'tool-result-pruner'
const nativeExport = await import('tool-result-pruner/native').then(() => 'importable', (e) => e.code)

const root = new Context()
await root.plugin(Loader, { baseUrl: import.meta.url })
await root.loader.create({ name: '@deepseek-ai/cordis-plugin-include', config: { path: './cordis.yml' } })
await root.loader.await()
const pruner = root.toolResultPruner

const s = Session.create('installed')
s.append('turn/start', { turn: 1 })
s.append('user/message', createUserMessage({ content: [{ type: 'text', text: 'run the tests' }], source: { kind: 'user' } }), { surfaceOp: 'append' })
s.append('step/start', { turn: 1, step: 1 })
const call = { type: 'tool-call', id: 'c1', name: 'bash', arguments: '{}' }
s.append('assistant/message', { turn: 1, step: 1, message: createAssistantMessage({ content: [call], source: { provider: 'p', model: 'm' } }) }, { surfaceOp: 'append' })
s.append('tool/call', { turn: 1, step: 1, callId: 'c1', name: 'bash', arguments: '{}' })
const log = Array.from({ length: 400 }, (_, i) => 'line ' + i + ' ok').join('\\n') + '\\nFAILED: 1 test'
s.append('tool/result', { turn: 1, step: 1, message: createToolResultMessage({ callId: 'c1', content: [{ type: 'text', text: log }], isError: true }) }, { surfaceOp: 'append' })
s.append('step/end', { turn: 1, step: 1 })
const result = pruner.pruneSession(s)
const text = s.events.at(-1).data.message.content[0].content[0].text
console.log(JSON.stringify({
  config: pruner.config,
  result,
  hasMarker: text.includes(PRUNE_MARKER),
  after: codePointLength(text),
  nativeExport,
}))
`

/** PATH without a Rust toolchain: what a user installing from the registry has. */
const noRust = () => process.env.PATH.split(':').filter((dir) => !/\.cargo|rustup/.test(dir) && !existsSync(join(dir, 'cargo'))).join(':')
let packed

before(() => {
  project = mkdtempSync(join(tmpdir(), 'trp-install-'))
  packed = packForRegistry(project)
  // The platform package as the registry would serve it, from its tarball.
  const manifest = { name: 'empty-project', private: true, type: 'module', overrides: { [packed.platformPackage]: `file:${packed.platform}` } }
  writeFileSync(join(project, 'package.json'), JSON.stringify(manifest))
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', packed.main,
    '@deepseek-ai/cordis-plugin-loader@1.0.5', '@deepseek-ai/cordis-plugin-include@1.0.9'], { cwd: project, stdio: 'pipe', env: { ...process.env, PATH: noRust() } })
  writeFileSync(join(project, 'cordis.yml'), CORDIS_YML)
  writeFileSync(join(project, 'main.js'), MAIN)
})

after(() => rmSync(project, { recursive: true, force: true }))

test('the main tarball ships the loader, types and compiled plugin and no addon; the platform package ships the addon', () => {
  const list = (tarball) => execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n').map((f) => f.replace(/^package\//, '')).sort()
  const files = list(packed.main)
  for (const needed of ['index.js', 'native.js', 'platform.js', 'index.d.ts', 'lib/index.js', 'lib/index.d.ts', 'lib/retrieve-tool.js', 'cordis.patch.yml', 'package.json', 'README.md']) {
    assert.ok(files.includes(needed), `${needed} is packed`)
  }
  assert.ok(!files.some((f) => f.endsWith('.node')), 'no addon in the main package')
  assert.ok(files.every((f) => !f.startsWith('src/') && !f.startsWith('__test__/') && !f.startsWith('target/') && !f.startsWith('npm/')), files.join(', '))
  assert.deepEqual(list(packed.platform), ['README.md', 'package.json', `tool-result-pruner.${packed.platformName}.node`])
  const installed = JSON.parse(readFileSync(join(project, 'node_modules', 'tool-result-pruner', 'package.json'), 'utf8'))
  assert.equal(installed.optionalDependencies[packed.platformPackage], installed.version)
})

test('on a platform with no binary, importing fails with one message naming it and the supported list', () => {
  const pretend = `data:text/javascript,Object.defineProperty(process, 'arch', { value: 'riscv64' })`
  const r = spawnSync(process.execPath, ['--import', pretend, '-e', `import('tool-result-pruner').catch((e) => { console.error(e.message); process.exit(3) })`], { cwd: project, encoding: 'utf8' })
  assert.equal(r.status, 3, r.stderr)
  assert.match(r.stderr.trim(), /^tool-result-pruner: no native binary for linux-riscv64-(gnu|musl); binaries exist for linux-x64-gnu, linux-arm64-gnu, linux-x64-musl, linux-arm64-musl, darwin-x64, darwin-arm64, win32-x64-gnu$/)
})

test('without its platform package (optional dependencies omitted), importing says which package is missing', () => {
  const bare = mkdtempSync(join(tmpdir(), 'trp-bare-'))
  try {
    execFileSync('tar', ['xzf', packed.main, '-C', bare])
    const r = spawnSync(process.execPath, ['-e', `import(${JSON.stringify(join(bare, 'package', 'index.js'))}).catch((e) => { console.error(e.message); process.exit(3) })`], { encoding: 'utf8', env: { ...process.env, NODE_PATH: '' } })
    assert.equal(r.status, 3, r.stderr)
    assert.match(r.stderr, new RegExp(`the native binary for ${packed.platformName} is not installed: its package ${packed.platformPackage} is missing`))
  } finally {
    rmSync(bare, { recursive: true, force: true })
  }
})

test('the installed command runs: npx tool-result-pruner prunes a file', () => {
  writeFileSync(join(project, 'build.log'), Array.from({ length: 2000 }, (_, i) => `step ${i} ok\n`).join('') + 'error: link failed\n')
  const r = spawnSync(npm, ['exec', '--offline', '--', 'tool-result-pruner', '--strategy', 'lines', '--stats', 'build.log'], { cwd: project, encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  assert.ok(r.stdout.includes('error: link failed'))
  assert.match(r.stdout, /<<ccr:[0-9a-f]{24} \d+_lines_offloaded>>/)
  assert.match(r.stderr, /code points \d+ -> \d+/)
})

for (const [label, bin] of [['Node 20 (this process)', () => process.execPath], ['Node 22', node22]]) {
  test(`installed into an empty project, loaded from cordis.yml by the real Loader, it prunes a real Session (${label})`, () => {
    const r = spawnSync(bin(), ['main.js'], { cwd: project, encoding: 'utf8' })
    assert.equal(r.status, 0, r.stderr)
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1))
    assert.deepEqual(out.config, { thresholdChars: 2000, headChars: 1000, tailChars: 200, strategy: 'head-tail', keepChars: 1000 + 39 + 200, contextLines: 2, edgeLines: 2 })
    assert.equal(out.result.pruned.length, 1)
    const [entry] = out.result.pruned
    assert.equal(entry.originalSeq, 5)
    assert.equal(entry.replacementSeq, 8)
    assert.equal(entry.callId, 'c1')
    assert.equal(entry.charsAfter, 1000 + 39 + 200)
    assert.equal(out.after, entry.charsAfter)
    assert.ok(out.hasMarker)
    assert.equal(out.nativeExport, 'ERR_PACKAGE_PATH_NOT_EXPORTED', 'the addon internals are not a public entry point')
  })
}

test('every `npx tool-result-pruner` command in the README runs as written against the installed package', () => {
  // The README's shell lines, as a user pastes them; the placeholders are
  // made real: a build log, a git change, a dsh session under ~/.dsh (its
  // `…` directory too), and the hash of a marker the session command wrote.
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const shell = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].split('\n')).filter((l) => /(^|\| )npx tool-result-pruner /.test(l))
  assert.ok(shell.length >= 5, `${shell.length} commands`)
  const home = mkdtempSync(join(tmpdir(), 'trp-readme-home-'))
  try {
    writeFileSync(join(project, 'build.log'), Array.from({ length: 3000 }, (_, i) => `step ${i} ok\n`).join('') + 'error: link failed\n')
    const git = (...args) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: project })
    git('init', '-q')
    git('add', 'build.log')
    git('commit', '-qm', 'log')
    writeFileSync(join(project, 'build.log'), Array.from({ length: 3000 }, (_, i) => `step ${i} ${i % 7 ? 'ok' : 'changed'}\n`).join(''))
    const made = spawnSync(node22(), [join(root, '__test__', 'support', 'make-session-logs.js'), join(home, 'made')], { encoding: 'utf8' })
    assert.equal(made.status, 0, made.stderr)
    const sessions = join(home, '.dsh', 'sessions', '…')
    execFileSync('mkdir', ['-p', sessions])
    writeFileSync(join(sessions, 'session.jsonl.zstd'), readFileSync(JSON.parse(made.stdout).zstd))
    const run = (line) => spawnSync('bash', ['-c', line], { cwd: project, encoding: 'utf8', env: { ...process.env, HOME: home }, maxBuffer: 64 * 2 ** 20 })
    for (const line of shell) {
      let command = line
      if (line.includes(' retrieve HASH ')) {
        const log = zstdDecompress(readFileSync(join(project, 'pruned.jsonl.zstd'))).toString('utf8')
        const hash = /<<ccr:([0-9a-f]{24}) /.exec(log)?.[1]
        assert.ok(hash, 'the session command wrote a marker')
        command = line.replace('HASH', hash)
      }
      const r = run(command)
      assert.equal(r.status, 0, `${line}\n${r.stderr}`)
      assert.ok(r.stdout.length > 0, `${line}: printed nothing`)
    }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
})
