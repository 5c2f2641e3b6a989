// The release, rehearsed on a real registry (`npm run test:release`, on
// Node 22: dsh's runtime). A throwaway Verdaccio gets what the release
// workflow publishes, through its own script (scripts/publish.js): every
// platform package this machine built and the main package. Then, as new
// users with an empty HOME and npm cache whose ~/.npmrc names the registry:
// `npm install` and `pnpm add` of the package by name, `npx`, the plugin in a
// cordis Context, `dsh plugin add` and `remove`, and an install without its
// platform package.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { currentPlatform, SUPPORTED } from '../../platform.js'
import { cleanEnv, platformPackagesUnder, rehearseRelease, root } from '../support/release.js'
import { startRegistry } from '../../scripts/registry.js'
import { dsh, installDsh, writeHomePatch } from '../support/dsh-cli.js'
import { isConversation, startMockDeepSeek, toolMessages } from '../support/mock-deepseek.js'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const PRUNE_MARKER = '\n\n[... tool result middle pruned ...]\n\n'
const here = join(root, '__test__')
// dsh and its pnpm run on Node 22; the rehearsal runs there too.
const node22 = Number(process.versions.node.split('.')[0]) === 22

/** Runs a command without blocking this process (the mock model answers from here). */
function run(command, args, { cwd, env, input } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: env ?? cleanEnv() })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', (status) => resolve({ status, stdout, stderr }))
    child.stdin.end(input ?? '')
  })
}

/** A user's program: the plugin in a cordis Context next to dsh's token meter, pruning one over-budget result. */
const USE = `
import { Context } from '@deepseek-ai/cordis'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import ToolResultPruner from 'tool-result-pruner'
const ctx = new Context()
await ctx.plugin(TokenMeter)
await ctx.plugin(ToolResultPruner, { thresholdChars: 2000, headChars: 1000, tailChars: 200 })
const pruner = await new Promise((resolve) => ctx.inject(['toolResultPruner'], (c) => resolve(c.toolResultPruner)))
const text = Array.from({ length: 400 }, (_, i) => 'line ' + i + ' ok').join('\\n') + '\\nFAILED: 1 test'
const out = pruner.pruneContent([{ type: 'text', text }])
console.log(JSON.stringify({ text: out[0].text, length: Array.from(out[0].text).length }))
`

/** The user's program run in `project`; its parsed output. */
async function usePlugin(user) {
  writeFileSync(join(user.project, 'use.mjs'), USE)
  const r = await run(process.execPath, ['use.mjs'], { cwd: user.project, env: user.env })
  assert.equal(r.status, 0, r.stderr)
  const out = JSON.parse(r.stdout.trim().split('\n').at(-1))
  assert.equal(out.length, 1000 + PRUNE_MARKER.length + 200)
  assert.ok(out.text.includes(PRUNE_MARKER))
  assert.ok(out.text.endsWith('FAILED: 1 test'))
  return out
}

// A user's environment carries none of the npm settings `npm run` exports to this process.
for (const key of Object.keys(process.env)) if (/^npm_/i.test(key)) delete process.env[key]

const ownPlatform = currentPlatform()
let release

