// Reads a 64-bit Mach-O dylib without Apple's tools, for the darwin builds
// that cannot run here: what it links, its install name, its minimum macOS,
// what it exports, and whether its ad-hoc code signature matches its bytes
// (arm64 macOS refuses to load a binary whose page hashes are stale, as they
// are when a tool edits the file after the linker signed it).
//
//   node scripts/platforms/macho.js FILE   → prints the summary as JSON
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const MH_MAGIC_64 = 0xfeedfacf
const CPU = { 0x01000007: 'x86_64', 0x0100000c: 'arm64' }
const FILETYPE = { 6: 'dylib', 8: 'bundle' }
const LC = {
  SYMTAB: 0x2,
  LOAD_DYLIB: 0xc,
  ID_DYLIB: 0xd,
  LOAD_WEAK_DYLIB: 0x80000018,
  REEXPORT_DYLIB: 0x8000001f,
  CODE_SIGNATURE: 0x1d,
  DYLD_INFO_ONLY: 0x80000022,
  DYLD_EXPORTS_TRIE: 0x80000033,
  BUILD_VERSION: 0x32,
  VERSION_MIN_MACOSX: 0x24,
}
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0
const CSMAGIC_CODEDIRECTORY = 0xfade0c02
const CS_ADHOC = 0x2
const CS_LINKER_SIGNED = 0x20000
const HASH = { 1: ['sha1', 20], 2: ['sha256', 32] }

const cstr = (buf, at, end = buf.length) => {
  const stop = buf.indexOf(0, at)
  return buf.toString('utf8', at, stop < 0 || stop > end ? end : stop)
}
const version = (v) => `${v >>> 16}.${(v >> 8) & 0xff}${v & 0xff ? `.${v & 0xff}` : ''}`

function uleb(buf, at) {
  let value = 0
  let shift = 0
  for (;;) {
    const byte = buf[at++]
    value += (byte & 0x7f) * 2 ** shift
    shift += 7
    if (byte < 0x80) return [value, at]
  }
}

/** Names in an export trie (dyld's format: terminal info, then edges). */
function exportTrie(buf, start, size) {
  const names = []
  const walk = (offset, prefix, depth) => {
    if (depth > 512 || offset >= size) throw new Error('export trie is malformed')
    let at = start + offset
    const [terminal, next] = uleb(buf, at)
    at = next
    if (terminal > 0) names.push(prefix)
    at += terminal
    const children = buf[at++]
    for (let i = 0; i < children; i++) {
      const label = cstr(buf, at)
      at += Buffer.byteLength(label) + 1
      const [child, after] = uleb(buf, at)
      at = after
      walk(child, prefix + label, depth + 1)
    }
  }
  if (size > 0) walk(0, '', 0)
  return names
}

/** Checks the embedded signature's code-page hashes against the file. */
function signature(buf, dataoff, datasize) {
  const be = (at) => buf.readUInt32BE(at)
  if (be(dataoff) !== CSMAGIC_EMBEDDED_SIGNATURE) return { valid: false, why: 'no embedded signature superblob' }
  const count = be(dataoff + 8)
  for (let i = 0; i < count; i++) {
    const blob = dataoff + be(dataoff + 12 + i * 8 + 4)
    if (be(blob) !== CSMAGIC_CODEDIRECTORY) continue
    const flags = be(blob + 12)
    const hashOffset = be(blob + 16)
    const nCodeSlots = be(blob + 28)
    const codeLimit = be(blob + 32)
    const hashSize = buf[blob + 36]
    const hashType = buf[blob + 37]
    const pageSize = 2 ** buf[blob + 39]
    const [algorithm, size] = HASH[hashType] ?? []
    if (!algorithm || size !== hashSize) return { valid: false, why: `unknown hash type ${hashType}` }
    if (codeLimit !== dataoff) return { valid: false, why: `signature covers ${codeLimit} bytes, code ends at ${dataoff}` }
    let stale = 0
    for (let slot = 0; slot < nCodeSlots; slot++) {
      const from = slot * pageSize
      const page = buf.subarray(from, Math.min(from + pageSize, codeLimit))
      const want = buf.subarray(blob + hashOffset + slot * hashSize, blob + hashOffset + (slot + 1) * hashSize)
      if (!createHash(algorithm).update(page).digest().equals(want)) stale++
    }
    const kind = [flags & CS_ADHOC ? 'ad-hoc' : 'signed', flags & CS_LINKER_SIGNED ? 'linker-signed' : ''].filter(Boolean).join(', ')
    if (Math.ceil(codeLimit / pageSize) !== nCodeSlots) return { valid: false, kind, why: `${nCodeSlots} page hashes for ${codeLimit} bytes` }
    return stale ? { valid: false, kind, why: `${stale} of ${nCodeSlots} page hashes do not match` } : { valid: true, kind, pages: nCodeSlots, algorithm }
  }
  return { valid: false, why: 'no code directory' }
}

