// The `tool-result-pruner` command: argument parsing and dispatch.
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { CliError, printError } from './errors.js'
import { CONFIG_HELP, CONFIG_OPTIONS, configFromFlags } from './options.js'
import { pruneText } from './prune-text.js'
import { retrieveCommand, sessionCommand } from './session-command.js'

const USAGE = `usage:
  tool-result-pruner [FILE|-] [options]            prune one tool output (stdin with - or no FILE)
  tool-result-pruner session FILE [--write OUT] [options]
                                                   prune a dsh session log (.jsonl or .jsonl.zstd)
  tool-result-pruner retrieve HASH --session FILE [--json]
                                                   print the exact text behind a <<ccr:HASH …>> marker
                                                   (HASH may be the whole marker, as the model's tool takes it)

options (validated as the plugin validates its config; --threshold-chars alone, too small for the
default head and tail, fits both within it, 4:1):
${CONFIG_HELP}
  --stats               print code points before/after, markers and time to stderr
  --json                print the plan (content, recoverable, droppedLines, kinds, kindFrom) as JSON,
                        one shape for both strategies;
                        retrieve: the text as a JSON string (exact, lone surrogates included)
  --explain             print each line's class (as lines mode reads it) and what the strategy does with it
  --command CMD         the shell command that printed the input: names its kind where it is
                        unambiguous (git diff, cat src/x.py, rg -n, a test runner); the reason
                        shows in --explain and in --json's kindFrom
  --task TEXT           lines mode: what the output was asked for (the user's request); lines
                        holding its rare words (and the command's) are kept first among their
                        kind; --explain names the words a line holds, --json lists taskWords
  --write OUT           session: write the pruned log to OUT (never the input)
  --session FILE        retrieve: the session log to search
  -h, --help            show this help
  -v, --version         print the version

exit status: 0 done; 1 retrieve: no marker with that hash; 2 a bad flag, file
or log, or OUT cannot be written; 128+N session --write stopped by signal N
`

function parse(argv) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...CONFIG_OPTIONS,
        stats: { type: 'boolean' },
        json: { type: 'boolean' },
        explain: { type: 'boolean' },
        command: { type: 'string' },
        task: { type: 'string' },
        write: { type: 'string' },
        session: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    })
  } catch (error) {
    throw new CliError(`${error.message} (see --help)`)
  }
}

async function run(argv) {
  const { values, positionals } = parse(argv)
  if (values.help) return process.stdout.write(USAGE)
  if (values.version) {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    return process.stdout.write(`${pkg.version}\n`)
  }
  const [command, ...rest] = positionals
  if (command === 'session') {
    if (rest.length !== 1) throw new CliError('session: expected one FILE (see --help)')
    return sessionCommand(rest[0], configFromFlags(values), { out: values.write })
  }
  if (command === 'retrieve') {
    if (rest.length !== 1 || values.session === undefined) throw new CliError('retrieve: expected HASH and --session FILE (see --help)')
    return retrieveCommand(rest[0], values.session, { json: values.json })
  }
  if (values.write !== undefined || values.session !== undefined) {
    throw new CliError('--write and --session belong to the session and retrieve commands (see --help)')
  }
  if (positionals.length > 1) throw new CliError(`expected one FILE, got ${positionals.length} (see --help)`)
  return pruneText(positionals[0] ?? '-', configFromFlags(values), { stats: values.stats, json: values.json, explain: values.explain, command: values.command, task: values.task })
}

/**
 * Runs the command; user errors become one line and their exit status, and
 * a reader that stops early (`| head`) ends the command quietly.
 */
export async function main(argv) {
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error
    process.exit(0)
  })
  try {
    await run(argv)
  } catch (error) {
    if (!(error instanceof CliError)) throw error
    printError(error.message)
    process.exitCode = error.status
  }
}
