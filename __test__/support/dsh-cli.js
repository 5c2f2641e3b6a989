// The real dsh CLI for end-to-end tests: @deepseek-ai/dsh installed with pnpm
// (npm's resolver does not finish on it) under .cache/dsh-e2e, run on Node
// 22, dsh's runtime. What dsh itself needs to run unattended lives here, not
// in the package: the rc.8 headless profile watches the user's patch layers
// through the HMR service, whose row it leaves off and whose 1.0.19 release
// dropped `registerConfig`, so the install pins it to 1.0.16 and the test's
// patch layer switches the row on.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { node22 } from '../../scripts/node22.js'

export const DSH_VERSION = '0.1.0-rc.8'
const PNPM_VERSION = '10.17.0'
const HMR_VERSION = '1.0.16'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const cache = join(root, '.cache', 'dsh-e2e')

function run(command, args, options) {
  const r = spawnSync(command, args, { encoding: 'utf8', ...options })
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`)
  return r
}

/**
 * pnpm and dsh, installed once.
 * @returns {{ node: string, dsh: string, path: string }} Node 22, dsh's entry
 *   script, and a PATH with Node 22 and pnpm first (dsh's `plugin` command runs pnpm).
 */
export function installDsh() {
  const node = node22()
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const pnpmDir = join(cache, 'pnpm')
  const pnpmBin = join(pnpmDir, 'node_modules', '.bin')
  if (!existsSync(join(pnpmBin, 'pnpm'))) {
    mkdirSync(pnpmDir, { recursive: true })
    run(npm, ['install', '--prefix', pnpmDir, '--no-save', '--no-audit', '--no-fund', `pnpm@${PNPM_VERSION}`])
  }
  const path = [dirname(node), pnpmBin, process.env.PATH].join(process.platform === 'win32' ? ';' : ':')
  const dshDir = join(cache, 'dsh')
  const dsh = join(dshDir, 'node_modules', '@deepseek-ai', 'dsh', 'lib', 'bin.js')
  if (!existsSync(dsh)) {
    mkdirSync(dshDir, { recursive: true })
    const manifest = {
      name: 'dsh-e2e',
      private: true,
      dependencies: { '@deepseek-ai/dsh': DSH_VERSION },
      pnpm: { overrides: { '@deepseek-ai/cordis-plugin-hmr': HMR_VERSION } },
    }
    writeFileSync(join(dshDir, 'package.json'), JSON.stringify(manifest, null, 2))
    run('pnpm', ['install', '--config.confirmModulesPurge=false'], { cwd: dshDir, env: { ...process.env, PATH: path } })
  }
  return { node, dsh, path }
}

/** The environment that runs dsh unattended against `baseURL`, with its home at `home`. */
export function dshEnv(installed, home) {
  return {
    ...process.env,
    PATH: installed.path,
    DSH_HOME: home,
    DEEPSEEK_API_KEY: 'sk-test-not-a-key',
    DSH_PERMISSION_MODE: 'danger-full-access',
    DSH_TELEMETRY_DISABLED: '1',
  }
}

/**
 * Runs `dsh ...args` (async, so an in-process mock server keeps answering);
 * `nodeArgs` go to Node before dsh's script, `env` is added.
 */
export async function dsh(installed, home, args, cwd, { nodeArgs = [], env = {} } = {}) {
  const { spawn } = await import('node:child_process')
  return new Promise((resolve) => {
    const child = spawn(installed.node, [...nodeArgs, installed.dsh, ...args], { cwd, env: { ...dshEnv(installed, home), ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

/**
 * The user's home-level patch layer for a run: the DeepSeek adapter pointed
 * at `baseURL` with one model of `contextWindow` tokens, thinking off, the
 * HMR row on (see above), and `extra` rows.
 */
export function writeHomePatch(home, { baseURL, contextWindow }, extra = '') {
  mkdirSync(home, { recursive: true })
  writeFileSync(
    join(home, 'cordis.patch.yml'),
    `- id: llm-deepseek
  config:
    baseURL: ${baseURL}
    thinking: disabled
    models:
      - id: deepseek-v4-flash
        contextWindow: ${contextWindow}
- id: hmr
  disabled: false
${extra}`,
  )
}
