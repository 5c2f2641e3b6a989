#!/usr/bin/env node
// A throwaway npm registry for the release rehearsal: Verdaccio (from this
// project's devDependencies) with its storage, config and users in one
// temporary directory, on a port the system picks, on 127.0.0.1 only.
// This package's names (`tool-result-pruner`, `tool-result-pruner-*`) are
// local only: what the rehearsal publishes, never the public registry's.
// Every other name is proxied from the upstream registry (npm's own).
//
// `startRegistry()` runs it in a child process (so the event loop of the
// rehearsal may block on `npm install` without starving the registry) and
// returns its URL, a publish token and `stop()`. The child stops and removes
// the directory when its stdin closes, so it ends with its parent however the
// parent ends; `stop()` also kills it by its pid and removes the directory.
//
//   node scripts/registry.js DIR   (the child: prints {"url"} once listening)
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const UPSTREAM = 'https://registry.npmjs.org/'
const USER = 'rehearsal'

/** Verdaccio's config for a registry kept under `dir` (as JSON, which is YAML). */
function config(dir) {
  const local = { access: '$all', publish: '$authenticated', unpublish: '$authenticated' }
  return JSON.stringify({
    storage: join(dir, 'storage'),
    auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 10 } },
    uplinks: { npmjs: { url: UPSTREAM, timeout: '120s', max_fails: 10 } },
    packages: {
      'tool-result-pruner': local,
      'tool-result-pruner-*': local,
      '**': { ...local, proxy: 'npmjs' },
    },
    web: { enable: false },
    max_body_size: '100mb',
    log: { type: 'stdout', format: 'pretty', level: 'error' },
  }, null, 2)
}

async function child(dir) {
  const { runServer } = await import('verdaccio')
  const file = join(dir, 'config.yaml')
  writeFileSync(file, config(dir))
  const server = await runServer(file)
  // The parent is gone (however it ended): remove everything and stop.
  process.stdin.on('end', () => {
    rmSync(dir, { recursive: true, force: true })
    process.exit(0)
  })
  process.stdin.resume()
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/` }) + '\n')
  })
}

/**
 * Starts a registry; resolves to `{ url, token, dir, stop }` once it answers
 * and a publishing user exists.
 */
export async function startRegistry() {
  const dir = mkdtempSync(join(tmpdir(), 'trp-registry-'))
  mkdirSync(join(dir, 'storage'))
  const proc = spawn(process.execPath, [fileURLToPath(import.meta.url), dir], { stdio: ['pipe', 'pipe', 'pipe'] })
  const exited = new Promise((resolve) => proc.once('exit', resolve))
  let stopped = false
  /** Ends the registry and removes its directory; resolves once the process has exited. */
  const stop = () => {
    if (!stopped) {
      stopped = true
      proc.stdin.destroy()
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL')
    }
    rmSync(dir, { recursive: true, force: true })
    return exited
  }
  process.once('exit', stop)
  try {
    const url = await new Promise((resolve, reject) => {
      let out = ''
      let err = ''
      proc.stderr.on('data', (d) => (err += d))
      proc.stdout.on('data', (d) => {
        out += d
        const line = out.split('\n').find((l) => l.startsWith('{"url"'))
        if (line) resolve(JSON.parse(line).url)
      })
      proc.on('exit', (code) => reject(new Error(`the registry stopped before listening (${code}):\n${out}${err}`)))
    })
    // A user who may publish: the registry's own "adduser" endpoint, as `npm adduser` calls it.
    const res = await fetch(new URL(`-/user/org.couchdb.user:${USER}`, url), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: USER, password: 'rehearsal-only', type: 'user', roles: [] }),
    })
    const body = await res.json()
    if (!res.ok || !body.token) throw new Error(`the registry refused a user (${res.status}): ${JSON.stringify(body)}`)
    return { url, token: body.token, dir, pid: proc.pid, stop }
  } catch (e) {
    stop()
    throw e
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv[2]) {
    process.stderr.write('usage: node scripts/registry.js DIR (the child of startRegistry())\n')
    process.exit(2)
  }
  await child(process.argv[2])
}
