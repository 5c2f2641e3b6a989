// The command line against hostile and broken input: every bad input is one
// line on stderr and exit status 2 (no stack trace), nothing it must not
// touch is touched, and memory stays bounded.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, closeSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { constants, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { MAX_INPUT_BYTES, zstdCompressFrame, zstdDecompress } from '../index.js'
import { node22 } from '../scripts/node22.js'
import { Session, sessionWith } from './support/dsh.js'
import { markers } from './support/lines.js'

const here = dirname(fileURLToPath(import.meta.url))
const bin = join(here, '..', 'bin', 'tool-result-pruner.js')
const cli = (args, input, encoding = 'utf8') => spawnSync(process.execPath, [bin, ...args], { encoding, input, maxBuffer: 64 * 2 ** 20 })

/** One line naming the problem, exit status 2, nothing on stdout. */
function assertOneLine(r, message, what) {
  assert.equal(r.status, 2, `${what}: status ${r.status}, stderr ${r.stderr}`)
  assert.match(r.stderr, /^tool-result-pruner: [^\n]+\n$/, `${what}: one line, got ${r.stderr}`)
  assert.match(r.stderr, message, what)
  assert.doesNotMatch(r.stderr, /\n\s+at /, `${what}: no stack trace`)
}

let work
let logs
before(() => {
  work = mkdtempSync(join(tmpdir(), 'trp-cli-hostile-'))
  const r = spawnSync(node22(), [join(here, 'support', 'make-session-logs.js'), join(work, 'logs')], { encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  logs = JSON.parse(r.stdout)
})
after(() => rmSync(work, { recursive: true, force: true }))

/** The log's text as the backend wrote it (zstd decoded). */
const plainOf = (file) => {
  const bytes = readFileSync(file)
  return (file.endsWith('.zstd') ? zstdDecompress(bytes) : bytes).toString('utf8')
}

describe('--write writes only a regular file or a new path, keeping modes', () => {
  test('a device, a FIFO, a directory or a symlink as OUT is refused and left as it was', () => {
    const fifo = join(work, 'fifo')
    execFileSync('mkfifo', [fifo])
    const dir = join(work, 'a-dir')
    mkdirSync(dir)
    const target = join(work, 'target.jsonl')
    writeFileSync(target, 'precious\n')
    const link = join(work, 'link.jsonl')
    symlinkSync(target, link)
    for (const [out, what] of [['/dev/null', 'a device'], [fifo, 'a FIFO'], [dir, 'a directory'], [link, 'a symbolic link']]) {
      const before = lstatSync(out)
      const r = cli(['session', logs.none, '--write', out])
      assertOneLine(r, new RegExp(`${out.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: refusing to write: it is ${what}`), out)
      const after = lstatSync(out)
      assert.equal(after.ino, before.ino, `${out} untouched`)
      assert.equal(after.mode, before.mode, `${out} untouched`)
    }
    assert.equal(readFileSync(target, 'utf8'), 'precious\n')
  })

  test('--write compares files, not names: `session - --write X < X` (or a hard link to X) is refused, a file named stdin is written', () => {
    const input = join(work, 'own-input.jsonl')
    writeFileSync(input, readFileSync(logs.none))
    const link = join(work, 'own-input-link.jsonl')
    linkSync(input, link)
    const before = readFileSync(input)
    const { ino } = statSync(input)
    for (const out of [input, link]) {
      const fd = openSync(input, 'r')
      try {
        const r = spawnSync(process.execPath, [bin, 'session', '-', '--write', out], { encoding: 'utf8', stdio: [fd, 'pipe', 'pipe'] })
        assertOneLine(r, /refusing to overwrite the input log/, `session - --write ${out} < ${input}`)
      } finally {
        closeSync(fd)
      }
      assert.ok(readFileSync(input).equals(before), 'the input is as it was')
      assert.equal(statSync(input).ino, ino, 'the input was not replaced')
    }
    // stdin is a pipe here: a path named `stdin` is just a path, new or existing.
    const dir = join(work, 'named-stdin')
    mkdirSync(dir)
    for (const what of ['new', 'existing']) {
      const r = spawnSync(process.execPath, [bin, 'session', '-', '--write', 'stdin'], { cwd: dir, input: before, encoding: 'utf8' })
      assert.equal(r.status, 0, `${what}: ${r.stderr}`)
      assert.ok(readFileSync(join(dir, 'stdin')).subarray(0, before.length).equals(before), `${what}: written`)
    }
  })

  test('an OUT name of up to 255 bytes (NAME_MAX), multibyte too, is written; every failure to write is one line, exit 2, nothing left behind', () => {
    const dir = join(work, 'long-names')
    mkdirSync(dir)
    const input = readFileSync(logs.none)
    const names = ['a'.repeat(240), 'b'.repeat(255), '\u00e9'.repeat(127), '\u65e5'.repeat(85), `${'c'.repeat(250)}\u00e9`]
    for (const name of names) {
      assert.ok(Buffer.byteLength(name) >= 240 && Buffer.byteLength(name) <= 255, name)
      const out = join(dir, name)
      const r = cli(['session', logs.none, '--write', out])
      assert.equal(r.status, 0, `${Buffer.byteLength(name)}-byte name: ${r.stderr}`)
      const written = readFileSync(out)
      assert.ok(written.length > input.length && written.subarray(0, input.length).equals(input), 'the input, then the prunes')
      assert.match(cli(['session', out]).stdout, /pruned 0 of 4 tool results/)
    }
    const file = join(dir, 'a-file')
    writeFileSync(file, 'not a directory\n')
    const failures = [
      [join(dir, 'd'.repeat(256)), /: cannot write: ENAMETOOLONG$/m],
      [join(dir, 'no-such-dir', 'out.jsonl'), /: cannot write: ENOENT$/m],
      [join(file, 'out.jsonl'), /: cannot write: ENOTDIR$/m],
    ]
    for (const [out, message] of failures) assertOneLine(cli(['session', logs.none, '--write', out]), message, out)
    assert.deepEqual(readdirSync(dir).sort(), [...names, 'a-file'].sort(), 'only what was written, no temporary file')
  })

  test('a new OUT is 0600, as dsh writes its logs; an existing OUT keeps its mode', () => {
    const fresh = join(work, 'fresh.jsonl')
    assert.equal(cli(['session', logs.none, '--write', fresh]).status, 0)
    assert.equal(statSync(fresh).mode & 0o777, 0o600)
    const existing = join(work, 'existing.jsonl')
    writeFileSync(existing, 'old\n')
    chmodSync(existing, 0o640)
    assert.equal(cli(['session', logs.none, '--write', existing]).status, 0)
    assert.equal(statSync(existing).mode & 0o777, 0o640)
  })

  test('a log whose last line has no final newline is written back as a valid log', () => {
    for (const encoding of ['none', 'zstd']) {
      const text = plainOf(logs[encoding])
      const torn = join(work, `no-newline-${encoding}.jsonl${encoding === 'zstd' ? '.zstd' : ''}`)
      const body = Buffer.from(text.replace(/\n$/, ''))
      writeFileSync(torn, encoding === 'zstd' ? zstdCompressFrame(body) : body)
      const out = join(work, `no-newline-out-${encoding}.jsonl${encoding === 'zstd' ? '.zstd' : ''}`)
      const r = cli(['session', torn, '--strategy', 'lines', '--write', out])
      assert.equal(r.status, 0, r.stderr)
      // The written log reads back, and every line of it is one JSON value.
      const again = cli(['session', out])
      assert.equal(again.status, 0, `${encoding}: ${again.stderr}`)
      for (const line of plainOf(out).split('\n').filter(Boolean)) JSON.parse(line)
    }
  })
})

describe('input that can never become one JS string is refused early', () => {
  test('a zstd bomb: one line, exit 2, and memory bounded by the cap', () => {
    // 1 GiB of zeros in one frame, a few KB on disk.
    const bomb = join(work, 'bomb.jsonl.zstd')
    const chunk = zstdCompressFrame(Buffer.alloc(64 * 2 ** 20))
    writeFileSync(bomb, Buffer.concat(Array.from({ length: 16 }, () => chunk)))
    // The command run in-process, then its peak resident memory (KiB) on a last stderr line.
    const main = pathToFileURL(join(here, '..', 'cli', 'main.js')).href
    const script = `const { main } = await import(${JSON.stringify(main)}); await main(process.argv.slice(1)); process.stderr.write('maxrss ' + process.resourceUsage().maxRSS + '\\n')`
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, 'session', bomb], { encoding: 'utf8' })
    const lines = r.stderr.trim().split('\n')
    const peakKiB = Number(/^maxrss (\d+)$/.exec(lines.pop())[1])
    assertOneLine({ status: r.status, stderr: lines.join('\n') + '\n' }, new RegExp(`bomb\\.jsonl\\.zstd: over ${MAX_INPUT_BYTES} bytes once decompressed`), 'bomb')
    // The cap is 512 MiB of text; reading up to it may hold it twice (bytes and text), never the whole gigabyte.
    assert.ok(peakKiB * 1024 < 2.5 * MAX_INPUT_BYTES, `peak ${peakKiB} KiB`)
  })

  test('an endless input is read only up to the cap', () => {
    for (const args of [['/dev/zero'], ['session', '/dev/zero']]) {
      const r = cli(args)
      assertOneLine(r, new RegExp(`/dev/zero: over ${MAX_INPUT_BYTES} bytes`), args.join(' '))
    }
  })
})