/** The facts about one Mach-O file that scripts/test-platforms.js checks. */
export function inspectMachO(file) {
  const buf = readFileSync(file)
  if (buf.readUInt32LE(0) !== MH_MAGIC_64) throw new Error(`${file} is not a 64-bit Mach-O file`)
  const out = {
    cpu: CPU[buf.readUInt32LE(4)] ?? `0x${buf.readUInt32LE(4).toString(16)}`,
    filetype: FILETYPE[buf.readUInt32LE(12)] ?? buf.readUInt32LE(12),
    installName: null,
    dylibs: [],
    minos: null,
    sdk: null,
    exports: [],
    localSymbols: 0,
    signature: { valid: false, why: 'no LC_CODE_SIGNATURE' },
  }
  const ncmds = buf.readUInt32LE(16)
  let at = 32
  for (let i = 0; i < ncmds; i++) {
    const cmd = buf.readUInt32LE(at)
    const size = buf.readUInt32LE(at + 4)
    if (cmd === LC.ID_DYLIB) out.installName = cstr(buf, at + buf.readUInt32LE(at + 8), at + size)
    if (cmd === LC.LOAD_DYLIB || cmd === LC.LOAD_WEAK_DYLIB || cmd === LC.REEXPORT_DYLIB) out.dylibs.push(cstr(buf, at + buf.readUInt32LE(at + 8), at + size))
    if (cmd === LC.BUILD_VERSION) [out.minos, out.sdk] = [version(buf.readUInt32LE(at + 12)), version(buf.readUInt32LE(at + 16))]
    if (cmd === LC.VERSION_MIN_MACOSX) [out.minos, out.sdk] = [version(buf.readUInt32LE(at + 8)), version(buf.readUInt32LE(at + 12))]
    if (cmd === LC.DYLD_EXPORTS_TRIE) out.exports = exportTrie(buf, buf.readUInt32LE(at + 8), buf.readUInt32LE(at + 12))
    if (cmd === LC.DYLD_INFO_ONLY) out.exports = exportTrie(buf, buf.readUInt32LE(at + 40), buf.readUInt32LE(at + 44))
    if (cmd === LC.SYMTAB) {
      // nlist_64: n_strx u32, n_type u8, n_sect u8, n_desc u16, n_value u64
      const [symoff, nsyms] = [buf.readUInt32LE(at + 8), buf.readUInt32LE(at + 12)]
      for (let s = 0; s < nsyms; s++) {
        const type = buf[symoff + s * 16 + 4]
        if ((type & 0xe0) === 0 && (type & 0x01) === 0 && (type & 0x0e) === 0x0e) out.localSymbols++
      }
    }
    if (cmd === LC.CODE_SIGNATURE) out.signature = signature(buf, buf.readUInt32LE(at + 8), buf.readUInt32LE(at + 12))
    at += size
  }
  return out
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const info = inspectMachO(process.argv[2])
  process.stdout.write(JSON.stringify({ ...info, exports: info.exports.length > 20 ? `${info.exports.length} names` : info.exports }, null, 2) + '\n')
}
