// Runs before napi's loader (`native.js`) and decides which binary this
// process loads; the loader follows. Where this platform has no binary, or
// its platform package is not installed, importing the package fails here
// with one message naming the platform and what to do, instead of napi's
// generic "Cannot find native binding".
//
// Why it decides for the loader: the generated loader picks musl by reading
// /usr/bin/ldd, a fact about the filesystem, while the binary must match the
// C library of the running Node, a fact about this process (a musl Node on
// a glibc system, or a glibc Node under gcompat on Alpine, get the wrong
// binary from it). It also picks a `win32-x64-gnu` binary only for a
// MinGW-built Node, and this package ships its gnu build for every Node on
// Windows. So the choice is made once, here, by `isMusl()` and
// `currentPlatform()`, and handed to the loader through its documented
// override, NAPI_RS_NATIVE_LIBRARY_PATH, for as long as the loader runs:
// it is set before `native.js` is evaluated and put back as it was in the
// microtask after the module graph has been evaluated, so no other addon
// and no child process sees it. `native.js` stays exactly as
// `napi build` generates it.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const { name, napi, version } = require('./package.json')
const OVERRIDE = 'NAPI_RS_NATIVE_LIBRARY_PATH'

/** napi-rs's platform name for a Rust target triple (`x86_64-apple-darwin` → `darwin-x64`). */
export function platformName(triple) {
  const [arch, vendor, os, abi] = triple.split('-')
  const cpu = { x86_64: 'x64', aarch64: 'arm64', i686: 'ia32', armv7: 'arm' }[arch] ?? arch
  if (vendor === 'apple') return `darwin-${cpu}`
  if (os === 'windows') return `win32-${cpu}-${abi}`
  return `${os}-${cpu}-${abi}`
}

/** The platforms a binary is built for, from `napi.targets`. */
export const SUPPORTED = napi.targets.map(platformName)

/**
 * Whether this Node runs on musl: a glibc Node reports the glibc it runs
 * on (`glibcVersionRuntime`), a musl Node reports none. The one musl test of
 * the package: the loader follows it (see above) and so does `scripts/pack.js`.
 */
export function isMusl(report = process.report?.getReport?.()) {
  if (process.platform !== 'linux') return false
  return !report?.header?.glibcVersionRuntime
}

/**
 * This process's platform name, in the same form. On Windows the addon's
 * C runtime does not have to match Node's (Node-API is a C ABI with nothing
 * of the C runtime crossing it), so it is whichever Windows build this
 * package ships for the CPU (`win32-x64-gnu`; docs/platforms.md says why).
 */
export function currentPlatform() {
  const { platform, arch } = process
  if (platform === 'darwin') return `darwin-${arch}`
  if (platform === 'win32') return SUPPORTED.find((p) => p.startsWith(`win32-${arch}-`)) ?? `win32-${arch}-msvc`
  if (platform === 'linux') return `linux-${arch}-${isMusl() ? 'musl' : 'gnu'}`
  return `${platform}-${arch}`
}

/**
 * The binary this process should load: the one beside this file (a build
 * in a checkout), else the platform package's, or why there is none.
 */
export function locateBinary(current = currentPlatform()) {
  if (!SUPPORTED.includes(current)) {
    return { error: `${name}: no native binary for ${current}; binaries exist for ${SUPPORTED.join(', ')}` }
  }
  const local = fileURLToPath(new URL(`./${napi.binaryName}.${current}.node`, import.meta.url))
  if (existsSync(local)) return { path: local }
  const pkg = `${name}-${current}`
  try {
    return { path: require.resolve(pkg) }
  } catch {
    return {
      error:
        `${name}: the native binary for ${current} is not installed: its package ${pkg} is missing ` +
        '(an optional dependency: installs with --omit=optional, or a lockfile made on another platform, skip it); ' +
        `install it with \`npm install ${pkg}@${version}\` or reinstall without --omit=optional; binaries exist for ${SUPPORTED.join(', ')}`,
    }
  }
}

// A path the user set wins, as napi-rs documents; otherwise this module decides.
if (!process.env[OVERRIDE]) {
  const found = locateBinary()
  if (found.error) throw new Error(found.error)
  process.env[OVERRIDE] = found.path
  queueMicrotask(() => {
    if (process.env[OVERRIDE] === found.path) delete process.env[OVERRIDE]
  })
}
