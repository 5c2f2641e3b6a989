// dsh session logs as `@deepseek-ai/dsh-session-persistence-jsonl` writes
// them: a `{ type: 'session', … }` header line, then one storage record per
// line (an event, or a packed chunk row that dsh-session's codec decodes);
// `.jsonl` raw, or `.jsonl.zstd` as concatenated zstd frames. Read on Node 20
// and 22 alike (zstd through the addon), appended the way the backend
// appends: the original bytes kept, one new batch after them.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { basename, dirname, join, resolve } from 'node:path'
import { decodeStorageRecord } from '@deepseek-ai/dsh-session'
import { zstdCompressFrame, zstdDecompress } from '../index.js'
import { CliError } from './errors.js'
import { progress } from './progress.js'

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd])
/** Logs at least this large get a progress bar (on a terminal). */
const LARGE = 4 * 2 ** 20

/**
 * Reads a session log.
 * @param {string} file - path to a `.jsonl` or `.jsonl.zstd` log.
 * @returns {{ file: string, bytes: Buffer, zstd: boolean, header: object, events: object[] }}
 * @throws CliError naming the file (and line) for anything that is not a readable, well-formed log.
 */
export function readSessionLog(file) {
  let bytes
  try {
    bytes = readFileSync(file)
  } catch (error) {
    throw new CliError(`${file}: cannot read: ${error.code ?? error.message}`)
  }
  const zstd = bytes.subarray(0, 4).equals(ZSTD_MAGIC)
  let plain
  try {
    plain = zstd ? zstdDecompress(bytes) : bytes
  } catch (error) {
    throw new CliError(`${file}: ${error.message}`)
  }
  const text = new TextDecoder('utf-8').decode(plain)
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  if (lines.length === 0) throw new CliError(`${file}: not a dsh session log (it is empty)`)
  const header = parseLine(file, 1, lines[0])
  if (header === null || typeof header !== 'object' || header.type !== 'session' || typeof header.id !== 'string') {
    throw new CliError(`${file}:1: not a dsh session log (the first line is not a { "type": "session", "id": … } header)`)
  }
  const bar = progress(`reading ${basename(file)}`, bytes.length >= LARGE ? lines.length : 0)
  const events = []
  for (let i = 1; i < lines.length; i++) {
    const record = parseLine(file, i + 1, lines[i])
    let decoded
    try {
      decoded = decodeStorageRecord(record)
    } catch (error) {
      throw new CliError(`${file}:${i + 1}: invalid storage record: ${error.message}`)
    }
    for (const event of decoded) {
      if (event === null || typeof event !== 'object' || typeof event.type !== 'string' || event.seq !== events.length) {
        throw new CliError(`${file}:${i + 1}: invalid event line: expected an event with seq ${events.length}`)
      }
      events.push(event)
    }
    if (i % 1024 === 0) bar.update(i)
  }
  bar.done()
  const { type: _, ...meta } = header
  return { file, bytes, zstd, header: meta, events }
}

function parseLine(file, number, line) {
  try {
    return JSON.parse(line)
  } catch (error) {
    throw new CliError(`${file}:${number}: invalid event line: ${error.message}`)
  }
}

/**
 * Writes `log` plus `events` appended as one new batch, in the log's own
 * format, to `out`: through a temporary file in the same directory,
 * synced and renamed into place, so `out` is whole or untouched.
 * @throws CliError when `out` is the input log itself.
 */
export function writeSessionLog(log, events, out) {
  if (sameFile(log.file, out)) {
    throw new CliError(`${out}: refusing to overwrite the input log; write to another file`)
  }
  const batch = Buffer.from(events.map((event) => JSON.stringify(event) + '\n').join(''), 'utf8')
  const appended = events.length === 0 ? Buffer.alloc(0) : log.zstd ? zstdCompressFrame(batch) : batch
  const temp = join(dirname(resolve(out)), `.${basename(out)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  let fd
  try {
    fd = openSync(temp, 'wx')
    writeAll(fd, log.bytes)
    writeAll(fd, appended)
    fsyncSync(fd)
    closeSync(fd)
    fd = undefined
    renameSync(temp, out)
  } catch (error) {
    if (fd !== undefined) closeSync(fd)
    rmSync(temp, { force: true })
    throw new CliError(`${out}: cannot write: ${error.code ?? error.message}`)
  }
}

function writeAll(fd, buffer) {
  let offset = 0
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset)
}

/** True when both paths name the same existing file (links included). */
function sameFile(a, b) {
  try {
    const sa = statSync(a)
    const sb = statSync(b)
    return sa.dev === sb.dev && sa.ino === sb.ino
  } catch {
    return resolve(a) === resolve(b)
  }
}
