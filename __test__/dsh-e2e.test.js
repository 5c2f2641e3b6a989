// The package inside the real dsh CLI (@deepseek-ai/dsh, headless profile,
// Node 22), as a user installs it: `dsh plugin --profile headless add
// tool-result-pruner` from a local registry the release was published to
// (the rehearsal's, __test__/support/release.js; dsh's pnpm pointed at it by
// the user's ~/.npmrc), against a local stand-in for the DeepSeek API that scripts the model. A
// `bash` call prints a large failing log, dsh-compaction-basic prunes it
// under context pressure, and in lines mode the model pages through a
// dropped run with tool_result_retrieve.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PRUNE_MARKER, zstdDecompress } from '../index.js'
import { dsh, installDsh, writeHomePatch } from './support/dsh-cli.js'
import { sha24 } from './support/lines.js'
import { isConversation, startMockDeepSeek, toolMessages } from './support/mock-deepseek.js'
import { cleanEnv, rehearseRelease } from './support/release.js'
import { readSessionLog } from '../cli/session-log.js'
import { Ours, Session, pruner } from './support/dsh.js'

const here = dirname(fileURLToPath(import.meta.url))
// dsh's pnpm reads npm's settings from the environment first: those `npm run` exports
// (npm_config_userconfig, the cache) would point it past the user's ~/.npmrc.
process.env = cleanEnv()
const node22 = Number(process.versions.node.split('.')[0]) === 22
// dsh runs on Node 22 in both passes; running it once is enough.
const skip = !node22 && "the Node 22 pass runs the real dsh CLI (dsh's runtime)"

/** A context window the prompt fits in and the log does not: pressure, then relief after pruning. */
const CONTEXT_WINDOW = 16000
const THRESHOLD = 8192
const RETRIEVE_PAGE = /^\[tool_result_retrieve ([0-9a-f]{24}): lines (\d+)-(\d+) of (\d+), page (\d+) of (\d+)/
const LINES_PATCH = `- id: tool-result-pruner-native
  config:
    strategy: lines
- insert:
    - id: tool-result-retrieve
      name: tool-result-pruner/retrieve-tool
`
/** A per-tool rule in the profile's patch: head-tail at the top, bash's results in lines mode with their own budget. */
const RULE_KEEP = 2000
const RULES_PATCH = `- id: tool-result-pruner-native
  config:
    tools:
      bash:
        strategy: lines
        keepChars: ${RULE_KEEP}
`

/**
 * The model: list the build log with bash; in lines mode, page through the
 * largest dropped run it sees; then answer.
 */
function model({ body }) {
  if (!Array.isArray(body.tools) || body.tools.length === 0) return { content: 'Reading a build log' }
  const tools = toolMessages(body)
  if (tools.length === 0) return { toolCall: { name: 'bash', arguments: { command: 'cat build.log', description: 'Show the build log' } } }
  const last = tools.at(-1).content
  const page = RETRIEVE_PAGE.exec(last)
  if (page && Number(page[5]) < Number(page[6])) return { toolCall: { name: 'tool_result_retrieve', arguments: { hash: page[1], page: Number(page[5]) + 1 } } }
  if (!page && body.tools.some((t) => t.function.name === 'tool_result_retrieve')) {
    const largest = [...last.matchAll(/<<ccr:([0-9a-f]{24}) (\d+)_lines_offloaded>>/g)].sort((a, b) => b[2] - a[2])[0]
    if (largest) return { toolCall: { name: 'tool_result_retrieve', arguments: { hash: largest[1] } } }
  }
  return { content: 'The build failed in the pnpm config tests.' }
}

let installed
let work
let project
let release
let user

/** The profile's own patch layer, where the README tells a user to choose lines mode. */
const profilePatch = (home) => join(home, 'profiles', 'headless', 'cordis.patch.yml')

/**
 * One dsh run: with this package's bundle or without, in a fresh DSH_HOME;
 * `profile` is written to the profile's patch layer after the add.
 */
async function scenario(name, { bundle, profile }) {
  const home = join(work, `home-${name}`)
  const mock = await startMockDeepSeek(model)
  try {
    writeHomePatch(home, { baseURL: mock.url, contextWindow: CONTEXT_WINDOW })
    if (bundle) {
      // By name, from the registry the user's ~/.npmrc names.
      const add = await dsh(installed, home, ['plugin', '--profile', 'headless', 'add', 'tool-result-pruner'], project, { env: { ...user.env, PATH: installed.path } })
      assert.equal(add.status, 0, add.stderr)
      assert.doesNotMatch(add.stdout + add.stderr, /declares no dsh\.bundle/)
      if (profile !== undefined) writeFileSync(profilePatch(home), profile)
    }
    const modules = join(work, `modules-${name}.txt`)
    writeFileSync(modules, '')
    const run = await dsh(installed, home, ['--profile', 'headless', 'Read build.log and tell me why the build failed'], project, {
      nodeArgs: ['--import', join(here, 'support', 'trace-modules.mjs')],
      env: { TRACE_MODULES: modules },
    })
    assert.equal(run.status, 0, `${name}: ${run.stderr}`)
    const dump = await dsh(installed, home, ['--profile', 'headless', '--dump-config'], project)
    return { home, run, requests: mock.requests, modules: readFileSync(modules, 'utf8').split('\n'), config: dump.stdout, log: sessionLog(home) }
  } finally {
    await mock.close()
  }
}

/** The .jsonl.zstd session log dsh wrote under `home`, and its events. */
function sessionLog(home) {
  const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]))
  const file = walk(join(home, 'sessions')).find((f) => f.endsWith('.jsonl.zstd'))
  const lines = zstdDecompress(readFileSync(file)).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
  return { file, events: lines.slice(1) }
}