describe('the error contract holds everywhere', () => {
  test('a log whose data nests 2000 arrays deep is a bad line, not a stack overflow', () => {
    // Deep inside a tool result that gets pruned: its replacement copies it.
    const lines = plainOf(logs.none).split('\n').filter(Boolean)
    const at = lines.findIndex((l) => JSON.parse(l).type === 'tool/result')
    const event = JSON.parse(lines[at])
    event.data.message.deep = JSON.parse('['.repeat(2000) + ']'.repeat(2000))
    lines[at] = JSON.stringify(event)
    const deep = join(work, 'deep.jsonl')
    writeFileSync(deep, lines.join('\n') + '\n')
    const r = cli(['session', deep, '--write', join(work, 'deep-out.jsonl')])
    assertOneLine(r, /deep\.jsonl: /, 'deep')
    assert.equal(existsSync(join(work, 'deep-out.jsonl')), false)
  })

  test('control characters in what an error names (a newline in a path, an escape sequence) are escaped: the error stays one line', () => {
    const cases = [
      [[join(work, 'new\nline.log')], /new\\nline\.log: cannot read: ENOENT/],
      [['session', join(work, 'tab\tand\u001b[31mred.jsonl')], /tab\\tand\\x1b\[31mred\.jsonl: cannot read: ENOENT/],
      [['session', logs.none, '--write', join(work, 'no\r\ndir', 'out.jsonl')], /no\\r\\ndir\/out\.jsonl: cannot write: ENOENT/],
      [['retrieve', 'f'.repeat(24), '--session', join(work, 'c1\u009b2J\u0085nel\u2028ls\u007f.jsonl')], /c1\\x9b2J\\x85nel\\u2028ls\\x7f\.jsonl: cannot read: ENOENT/],
      [['--bo\ngus'], /Unknown option '--bo\\ngus'/],
      [['--threshold-chars', '1\n2', logs.none], /thresholdChars \(1\\n2\) must be a positive integer/],
    ]
    for (const [args, message] of cases) {
      const r = cli(args)
      assertOneLine(r, message, JSON.stringify(args))
      assert.doesNotMatch(r.stderr.slice(0, -1), /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/, `${JSON.stringify(args)}: no raw control character`)
    }
  })

  test('a header dsh rejects is one line naming the log', () => {
    const [header, ...rest] = plainOf(logs.none).split('\n')
    const file = join(work, 'no-version.jsonl')
    const { version: _, ...unversioned } = JSON.parse(header)
    writeFileSync(file, [JSON.stringify(unversioned), ...rest].join('\n'))
    assertOneLine(cli(['session', file]), /no-version\.jsonl: the events do not replay as a dsh session: session header version must be 0/, 'header')
  })

  test('invalid UTF-8 is a bad line with its number in a log; a tool output reads a lone surrogate as itself and other bad bytes as U+FFFD', () => {
    const bytes = Buffer.from(plainOf(logs.none))
    const at = bytes.indexOf('\n', bytes.indexOf('\n', bytes.indexOf('\n') + 1) + 1) + 5 // inside line 4
    const broken = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff, 0xfe]), bytes.subarray(at)])
    writeFileSync(join(work, 'bad-utf8.jsonl'), broken)
    assertOneLine(cli(['session', join(work, 'bad-utf8.jsonl')]), /bad-utf8\.jsonl:4: invalid UTF-8/, 'log')
    // A tool output: a lone surrogate in its three bytes (as Python's
    // surrogatepass writes it) comes back as those bytes, under the
    // threshold and kept by a cut; a byte that is no UTF-8 reads as U+FFFD.
    const lone = Buffer.from([0xed, 0xa0, 0x80])
    const output = Buffer.concat([Buffer.from('ok\nfine\n'), Buffer.from([0xc3, 0x28]), Buffer.from(' and '), lone, Buffer.from(' end\n')])
    writeFileSync(join(work, 'bad-utf8.log'), output)
    const whole = cli([join(work, 'bad-utf8.log')], undefined, 'buffer')
    assert.equal(whole.status, 0, String(whole.stderr))
    assert.deepEqual(whole.stdout, Buffer.concat([Buffer.from('ok\nfine\n\ufffd( and '), lone, Buffer.from(' end\n')]))
    const json = JSON.parse(cli(['--json', join(work, 'bad-utf8.log')]).stdout)
    assert.equal(json.content, 'ok\nfine\n\ufffd( and \ud800 end\n', 'the surrogate is read as itself')
    const long = Buffer.concat([Buffer.from('filler line\n'.repeat(2000)), Buffer.from('error: '), lone, Buffer.from(' failed\n')])
    writeFileSync(join(work, 'lone-long.log'), long)
    const cut = cli(['--strategy', 'lines', '--threshold-chars', '2048', '--keep-chars', '2048', join(work, 'lone-long.log')], undefined, 'buffer')
    assert.equal(cut.status, 0, String(cut.stderr))
    assert.ok(cut.stdout.includes(Buffer.concat([Buffer.from('error: '), lone, Buffer.from(' failed\n')])), 'the kept line keeps its surrogate bytes')
  })

  test('piping into a reader that stops early ends quietly', async () => {
    const big = join(work, 'big.log')
    writeFileSync(big, 'a line of output\n'.repeat(400_000))
    const code = await new Promise((resolve) => {
      const child = spawn('sh', ['-c', `"${process.execPath}" "${bin}" --threshold-chars 100000000 "${big}" | head -c 10 > /dev/null; echo "$?" >&2`], { stdio: ['ignore', 'ignore', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', (d) => (stderr += d))
      child.on('close', () => resolve(stderr))
    })
    assert.equal(code.trim(), '0', `stderr: ${code}`)
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${bin}" --threshold-chars 100000000 "${big}" | head -c 10`], { encoding: 'utf8' })
    assert.equal(r.stderr, '', 'no EPIPE stack trace')
  })

  test('retrieve --json prints the exact text, lone surrogates included', () => {
    // A log with one long result whose middle holds a lone surrogate.
    const session = sessionWith([[[{ content: [{ type: 'text', text: 'x\n'.repeat(3000) + 'a \uDC00 lone\n' + 'y\n'.repeat(3000) }] }]]], 'lone')
    const file = join(work, 'lone.jsonl')
    const header = { ...JSON.parse(plainOf(logs.none).split('\n')[0]), id: session.id }
    writeFileSync(file, [header, ...session.events].map((e) => JSON.stringify(e) + '\n').join(''))
    const out = join(work, 'lone-pruned.jsonl')
    assert.equal(cli(['session', file, '--strategy', 'lines', '--write', out]).status, 0)
    const events = plainOf(out).split('\n').filter(Boolean).map((l) => JSON.parse(l))
    const replacement = events.find((e) => e.type === 'tool/result' && e.surfaceOp?.op === 'replace')
    const texts = markers(replacement.data.message.content[0].content[0].text).map(({ hash }) => {
      const r = cli(['retrieve', hash, '--session', out, '--json'])
      assert.equal(r.status, 0, r.stderr)
      return JSON.parse(r.stdout)
    })
    assert.ok(texts.some((t) => t.includes('a \uDC00 lone\n')), 'a run holding the lone surrogate came back exactly')
  })

  test('session - reads the log from stdin', () => {
    const r = cli(['session', '-'], readFileSync(logs.none))
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /pruned 3 of 4 tool results/)
  })

  test('a .zstd log that starts with a skippable frame is read as zstd', () => {
    const skippable = Buffer.concat([Buffer.from([0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0]), Buffer.from('meta'), readFileSync(logs.zstd)])
    const file = join(work, 'skippable.jsonl.zstd')
    writeFileSync(file, skippable)
    const r = cli(['session', file])
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /pruned 3 of 4 tool results/)
  })

  test('the summary counts original results, not replacements, when a log was pruned before', () => {
    const once = join(work, 'once.jsonl')
    assert.equal(cli(['session', logs.none, '--write', once]).status, 0)
    const r = cli(['session', once])
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /pruned 0 of 4 tool results/)
  })
})

