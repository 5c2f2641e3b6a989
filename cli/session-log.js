// dsh session logs as `@deepseek-ai/dsh-session-persistence-jsonl` writes
// them: a `{ type: 'session', … }` header line, then one storage record per
// line (an event, or a packed chunk row that dsh-session's codec decodes);
// `.jsonl` raw, or `.jsonl.zstd` as concatenated zstd frames. Read on Node 20
// and 22 alike (zstd through the addon), appended the way the backend
// appends: the original bytes kept, one new batch after them.
import { closeSync, fchmodSync, fsync, lstatSync, openSync, renameSync, rmSync, statSync, write } from 'node:fs'
import { constants } from 'node:os'
import { promisify } from 'node:util'
import { randomBytes } from 'node:crypto'
import { basename, dirname, join, resolve } from 'node:path'
import { decodeStorageRecord } from '@deepseek-ai/dsh-session'
import { isEventAt, isSessionHeader, startsWithZstdFrame, zstdCompressFrame, zstdDecompress } from '../index.js'
import { CliError, printError } from './errors.js'
import { decodeUtf8, nameOf, readIdentified } from './input.js'
import { progress } from './progress.js'

/** Logs at least this large get a progress bar (on a terminal). */
const LARGE = 4 * 2 ** 20

/**
 * Reads a session log.
 * @param {string} file - path to a `.jsonl` or `.jsonl.zstd` log, or `-` for stdin.
 * @returns {{ file: string, identity: { dev: bigint, ino: bigint }, bytes: Buffer, zstd: boolean, endsWithNewline: boolean, header: object, events: object[] }}
 * @throws CliError naming the file (and line) for anything that is not a readable, well-formed log.
 */
export function readSessionLog(file) {
  const name = nameOf(file)
  const { bytes, dev, ino } = readIdentified(file)
  const zstd = startsWithZstdFrame(bytes)
  let plain
  try {
    plain = zstd ? zstdDecompress(bytes) : bytes
  } catch (error) {
    throw new CliError(`${name}: ${error.message}`)
  }
  const text = decodeUtf8(plain, name)
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  if (lines.length === 0) throw new CliError(`${name}: not a dsh session log (it is empty)`)
  const header = parseLine(name, 1, lines[0])
  if (!isSessionHeader(header)) {
    throw new CliError(`${name}:1: not a dsh session log (the first line is not a { "type": "session", "id": … } header)`)
  }
  const bar = progress(`reading ${basename(name)}`, bytes.length >= LARGE ? lines.length : 0)
  const events = []
  for (let i = 1; i < lines.length; i++) {
    const record = parseLine(name, i + 1, lines[i])
    let decoded
    try {
      decoded = decodeStorageRecord(record)
    } catch (error) {
      throw new CliError(`${name}:${i + 1}: invalid storage record: ${error.message}`)
    }
    for (const event of decoded) {
      if (!isEventAt(event, events.length)) {
        throw new CliError(`${name}:${i + 1}: invalid event line: expected an event with seq ${events.length}`)
      }
      events.push(event)
    }
    if (i % 1024 === 0) bar.update(i)
  }
  bar.done()
  const { type: _, ...meta } = header
  return { file: name, identity: { dev, ino }, bytes, zstd, endsWithNewline: plain.length === 0 || plain[plain.length - 1] === 0x0a, header: meta, events }
}

function parseLine(name, number, line) {
  try {
    return JSON.parse(line)
  } catch (error) {
    throw new CliError(`${name}:${number}: invalid event line: ${error.message}`)
  }
}

/**
 * Writes `log` plus `events` appended as one new batch, in the log's own
 * format, to `out`: through a temporary file in the same directory,
 * synced and renamed into place, so `out` is whole or untouched. `out`
 * must be a new path or a regular file; it keeps its mode, and a new file
 * is 0600, as dsh writes its logs. A log whose last line lacks its `\n`
 * gets one before the batch, so the result is a valid log. SIGINT, SIGTERM
 * or SIGHUP while it writes removes the temporary file and exits with
 * 128 + the signal's number (see `guardSignals`).
 * @throws CliError when `out` is the input log itself, not a regular file,
 *   or cannot be written.
 */
export async function writeSessionLog(log, events, out) {
  if (isInput(log, out)) {
    throw new CliError(`${out}: refusing to overwrite the input log; write to another file`)
  }
  const mode = targetMode(out)
  const lines = events.map((event) => JSON.stringify(event) + '\n').join('')
  const batch = Buffer.from((log.endsWithNewline || events.length === 0 ? '' : '\n') + lines, 'utf8')
  const appended = events.length === 0 ? Buffer.alloc(0) : log.zstd ? zstdCompressFrame(batch) : batch
  const temp = tempPath(out)
  const guard = guardSignals(out)
  try {
    guard.fd = openSync(temp, 'wx', 0o600)
    guard.temp = temp
    fchmodSync(guard.fd, mode)
    await writeAll(guard.fd, log.bytes)
    await writeAll(guard.fd, appended)
    await fsyncAsync(guard.fd)
    closeSync(guard.fd)
    guard.fd = undefined
    renameSync(temp, out)
    guard.temp = undefined
    guard.written = true
  } catch (error) {
    // Only a temporary file this call created is removed (never one it failed to create).
    const note = guard.temp === undefined ? '' : discard(guard.fd, guard.temp)
    guard.fd = guard.temp = undefined
    throw new CliError(`${out}: cannot write: ${error.code ?? error.message}${note}`)
  } finally {
    await guard.release()
  }
}

