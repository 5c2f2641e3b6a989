// Static checks of a built addon, one function per binary format. Each
// returns { ok, facts, problems }: `facts` go into the report, and every
// entry of `problems` is a defect of the build (the run fails on it).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { inspectMachO } from './macho.js'

const EXPORT = 'napi_register_module_v1'
const out = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28 })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr || r.error?.message}`)
  return r.stdout
}
const vers = (v) => v.split('.').map(Number)
const newer = (a, b) => {
  const [x, y] = [vers(a), vers(b)]
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0)
  return false
}

/** Paths of this checkout or of cargo's registry inside the binary (a build path leaked). */
function buildPaths(file, paths) {
  const bytes = readFileSync(file)
  return paths.filter((p) => p && bytes.includes(Buffer.from(p)))
}

/** An ELF addon for Linux: what it needs, the newest glibc symbol, what it exports, whether stripped. */
export function checkElf(file, { machine, libc, glibcFloor, paths }) {
  const problems = []
  const header = out('readelf', ['-h', '-W', file])
  const actual = /Machine:\s+(.*)/.exec(header)?.[1].trim()
  if (!actual?.includes(machine)) problems.push(`machine is ${actual}, expected ${machine}`)
  const needed = [...out('readelf', ['-d', '-W', file]).matchAll(/\(NEEDED\)\s+Shared library: \[(.*)\]/g)].map((m) => m[1])
  const allowed = libc === 'musl' ? /^libc\.so$/ : /^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|ld-linux-[-\w]+\.so\.\d|libgcc_s\.so\.1)$/
  for (const lib of needed) if (!allowed.test(lib)) problems.push(`needs ${lib}`)
  const dyn = out('readelf', ['--dyn-syms', '-W', file])
  const glibc = [...dyn.matchAll(/@GLIBC_([\d.]+)/g)].map((m) => m[1]).reduce((a, b) => (newer(b, a) ? b : a), '0')
  if (libc === 'gnu' && newer(glibc, glibcFloor)) problems.push(`needs GLIBC_${glibc}, newer than the ${glibcFloor} it is built for`)
  const exported = dyn
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 8 && /^(GLOBAL|WEAK)$/.test(f[4]) && f[6] !== 'UND' && /^(FUNC|OBJECT)$/.test(f[3]))
    .map((f) => f[7].replace(/@.*/, ''))
  if (exported.join() !== EXPORT) problems.push(`exports ${exported.length} symbols (${exported.slice(0, 3).join(', ')}…), not only ${EXPORT}`)
  const stripped = !/\s\.symtab\s/.test(out('readelf', ['-S', '-W', file]))
  if (!stripped) problems.push('has a symbol table (not stripped)')
  for (const p of buildPaths(file, paths)) problems.push(`holds the build path ${p}`)
  const facts = [`ELF ${actual}`, `needs ${needed.join(', ')}`, libc === 'gnu' ? `GLIBC ≤ ${glibc}` : 'musl', `exports ${EXPORT}`, stripped ? 'stripped' : 'symbols kept']
  return { ok: problems.length === 0, facts, problems }
}

/** Windows system DLLs an addon may import (no MinGW runtime DLLs, no libnode.dll). */
const SYSTEM_DLLS = /^(kernel32|ntdll|msvcrt|ucrtbase|api-ms-win-[-\w]+|userenv|ws2_32|advapi32|bcrypt|bcryptprimitives|shell32|ole32|user32|secur32|synchronization)\.dll$/i

/** A PE addon for Windows: what it imports, what it exports, whether stripped. */
export function checkPe(file, { paths }) {
  const problems = []
  const dump = out('x86_64-w64-mingw32-objdump', ['-p', file])
  const format = /file format (\S+)/.exec(dump)?.[1]
  if (format !== 'pei-x86-64') problems.push(`format is ${format}, expected pei-x86-64`)
  const dlls = [...new Set([...dump.matchAll(/DLL Name: (\S+)/g)].map((m) => m[1].toLowerCase()))]
  for (const dll of dlls) if (!SYSTEM_DLLS.test(dll)) problems.push(`imports ${dll}, which Windows does not have`)
  const table = dump.split('[Ordinal/Name Pointer] Table')[1]?.split('\n\n')[0] ?? ''
  const exported = [...table.matchAll(/\]\s+(\S+)/g)].map((m) => m[1])
  if (exported.join() !== EXPORT) problems.push(`exports ${exported.join(', ') || 'nothing'}, not only ${EXPORT}`)
  const table_ = out('x86_64-w64-mingw32-objdump', ['-t', file]).split('SYMBOL TABLE:')[1] ?? ''
  const symbols = table_.split('\n').filter((l) => /^\[\s*\d+\]/.test(l)).length
  if (symbols) problems.push(`has ${symbols} COFF symbols (not stripped)`)
  for (const p of buildPaths(file, paths)) problems.push(`holds the build path ${p}`)
  const facts = [`PE ${format}`, `imports ${dlls.join(', ')}`, `exports ${EXPORT}`, symbols ? 'symbols kept' : 'stripped']
  return { ok: problems.length === 0, facts, problems }
}

/** A Mach-O addon for macOS: what it links, its install name, its signature, what it exports. */
export function checkMachO(file, { cpu, minos, paths }) {
  const problems = []
  const m = inspectMachO(file)
  if (m.cpu !== cpu) problems.push(`cpu is ${m.cpu}, expected ${cpu}`)
  if (m.filetype !== 'dylib' && m.filetype !== 'bundle') problems.push(`file type is ${m.filetype}`)
  for (const lib of m.dylibs) if (!/^\/usr\/lib\/(libSystem\.B|libiconv\.2|libcharset\.1|libresolv\.9)\.dylib$/.test(lib)) problems.push(`links ${lib}, which is not part of macOS`)
  if (m.installName && !/^@rpath\/[^/]+\.node$/.test(m.installName)) problems.push(`install name is ${m.installName}`)
  if (m.minos !== minos) problems.push(`minimum macOS is ${m.minos}, expected ${minos}`)
  if (!m.exports.includes(`_${EXPORT}`)) problems.push(`does not export ${EXPORT}`)
  const rust = m.exports.filter((s) => /^__R|^__ZN/.test(s))
  if (rust.length) problems.push(`exports ${rust.length} Rust symbols (the linker ignored the export list)`)
  if (!m.signature.valid && cpu === 'arm64') problems.push(`code signature: ${m.signature.why} (arm64 macOS would refuse to load it)`)
  if (m.localSymbols) problems.push(`keeps ${m.localSymbols} local symbols (not stripped)`)
  for (const p of buildPaths(file, paths)) problems.push(`holds the build path ${p}`)
  const facts = [
    `Mach-O ${m.cpu} ${m.filetype}`,
    `install name ${m.installName}`,
    `links ${m.dylibs.map((d) => d.replace(/^\/usr\/lib\/|\.dylib$/g, '')).join(', ')}`,
    `macOS ≥ ${m.minos}`,
    `exports ${m.exports.length} (${EXPORT} and the linker's own)`,
    m.signature.valid ? `${m.signature.kind} signature valid (${m.signature.pages} pages)` : `signature: ${m.signature.why}`,
  ]
  return { ok: problems.length === 0, facts, problems }
}
