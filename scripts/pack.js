#!/usr/bin/env node
// Packs what the registry would hold for this machine: the main package,
// with the platform packages as optional dependencies (as `napi prepublish`
// adds them when publishing) and no `.node` of its own, and the platform
// package of this machine holding the addon built by `npm run build`.
//
//   node scripts/pack.js OUT_DIR   → prints { main, platform, platformName } as JSON
import { execFileSync } from 'node:child_process'
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { currentPlatform, platformName } from '../platform.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** `npm pack` of `dir` into `out`; the tarball's path. */
function pack(dir, out) {
  const [{ filename }] = JSON.parse(execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', out], { cwd: dir, encoding: 'utf8' }))
  return join(out, filename)
}

export function packForRegistry(out) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const stage = mkdtempSync(join(tmpdir(), 'trp-pack-'))
  try {
    // The main package: its published files, package.json with the optional dependencies.
    const listing = JSON.parse(execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }))
    const main = join(stage, 'main')
    for (const { path } of listing[0].files) cpSync(join(root, path), join(main, path), { recursive: true })
    pkg.optionalDependencies = Object.fromEntries(pkg.napi.targets.map((t) => [`${pkg.name}-${platformName(t)}`, pkg.version]))
    writeFileSync(join(main, 'package.json'), JSON.stringify(pkg, null, 2) + '\n')
    // This machine's platform package, with the addon.
    const name = currentPlatform()
    const platform = join(stage, name)
    cpSync(join(root, 'npm', name), platform, { recursive: true })
    copyFileSync(join(root, `${pkg.napi.binaryName}.${name}.node`), join(platform, `${pkg.napi.binaryName}.${name}.node`))
    return { main: pack(main, out), platform: pack(platform, out), platformName: name, platformPackage: `${pkg.name}-${name}` }
  } finally {
    rmSync(stage, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(JSON.stringify(packForRegistry(resolve(process.argv[2] ?? '.'))) + '\n')
}