/** The signals a user or a terminal sends to stop a command. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP']

/**
 * Handlers for STOP_SIGNALS while `out` is written: the returned object's
 * `fd` and `temp` are the open temporary file, which a signal closes and
 * removes before the process exits with 128 + the signal's number, saying
 * so in one line (`written` once `out` is renamed into place). The write yields to the event loop between chunks, so a
 * signal is handled mid-write, not after it. `release()` removes the
 * handlers, after letting any signal already received be handled: Node
 * queues a signal for the event loop, and one that arrived during the
 * last synchronous steps (close, rename) would otherwise be dropped with
 * its handler.
 */
function guardSignals(out) {
  const guard = {
    fd: undefined,
    temp: undefined,
    written: false,
    async release() {
      // Two turns of the loop: the first may be this turn's check phase,
      // before its poll phase reads the queued signal; the second is after it.
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve))
      for (const [signal, handler] of handlers) process.off(signal, handler)
    },
  }
  const handlers = STOP_SIGNALS.map((signal) => {
    const handler = () => {
      const note = guard.temp === undefined ? '' : discard(guard.fd, guard.temp)
      const what = guard.written ? 'it was already written whole' : 'it is left as it was'
      printError(`${out}: interrupted by ${signal}; ${what}${note}`)
      process.exit(128 + constants.signals[signal])
    }
    process.on(signal, handler)
    return [signal, handler]
  })
  return guard
}

/** The longest file name most file systems take, in bytes (NAME_MAX). */
const NAME_MAX = 255

/**
 * A hidden temporary path beside `out`: `.NAME.PID.RANDOM.tmp`, with NAME
 * shortened (at a code point, counted in UTF-8 bytes as the path is
 * passed to the system) so the whole name fits NAME_MAX even when `out`'s
 * own name is near it.
 */
function tempPath(out) {
  const suffix = `.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  let room = NAME_MAX - 1 - Buffer.byteLength(suffix)
  let stem = ''
  for (const c of basename(out)) {
    room -= Buffer.byteLength(c)
    if (room < 0) break
    stem += c
  }
  return join(dirname(resolve(out)), `.${stem}${suffix}`)
}

/**
 * Closes `fd` (when open) and removes `temp`, after a failed write. Neither
 * may throw past the write's own error: what could not be cleaned up is
 * said in the same line.
 */
function discard(fd, temp) {
  let note = ''
  if (fd !== undefined) {
    try {
      closeSync(fd)
    } catch {
      // The descriptor is gone either way; the file is what matters.
    }
  }
  try {
    rmSync(temp, { force: true })
  } catch (error) {
    note = `; could not remove the temporary file ${temp}: ${error.code ?? error.message}`
  }
  return note
}

/** The mode `out` is written with: its own when it is a regular file, 0600 when new. */
function targetMode(out) {
  let stat
  try {
    stat = lstatSync(out)
  } catch (error) {
    if (error.code === 'ENOENT') return 0o600
    throw new CliError(`${out}: cannot write: ${error.code ?? error.message}`)
  }
  if (stat.isFile()) return stat.mode & 0o7777
  const what = stat.isSymbolicLink() ? 'a symbolic link' : stat.isDirectory() ? 'a directory' : stat.isFIFO() ? 'a FIFO' : stat.isSocket() ? 'a socket' : 'a device'
  throw new CliError(`${out}: refusing to write: it is ${what}, not a regular file`)
}

/** Bytes written at a time: between two writes a signal can be handled. */
const WRITE_CHUNK = 1 << 20

const writeAsync = promisify(write)
const fsyncAsync = promisify(fsync)

async function writeAll(fd, buffer) {
  let offset = 0
  while (offset < buffer.length) {
    const { bytesWritten } = await writeAsync(fd, buffer, offset, Math.min(WRITE_CHUNK, buffer.length - offset))
    offset += bytesWritten
  }
}

/**
 * True when `out` is the file the log was read from: the same device and
 * inode as the descriptor it was read through (fd 0 for `-`), whatever
 * either is called (a hard link, a symlink, a redirect). A path that does
 * not exist yet is never the input.
 */
function isInput(log, out) {
  let stat
  try {
    stat = statSync(out, { bigint: true, throwIfNoEntry: false })
  } catch (error) {
    throw new CliError(`${out}: cannot write: ${error.code ?? error.message}`)
  }
  return stat !== undefined && stat.dev === log.identity.dev && stat.ino === log.identity.ino
}