describe('logs dsh replays are logs the session command reads', () => {
  test('a tool/call with data null (or no usable name) is skipped, as dsh skips it: the session prunes, that row names no tool', () => {
    const lines = plainOf(logs.none).split('\n').filter(Boolean)
    const calls = lines.flatMap((l, i) => (JSON.parse(l).type === 'tool/call' ? [i] : []))
    const nulled = JSON.parse(lines[calls[0]])
    const callId = nulled.data.callId
    nulled.data = null
    lines[calls[0]] = JSON.stringify(nulled)
    const odd = JSON.parse(lines[calls[2]])
    odd.data.name = { not: 'a string' }
    lines[calls[2]] = JSON.stringify(odd)
    const file = join(work, 'null-call.jsonl')
    writeFileSync(file, lines.join('\n') + '\n')
    // dsh's own Session replays it and derives the same history as from the unchanged log.
    const [header, ...events] = lines.map((l) => JSON.parse(l))
    const [, ...original] = plainOf(logs.none).split('\n').filter(Boolean).map((l) => JSON.parse(l))
    assert.deepEqual(Session.create(header.id, events, header).deriveMessages(), Session.create(header.id, original, header).deriveMessages())
    const out = join(work, 'null-call-out.jsonl')
    const r = cli(['session', file, '--write', out])
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /pruned 3 of 4 tool results/)
    assert.match(r.stdout, new RegExp(`^\\s*\\d+\\s+\\?\\s+${callId}\\s`, 'm'), 'no tool name for the call whose data is null')
    assert.match(r.stdout, new RegExp(`^\\s*\\d+\\s+\\?\\s+${odd.data.callId}\\s`, 'm'), 'no tool name for a name that is not a string')
    // What was written is the input and the appended prunes, and replays as already pruned.
    assert.ok(readFileSync(out).subarray(0, readFileSync(file).length).equals(readFileSync(file)))
    const again = cli(['session', out])
    assert.equal(again.status, 0, again.stderr)
    assert.match(again.stdout, /pruned 0 of 4 tool results/)
  })
})

