// The release as the workflow makes it, into a throwaway registry: the
// checkout's publishable files copied to a staging directory (publishing
// rewrites package.json and npm/, which the checkout must not see), the
// addons this machine built, and scripts/publish.js, the workflow's own
// publish path, with npm pointed at the registry. Then a user's environment:
// an empty HOME whose ~/.npmrc names the registry, as a user points npm (and
// pnpm, and dsh's pnpm) at a mirror, and nothing of this process's npm config.
import { execFileSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { platformName } from '../../platform.js'
import { publish } from '../../scripts/publish.js'
import { startRegistry } from '../../scripts/registry.js'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

/** This process's environment without npm's own settings (`npm run` exports them as npm_config_*). */
export function cleanEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)))
  return { ...env, ...extra }
}

/**
 * The addons to publish, in the layout of the workflow's `bindings`
 * artifact: all of `npm run test:platforms`'s when it has run, else the one
 * `npm run build` made for this machine.
 */
function collectArtifacts(out) {
  const platforms = join(root, '.cache', 'platforms', 'out')
  const built = pkg.napi.targets.map(platformName).flatMap((p) => {
    const file = `${pkg.napi.binaryName}.${p}.node`
    for (const from of [join(platforms, p, file), join(root, file)]) if (existsSync(from)) return [{ p, file, from }]
    return []
  })
  // test:platforms builds all or reports its failures; a partial set of its builds next to this machine's is fine.
  for (const { p, file, from } of built) {
    mkdirSync(join(out, p), { recursive: true })
    copyFileSync(from, join(out, p, file))
  }
  return built.map(({ p }) => p)
}

/** The checkout's files a publish reads: what `npm pack` takes, package.json, the platform packages as committed. */
function stage(dir) {
  const listing = JSON.parse(execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', env: cleanEnv() }))
  for (const { path } of listing[0].files) cpSync(join(root, path), join(dir, path), { recursive: true })
  // The platform packages' manifests and READMEs only: an addon left in npm/ by hand is not the release's.
  for (const p of pkg.napi.targets.map(platformName)) {
    for (const file of ['package.json', 'README.md']) cpSync(join(root, 'npm', p, file), join(dir, 'npm', p, file))
  }
  // napi's CLI, as the workflow's `npm ci` gives it.
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'junction')
}

/**
 * Starts a registry and publishes the release into it. Returns the registry,
 * what was published, the platforms built, and `user()` for a fresh user.
 */
export async function rehearseRelease() {
  const work = mkdtempSync(join(tmpdir(), 'trp-release-'))
  let registry
  try {
    registry = await startRegistry()
    const artifacts = join(work, 'artifacts')
    const platforms = collectArtifacts(artifacts)
    if (platforms.length === 0) throw new Error('no addon built: run `npm run build` (or `npm run test:platforms`) first')
    const staged = join(work, 'stage')
    stage(staged)
    // The publisher's npm config: the registry and its token, a cache of its own.
    const host = new URL(registry.url).host
    const npmrc = join(work, 'publisher.npmrc')
    writeFileSync(npmrc, `registry=${registry.url}\n//${host}/:_authToken=${registry.token}\n`)
    const env = cleanEnv({ npm_config_userconfig: npmrc, npm_config_cache: join(work, 'publisher-cache'), npm_config_update_notifier: 'false' })
    const saved = process.env
    process.env = env
    let published
    try {
      published = publish({ artifacts, dir: staged, log: () => {} })
    } finally {
      process.env = saved
    }
    let users = 0
    return {
      registry,
      published,
      platforms,
      version: pkg.version,
      /** A new user: an empty HOME (npm's cache inside) whose ~/.npmrc names the registry, and an empty project directory. */
      user(name = `user${++users}`) {
        const home = join(work, name, 'home')
        const project = join(work, name, 'project')
        mkdirSync(home, { recursive: true })
        mkdirSync(project, { recursive: true })
        writeFileSync(join(home, '.npmrc'), `registry=${registry.url}\nfund=false\naudit=false\nupdate-notifier=false\n`)
        return {
          home,
          project,
          env: cleanEnv({ HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'), XDG_DATA_HOME: join(home, '.local', 'share') }),
        }
      },
      async stop() {
        rmSync(work, { recursive: true, force: true })
        await registry.stop()
      },
    }
  } catch (e) {
    registry?.stop()
    rmSync(work, { recursive: true, force: true })
    throw e
  }
}

/** The `tool-result-pruner-*` package directories installed anywhere under `dir`'s node_modules (npm's flat tree or pnpm's store). */
export function platformPackagesUnder(dir) {
  const found = new Set()
  const walk = (d, depth) => {
    if (depth > 6 || !existsSync(d)) return
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory() && !e.isSymbolicLink()) continue
      if (e.name.startsWith(`${pkg.name}-`) && existsSync(join(d, e.name, 'package.json'))) found.add(e.name)
      else if (e.isDirectory() && (e.name === 'node_modules' || e.name === '.pnpm' || /^tool-result-pruner/.test(e.name))) walk(join(d, e.name), depth + 1)
    }
  }
  walk(join(dir, 'node_modules'), 0)
  return [...found].sort()
}
