// Runs before napi's loader (`native.js`): where this platform has no
// binary, or its platform package is not installed, importing the package
// fails here with one message naming the platform and what to do, instead
// of napi's generic "Cannot find native binding".
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const { name, napi } = require('./package.json')

/** napi-rs's platform name for a Rust target triple (`x86_64-apple-darwin` → `darwin-x64`). */
export function platformName(triple) {
  const [arch, vendor, os, abi] = triple.split('-')
  const cpu = { x86_64: 'x64', aarch64: 'arm64', i686: 'ia32', armv7: 'arm' }[arch] ?? arch
  if (vendor === 'apple') return `darwin-${cpu}`
  if (os === 'windows') return `win32-${cpu}-${abi}`
  return `${os}-${cpu}-${abi}`
}

/** This process's platform name, in the same form. */
export function currentPlatform() {
  const { platform, arch } = process
  if (platform === 'darwin') return `darwin-${arch}`
  if (platform === 'win32') return `win32-${arch}-msvc`
  if (platform === 'linux') return `linux-${arch}-${process.report?.getReport?.().header?.glibcVersionRuntime ? 'gnu' : 'musl'}`
  return `${platform}-${arch}`
}

/** The platforms a binary is built for, from `napi.targets`. */
export const SUPPORTED = napi.targets.map(platformName)

const current = currentPlatform()
if (!SUPPORTED.includes(current)) {
  throw new Error(`${name}: no native binary for ${current}; binaries exist for ${SUPPORTED.join(', ')}`)
}
const local = new URL(`./${napi.binaryName}.${current}.node`, import.meta.url)
let installed = existsSync(local)
if (!installed) {
  try {
    require.resolve(`${name}-${current}`)
    installed = true
  } catch {}
}
if (!installed) {
  throw new Error(
    `${name}: the native binary for ${current} is not installed: its package ${name}-${current} is missing ` +
      '(an optional dependency: installs with --omit=optional, or a lockfile made on another platform, skip it); reinstall the package on this machine',
  )
}