/** A request body as text, with what differs between two runs by nature (dsh's spill paths) blanked. */
const comparable = (request) => JSON.stringify(request.body).replace(/\/tmp\/dsh-spill-[^/]+\/session-[^/]+\/[0-9a-f]+-bash\.txt/g, 'SPILL')

const loaded = (modules, path) => modules.some((url) => url.includes(path))

describe('the real dsh CLI', { skip }, () => {
  const runs = {}
  before(async () => {
    installed = installDsh()
    work = mkdtempSync(join(tmpdir(), 'trp-dsh-e2e-'))
    release = await rehearseRelease()
    user = release.user()
    project = join(work, 'project')
    mkdirSync(project)
    // A real CI log, long enough to press on the context window.
    const log = readFileSync(join(here, 'fixtures', 'logdx-dev', 'pnpm-jest-config-v2-001', 'raw.log'), 'utf8').slice(0, 60_000)
    writeFileSync(join(project, 'build.log'), log)
    runs.upstream = await scenario('upstream', { bundle: false })
    runs.headTail = await scenario('head-tail', { bundle: true })
    runs.lines = await scenario('lines', { bundle: true, profile: LINES_PATCH })
    runs.rules = await scenario('rules', { bundle: true, profile: RULES_PATCH })
  })
  after(async () => {
    if (work) rmSync(work, { recursive: true, force: true })
    await release?.stop()
  })

  test('`dsh plugin add` of the tarball alone swaps the pruner: its row replaces dsh\'s, and only its module loads', () => {
    assert.match(runs.headTail.config, /- id: tool-result-pruner\n {2}name: '@deepseek-ai\/dsh-compaction-tool-result-pruner'\n(?: {2}.*\n)* {2}disabled: true/)
    assert.match(runs.headTail.config, /- id: tool-result-pruner-native\n {2}name: tool-result-pruner\n/)
    for (const name of ['headTail', 'lines']) {
      assert.ok(loaded(runs[name].modules, '/profiles/headless/node_modules/tool-result-pruner/lib/index.js'), `${name}: this package loaded`)
      assert.ok(!loaded(runs[name].modules, '/dsh-compaction-tool-result-pruner/lib/index.js'), `${name}: upstream's not loaded`)
    }
    assert.ok(loaded(runs.upstream.modules, '/dsh-compaction-tool-result-pruner/lib/index.js'), 'without the bundle, upstream loads')
    assert.ok(!loaded(runs.upstream.modules, '/node_modules/tool-result-pruner/'), 'and this package does not')
  })

  test('head-tail: compaction-basic prunes through it under pressure, and every request equals the run with upstream\'s pruner', () => {
    const ours = runs.headTail.requests
    const theirs = runs.upstream.requests
    assert.equal(ours.length, theirs.length)
    ours.forEach((request, i) => assert.equal(comparable(request), comparable(theirs[i]), `request ${i}`))
    // The log reached the model pruned: head, upstream's marker, tail, within the budget; no summary was asked for.
    const conversation = ours.filter(isConversation)
    const result = toolMessages(conversation.at(-1).body)[0].content
    assert.ok(result.includes(PRUNE_MARKER))
    assert.ok(Array.from(result).length <= THRESHOLD)
    assert.ok(ours.every((r) => r.headers['x-deepseek-harness-compact'] === undefined), 'no summarization request')
    assert.ok(runs.headTail.log.events.some((e) => e.type === 'compaction/prune'))
  })

  test('lines: the model pages through a dropped run and gets it exactly; no prune shadows a retrieval result', () => {
    const conversation = runs.lines.requests.filter(isConversation)
    const pruned = toolMessages(conversation[1].body)[0].content
    assert.match(pruned, /<<ccr:[0-9a-f]{24} \d+_lines_offloaded>>/)
    assert.ok(Array.from(pruned).length <= THRESHOLD)
    // The pages, in order, as the model received them.
    const pages = toolMessages(conversation.at(-1).body).slice(1).map((m) => m.content)
    assert.ok(pages.length >= 2, `${pages.length} pages`)
    const [hash] = RETRIEVE_PAGE.exec(pages[0]).slice(1)
    let joined = ''
    pages.forEach((page, i) => {
      const [, h, , , , number, count] = RETRIEVE_PAGE.exec(page)
      assert.equal(h, hash)
      assert.equal(Number(number), i + 1)
      assert.equal(Number(count), pages.length)
      assert.ok(Array.from(page).length <= THRESHOLD, `page ${i + 1} within thresholdChars`)
      joined += page.slice(page.indexOf('\n') + 1)
    })
    // The marker's hash names exactly the text the pages add up to.
    assert.equal(sha24(joined), hash)
    runs.lines.joined = { hash, text: joined }
    // No compaction/prune event shadows a retrieval result.
    const { events } = runs.lines.log
    const retrievals = new Set(events.filter((e) => e.type === 'tool/call' && e.data.name === 'tool_result_retrieve').map((e) => e.data.callId))
    const retrievalSeqs = new Set(events.filter((e) => e.type === 'tool/result' && retrievals.has(e.data.message.source.callId)).map((e) => e.seq))
    assert.ok(retrievalSeqs.size >= 2)
    for (const e of events.filter((e) => e.type === 'compaction/prune')) {
      for (const seq of e.data.shadowedSeqs) assert.ok(!retrievalSeqs.has(seq), `compaction/prune shadows retrieval result ${seq}`)
    }
  })

  test('a `tools` rule in the profile patch: bash\'s result reaches the model in lines mode within the rule\'s own keepChars', () => {
    assert.match(runs.rules.config, /tools:\n\s+bash:\n\s+strategy: lines\n\s+keepChars: 2000/)
    const conversation = runs.rules.requests.filter(isConversation)
    const pruned = toolMessages(conversation.at(-1).body)[0].content
    assert.match(pruned, /<<ccr:[0-9a-f]{24} \d+_lines_offloaded>>/)
    assert.ok(!pruned.includes(PRUNE_MARKER), 'not the top level\'s head/tail')
    assert.ok(Array.from(pruned).length <= RULE_KEEP, `${Array.from(pruned).length} code points`)
    assert.ok(runs.rules.log.events.some((e) => e.type === 'compaction/prune'))
  })

  test('removing it (its rows out of the profile patch, then `dsh plugin remove`) brings dsh\'s own pruner back', async () => {
    const { home } = runs.lines
    writeFileSync(profilePatch(home), '[]\n')
    const remove = await dsh(installed, home, ['plugin', '--profile', 'headless', 'remove', 'tool-result-pruner'], project, { env: { ...user.env, PATH: installed.path } })
    assert.equal(remove.status, 0, remove.stderr)
    const dump = await dsh(installed, home, ['--profile', 'headless', '--dump-config'], project)
    assert.equal(dump.status, 0, dump.stderr)
    assert.doesNotMatch(dump.stdout, /name: tool-result-pruner\n/)
    assert.match(dump.stdout, /- id: tool-result-pruner\n {2}name: '@deepseek-ai\/dsh-compaction-tool-result-pruner'\n(?: {4}.*\n| {2}config:\n)*(?! {2}disabled)/)
    assert.doesNotMatch(dump.stdout, /dsh-compaction-tool-result-pruner'\n(?: {2}.*\n)* {2}disabled: true/)
  })

  test('lines mode reads the task from the session dsh wrote: the request and the call', async () => {
    // dsh's own log of the run with upstream's pruner, up to its first prune:
    // the request, the model's call of `cat build.log` and its whole result.
    const log = readSessionLog(runs.upstream.log.file)
    const firstPrune = log.events.findIndex((e) => e.type === 'compaction/prune')
    assert.ok(firstPrune > 0, 'upstream pruned the log')
    const session = Session.create(log.header.id, log.events.slice(0, firstPrune), log.header)
    const p = await pruner(Ours, { strategy: 'lines' })
    const [entry] = p.pruneSession(session).pruned
    // "Read build.log and tell me why the build failed" (then the model's words and the command's argument).
    assert.deepEqual(entry.taskWords.slice(0, 5), ['read', 'build.log', 'build', 'log', 'fail'])
  })

  test('the CLI\'s session and retrieve work on the .jsonl.zstd log dsh wrote', () => {
    const bin = join(here, '..', 'bin', 'tool-result-pruner.js')
    const { file } = runs.lines.log
    const session = spawnSync(process.execPath, [bin, 'session', file, '--strategy', 'lines'], { encoding: 'utf8' })
    assert.equal(session.status, 0, session.stderr)
    assert.match(session.stdout, /pruned \d+ of \d+ tool results \(lines\)/)
    const { hash, text } = runs.lines.joined ?? {}
    assert.ok(hash, 'the lines test ran first')
    const retrieved = spawnSync(process.execPath, [bin, 'retrieve', hash, '--session', file, '--json'], { encoding: 'utf8' })
    assert.equal(retrieved.status, 0, retrieved.stderr)
    assert.equal(JSON.parse(retrieved.stdout), text)
  })
})
