#!/usr/bin/env node
// The one publish path, run by the release workflow on a tag and by the
// release rehearsal (`npm run test:release`) against a throwaway registry:
//
//   node scripts/publish.js ARTIFACTS [--cwd DIR] [--release]
//
// ARTIFACTS holds `<platform>/tool-result-pruner.<platform>.node` (the
// `bindings` artifact of `npm run test:platforms`). In DIR (a checkout,
// default the current directory, with `npm run build:ts` done), in order:
//
// 1. the versions are checked in step: every npm/<platform>/package.json has
//    the main package's version (package.json is the one place it is set);
// 2. `napi artifacts` puts each addon into its platform package;
// 3. `napi prepublish -t npm --no-gh-release` publishes the platform packages
//    and sets the main package's optionalDependencies to them;
// 4. `npm publish --access public` publishes the main package.
//
// The registry and its token come from npm's own config (the workflow's
// setup-node writes them; the rehearsal points npm_config_userconfig at its
// own). `--release` is the real release: all seven addons must be there,
// and every package is published with provenance. Without it (the
// rehearsal), the addons present are published and the main package names
// only those, through a napi config file that narrows `targets`; nothing
// else differs.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { platformName } from '../platform.js'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'

/** Every platform package's version, and where it differs from the main package's. */
export function versionMismatches(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  return pkg.napi.targets
    .map((t) => {
      const file = join(dir, 'npm', platformName(t), 'package.json')
      const version = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : '(missing)'
      return { file: join('npm', platformName(t), 'package.json'), version }
    })
    .filter(({ version }) => version !== pkg.version)
    .map(({ file, version }) => `${file} has version ${version}; package.json has ${pkg.version}`)
}

/**
 * Publishes from `dir` the addons in `artifacts`; returns the names and
 * versions published, main package last.
 */
export function publish({ artifacts, dir = process.cwd(), release = false, log = (l) => process.stderr.write(`${l}\n`) }) {
  dir = resolve(dir)
  artifacts = resolve(artifacts)
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const mismatches = versionMismatches(dir)
  if (mismatches.length) throw new Error(`versions out of step:\n  ${mismatches.join('\n  ')}`)
  const file = (t) => join(artifacts, platformName(t), `${pkg.napi.binaryName}.${platformName(t)}.node`)
  const present = pkg.napi.targets.filter((t) => existsSync(file(t)))
  const missing = pkg.napi.targets.filter((t) => !present.includes(t))
  if (present.length === 0) throw new Error(`no addon under ${artifacts} (expected <platform>/${pkg.napi.binaryName}.<platform>.node)`)
  if (release && missing.length) throw new Error(`a release publishes all seven platforms; missing: ${missing.map(file).join(', ')}`)
  if (!existsSync(join(dir, 'lib', 'index.js'))) throw new Error(`${dir} has no lib/index.js: run \`npm run build:ts\` first`)

  const scratch = mkdtempSync(join(tmpdir(), 'trp-publish-'))
  try {
    const narrow = []
    if (missing.length) {
      const config = join(scratch, 'napi.json')
      writeFileSync(config, JSON.stringify({ ...pkg.napi, targets: present }))
      narrow.push('--config-path', config)
      log(`publishing ${present.length} of ${pkg.napi.targets.length} platforms (not built here: ${missing.map(platformName).join(', ')})`)
    }
    const env = { ...process.env, ...(release ? { npm_config_provenance: 'true' } : {}) }
    const run = (cmd, args) => {
      log(`$ ${[cmd, ...args].join(' ')}`)
      try {
        execFileSync(cmd, args, { cwd: dir, env, stdio: 'pipe', encoding: 'utf8' })
      } catch (e) {
        throw new Error(`${[cmd, ...args].join(' ')} failed (${e.status}):\n${e.stdout}${e.stderr}`)
      }
    }
    run(npx, ['napi', 'artifacts', '--output-dir', artifacts, '--npm-dir', 'npm', ...narrow])
    run(npx, ['napi', 'prepublish', '-t', 'npm', '--no-gh-release', ...narrow])
    run(npm, ['publish', '--access', 'public', ...(release ? ['--provenance'] : [])])
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
  return [...present.map((t) => `${pkg.name}-${platformName(t)}@${pkg.version}`), `${pkg.name}@${pkg.version}`]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { cwd: { type: 'string' }, release: { type: 'boolean' } } })
  if (positionals.length !== 1) {
    process.stderr.write('usage: node scripts/publish.js ARTIFACTS [--cwd DIR] [--release]\n')
    process.exit(2)
  }
  try {
    const published = publish({ artifacts: positionals[0], dir: values.cwd, release: values.release })
    process.stdout.write(`published ${published.join(', ')}\n`)
  } catch (e) {
    process.stderr.write(`publish: ${e.message}\n`)
    process.exit(1)
  }
}
