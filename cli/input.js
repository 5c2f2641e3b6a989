// Reading one input (a file, or stdin for `-`) within the one cap every input
// has: no more bytes than can ever become one JS string. A regular file over
// it is refused before it is read; a stream (stdin, a FIFO, /dev/zero) is
// read up to it and no further.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { MAX_INPUT_BYTES } from '../index.js'
import { CliError } from './errors.js'

/** How an input is named in messages. */
export const nameOf = (file) => (file === '-' ? 'stdin' : file)

const CHUNK = 1 << 20

/**
 * The bytes of `file` (stdin for `-`).
 * @throws CliError naming the input when it cannot be read or is over the cap.
 */
export function readInput(file) {
  return readIdentified(file).bytes
}

/**
 * The bytes of `file` (stdin for `-`) and the identity of the file they
 * were read from: device and inode, as `fstat` gave them for the open
 * descriptor (fd 0 for stdin), so a later write can tell whether it would
 * replace its own input however either was named.
 * @returns {{ bytes: Buffer, dev: bigint, ino: bigint }}
 * @throws CliError naming the input when it cannot be read or is over the cap.
 */
export function readIdentified(file) {
  const name = nameOf(file)
  let fd
  try {
    fd = file === '-' ? 0 : openSync(file, 'r')
    const stat = fstatSync(fd, { bigint: true })
    if (stat.isDirectory()) throw new CliError(`${name}: cannot read: EISDIR`)
    if (stat.isFile() && stat.size > BigInt(MAX_INPUT_BYTES)) throw tooLarge(name)
    const chunks = []
    let total = 0
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK)
      const n = readChunk(fd, chunk)
      if (n === 0) break
      total += n
      if (total > MAX_INPUT_BYTES) throw tooLarge(name)
      chunks.push(n === CHUNK ? chunk : chunk.subarray(0, n))
    }
    return { bytes: Buffer.concat(chunks, total), dev: stat.dev, ino: stat.ino }
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError(`${name}: cannot read: ${error.code ?? error.message}`)
  } finally {
    if (fd !== undefined && fd !== 0) closeSync(fd)
  }
}

/** One `readSync`, waiting out a non-blocking stdin that has nothing yet. */
function readChunk(fd, buffer) {
  for (;;) {
    try {
      return readSync(fd, buffer, 0, buffer.length, null)
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
    }
  }
}

const tooLarge = (name) => new CliError(`${name}: over ${MAX_INPUT_BYTES} bytes, more than one JS string can hold`)

/**
 * `bytes` decoded as UTF-8.
 * @throws CliError naming the input and the first line that is not valid UTF-8.
 */
export function decodeUtf8(bytes, name) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    let start = 0
    for (let line = 1; ; line++) {
      const end = bytes.indexOf(0x0a, start)
      const stop = end === -1 ? bytes.length : end
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start, stop))
      } catch {
        throw new CliError(`${name}:${line}: invalid UTF-8`)
      }
      if (end === -1) throw new CliError(`${name}: invalid UTF-8`)
      start = stop + 1
    }
  }
}

/**
 * A tool output's `bytes` as text, losing nothing a JS string can hold:
 * UTF-8, where a lone surrogate written as its three bytes (`ED A0..BF
 * 80..BF`, as Python's `surrogatepass` and WTF-8 write it; tool output
 * holds them) reads as itself; any other byte that is not UTF-8 reads as
 * U+FFFD, as a terminal shows it. One pass over the bytes.
 */
export function decodeOutput(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    const decoder = new TextDecoder('utf-8')
    const parts = []
    let start = 0
    for (let at = bytes.indexOf(0xed); at !== -1; at = bytes.indexOf(0xed, at + 1)) {
      const [second, third] = [bytes[at + 1], bytes[at + 2]]
      if (second >= 0xa0 && second <= 0xbf && third >= 0x80 && third <= 0xbf) {
        parts.push(decoder.decode(bytes.subarray(start, at)), String.fromCharCode(0xd000 | ((second & 0x3f) << 6) | (third & 0x3f)))
        start = at + 3
        at += 2
      }
    }
    parts.push(decoder.decode(bytes.subarray(start)))
    return parts.join('')
  }
}

/**
 * `text` as bytes the way {@link decodeOutput} reads them back: UTF-8, a
 * lone surrogate as its three bytes (not U+FFFD, as a string written to a
 * stream would have it).
 */
export function encodeOutput(text) {
  if (text.isWellFormed()) return Buffer.from(text, 'utf8')
  const parts = []
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i)
    if (u < 0xd800 || u > 0xdfff) continue
    const paired = u <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    if (paired) {
      i++
      continue
    }
    parts.push(Buffer.from(text.slice(start, i), 'utf8'), Buffer.from([0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)]))
    start = i + 1
  }
  parts.push(Buffer.from(text.slice(start), 'utf8'))
  return Buffer.concat(parts)
}