describe('the release, published to a local registry and installed as users install it', { skip: !node22 && 'runs on Node 22 (npm run test:release)' }, () => {
  before(async () => {
    release = await rehearseRelease()
    process.stderr.write(`# published to ${release.registry.url}: ${release.published.join(', ')}\n`)
  })
  after(() => release?.stop())


  test('what was published: this machine\'s platform package and the main package naming exactly the platform packages published', async () => {
    assert.ok(release.platforms.includes(ownPlatform), `${ownPlatform} was built`)
    const doc = await (await fetch(new URL('tool-result-pruner', release.registry.url))).json()
    const manifest = doc.versions[release.version]
    assert.deepEqual(Object.keys(manifest.optionalDependencies).sort(), release.platforms.map((p) => `tool-result-pruner-${p}`).sort())
    for (const v of Object.values(manifest.optionalDependencies)) assert.equal(v, release.version)
    for (const p of release.platforms) {
      const platform = await (await fetch(new URL(`tool-result-pruner-${p}`, release.registry.url))).json()
      const m = platform.versions[release.version]
      assert.ok(m, `tool-result-pruner-${p}@${release.version} published`)
      assert.deepEqual(m.engines, manifest.engines)
    }
  })

  test('npm install tool-result-pruner: the right platform package and no other; the plugin loads in a cordis Context and prunes; npx runs', async () => {
    const user = release.user('npm')
    writeFileSync(join(user.project, 'package.json'), JSON.stringify({ name: 'a-user', private: true, type: 'module' }))
    const install = await run(npm, ['install', 'tool-result-pruner', '@deepseek-ai/cordis', '@deepseek-ai/dsh-token-meter'], { cwd: user.project, env: user.env })
    assert.equal(install.status, 0, install.stderr)
    assert.deepEqual(platformPackagesUnder(user.project), [`tool-result-pruner-${ownPlatform}`])
    const lock = JSON.parse(readFileSync(join(user.project, 'package-lock.json'), 'utf8'))
    assert.match(lock.packages['node_modules/tool-result-pruner'].resolved, new RegExp(`^${release.registry.url}`), 'from the local registry')
    await usePlugin(user)
    const version = await run(npm, ['exec', '--', 'tool-result-pruner', '--version'], { cwd: user.project, env: user.env })
    assert.equal(version.status, 0, version.stderr)
    assert.equal(version.stdout.trim(), release.version)
    const log = Array.from({ length: 2000 }, (_, i) => `step ${i} ok\n`).join('') + 'error: link failed\n'
    const pruned = await run(npm, ['exec', '--', 'tool-result-pruner', '--strategy', 'lines', '--stats'], { cwd: user.project, env: user.env, input: log })
    assert.equal(pruned.status, 0, pruned.stderr)
    assert.ok(pruned.stdout.includes('error: link failed'))
    assert.match(pruned.stdout, /<<ccr:[0-9a-f]{24} \d+_lines_offloaded>>/)
    assert.match(pruned.stderr, /code points \d+ -> \d+/)
  })

  test('pnpm add tool-result-pruner (dsh\'s package manager): the right platform package and no other; the plugin loads and prunes', async () => {
    const { path } = installDsh()
    const user = release.user('pnpm')
    user.env.PATH = path
    writeFileSync(join(user.project, 'package.json'), JSON.stringify({ name: 'a-user', private: true, type: 'module' }))
    const add = await run('pnpm', ['add', 'tool-result-pruner', '@deepseek-ai/cordis', '@deepseek-ai/dsh-token-meter'], { cwd: user.project, env: user.env })
    assert.equal(add.status, 0, add.stdout + add.stderr)
    assert.deepEqual(platformPackagesUnder(user.project), [`tool-result-pruner-${ownPlatform}`])
    assert.ok(readFileSync(join(user.project, 'pnpm-lock.yaml'), 'utf8').includes(`tool-result-pruner-${ownPlatform}@${release.version}`))
    await usePlugin(user)
  })

  test('without its platform package (npm install --omit=optional), loading fails with one message naming the package and the platforms', async () => {
    const user = release.user('omit')
    writeFileSync(join(user.project, 'package.json'), JSON.stringify({ name: 'a-user', private: true, type: 'module' }))
    const install = await run(npm, ['install', '--omit=optional', 'tool-result-pruner'], { cwd: user.project, env: user.env })
    assert.equal(install.status, 0, install.stderr)
    assert.deepEqual(platformPackagesUnder(user.project), [])
    const load = await run(process.execPath, ['-e', "import('tool-result-pruner').catch((e) => { console.error(e.message); process.exit(3) })"], { cwd: user.project, env: user.env })
    assert.equal(load.status, 3, load.stderr)
    const lines = load.stderr.trim().split('\n')
    assert.equal(lines.length, 1, load.stderr)
    assert.match(lines[0], new RegExp(`its package tool-result-pruner-${ownPlatform} is missing`))
    assert.ok(lines[0].includes(`npm install tool-result-pruner-${ownPlatform}`), lines[0])
    assert.ok(lines[0].includes(SUPPORTED.join(', ')), lines[0])
    // A platform with no binary at all: the same one line, naming the platforms there are.
    const pretend = `data:text/javascript,Object.defineProperty(process, 'arch', { value: 'riscv64' })`
    const other = await run(process.execPath, ['--import', pretend, '-e', "import('tool-result-pruner').catch((e) => { console.error(e.message); process.exit(3) })"], { cwd: user.project, env: user.env })
    assert.equal(other.status, 3, other.stderr)
    assert.match(other.stderr.trim(), new RegExp(`^tool-result-pruner: no native binary for linux-riscv64-(gnu|musl); binaries exist for ${SUPPORTED.join(', ')}$`))
  })

  // The profile is dsh's headless one: a name without a shipped template gets
  // dsh-base alone, no app, and a session of it never starts unattended.
  test('dsh plugin --profile headless add tool-result-pruner from the registry: a dsh session prunes with this package; remove brings dsh\'s own back', async () => {
    const installed = installDsh()
    const user = release.user('dsh')
    const dshHome = join(user.home, '.dsh')
    const say = (args, extra = {}) => dsh({ ...installed }, dshHome, args, user.project, { env: { ...user.env, PATH: installed.path, DSH_HOME: dshHome }, ...extra })
    const model = ({ body }) => {
      if (!Array.isArray(body.tools) || body.tools.length === 0) return { content: 'Reading a build log' }
      if (toolMessages(body).length === 0) return { toolCall: { name: 'bash', arguments: { command: 'cat build.log', description: 'Show the build log' } } }
      return { content: 'The build failed.' }
    }
    writeFileSync(join(user.project, 'build.log'), readFileSync(join(here, 'fixtures', 'logdx-dev', 'pnpm-jest-config-v2-001', 'raw.log'), 'utf8').slice(0, 60_000))
    const mock = await startMockDeepSeek(model)
    try {
      writeHomePatch(dshHome, { baseURL: mock.url, contextWindow: 16000 })
      const add = await say(['plugin', '--profile', 'headless', 'add', 'tool-result-pruner'])
      assert.equal(add.status, 0, add.stdout + add.stderr)
      const profile = join(dshHome, 'profiles', 'headless')
      assert.deepEqual(platformPackagesUnder(profile), [`tool-result-pruner-${ownPlatform}`])
      const modules = join(user.home, 'modules.txt')
      writeFileSync(modules, '')
      const session = await say(['--profile', 'headless', 'Read build.log and tell me why the build failed'], {
        nodeArgs: ['--import', join(here, 'support', 'trace-modules.mjs')],
        env: { ...user.env, PATH: installed.path, DSH_HOME: dshHome, TRACE_MODULES: modules },
      })
      assert.equal(session.status, 0, session.stderr)
      const loaded = readFileSync(modules, 'utf8').split('\n')
      assert.ok(loaded.some((u) => u.includes('/profiles/headless/node_modules/tool-result-pruner/lib/index.js')), 'this package\'s pruner loaded')
      assert.ok(loaded.some((u) => u.includes(`tool-result-pruner-${ownPlatform}`) || u.includes('/tool-result-pruner/native.js')), 'with its addon')
      assert.ok(!loaded.some((u) => u.includes('/dsh-compaction-tool-result-pruner/lib/index.js')), 'dsh\'s own pruner did not load')
      const conversation = mock.requests.filter(isConversation)
      const result = toolMessages(conversation.at(-1).body)[0].content
      assert.ok(result.includes(PRUNE_MARKER), 'the log reached the model pruned')
      assert.ok(Array.from(result).length <= 8192)
    } finally {
      await mock.close()
    }
    const remove = await say(['plugin', '--profile', 'headless', 'remove', 'tool-result-pruner'])
    assert.equal(remove.status, 0, remove.stdout + remove.stderr)
    const dump = await say(['--profile', 'headless', '--dump-config'])
    assert.equal(dump.status, 0, dump.stderr)
    assert.doesNotMatch(dump.stdout, /name: tool-result-pruner\n/)
    assert.match(dump.stdout, /- id: tool-result-pruner\n {2}name: '@deepseek-ai\/dsh-compaction-tool-result-pruner'\n/)
    assert.doesNotMatch(dump.stdout, /dsh-compaction-tool-result-pruner'\n(?: {2}.*\n)* {2}disabled: true/)
    assert.ok(!existsSync(join(dshHome, 'profiles', 'headless', 'node_modules', 'tool-result-pruner')), 'uninstalled')
  })
})

test('the registry leaves nothing behind: stop() ends its process and removes its directory', { skip: !node22 && 'runs on Node 22 (npm run test:release)' }, async () => {
  const registry = await startRegistry()
  assert.ok(existsSync(join(registry.dir, 'storage')))
  process.kill(registry.pid, 0)
  await registry.stop()
  assert.throws(() => process.kill(registry.pid, 0), { code: 'ESRCH' })
  assert.ok(!existsSync(registry.dir))
})