describe('--write under a signal', () => {
  let big
  before(() => {
    // A log of some 70 MiB (one long tool result), so writing it takes many chunks.
    const lines = plainOf(logs.none).split('\n').filter(Boolean)
    const at = lines.findIndex((l) => JSON.parse(l).type === 'tool/result')
    const event = JSON.parse(lines[at])
    event.data.message.content[0].content[0].text = 'a line of build output\n'.repeat(3 * 2 ** 20)
    lines[at] = JSON.stringify(event)
    big = join(work, 'big-session.jsonl')
    writeFileSync(big, lines.join('\n') + '\n')
  })

  /** The state letter `ps` gives for `pid` (T: stopped). */
  const stateOf = (pid) => spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim()[0]
  const isTemp = (name) => /^\.out\.jsonl\.\d+\.[0-9a-f]{8}\.tmp$/.test(name)

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    const status = 128 + constants.signals[signal]
    test(`${signal} mid-write removes the temporary file, leaves OUT as it was, and exits ${status}`, async (t) => {
      const dir = join(work, `signal-${signal}`)
      mkdirSync(dir)
      const out = join(dir, 'out.jsonl')
      const child = spawn(process.execPath, [bin, 'session', big, '--write', out], { stdio: ['ignore', 'ignore', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', (d) => (stderr += d))
      let exited = false
      const closed = new Promise((resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig })))
      child.on('exit', () => (exited = true))
      // Wait for the temporary file, then freeze the child there (SIGSTOP) and
      // look: it is mid-write when the temporary file is still shorter than the input.
      while (!readdirSync(dir).some(isTemp)) {
        assert.equal(exited, false, `the child ended before its temporary file was seen: ${stderr}`)
        await new Promise((resolve) => setImmediate(resolve))
      }
      process.kill(child.pid, 'SIGSTOP')
      while (stateOf(child.pid) !== 'T') await new Promise((resolve) => setImmediate(resolve))
      const temps = readdirSync(dir).filter(isTemp)
      assert.equal(temps.length, 1, 'stopped while the temporary file is there')
      const written = statSync(join(dir, temps[0])).size
      const midWrite = written < statSync(big).size
      t.diagnostic(`stopped with ${written} of the input's ${statSync(big).size} bytes written`)
      process.kill(child.pid, signal)
      process.kill(child.pid, 'SIGCONT')
      const r = await closed
      assert.deepEqual(r, { code: status, signal: null }, `exit status ${status}; stderr ${stderr}`)
      assert.match(stderr, new RegExp(`^tool-result-pruner: [^\\n]*out\\.jsonl: interrupted by ${signal}[^\\n]*\\n$`))
      assert.deepEqual(readdirSync(dir).filter(isTemp), [], 'no temporary file left')
      if (midWrite) {
        assert.equal(existsSync(out), false, 'OUT was never created')
      } else if (existsSync(out)) {
        // Caught between the last write and the rename: OUT is whole.
        assert.match(cli(['session', out]).stdout, /pruned 0 of 4 tool results/)
      }
    })
  }
})
