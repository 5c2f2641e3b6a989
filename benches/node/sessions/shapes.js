// Three session shapes, assembled from the real outputs in the corpora by a
// seeded generator: what the model asks for (a tool and its arguments, as
// dsh's bash, read and edit tools take them) and what the tool returns.
//
//   debug-loop   re-runs a failing test suite after each small edit: the same
//                log, slightly changed each time, between reads and greps
//   exploration  reads files in windows, greps, lists, looks at JSON and history
//   build-fix    a long compile-and-fix loop over four toolchains: compiler and
//                CI logs, the diffs of the edits, reads of the code they name
//
// A session is { name, turns: [{ prompt, calls: [{ tool, args, output }], answer }] }.
import { bashResult, editResult, fit, lines, raw, readResult, rerun, rng } from './corpus.js'

/** Source files to read, with the path the session reads them under. */
const CODE = {
  py: [
    { fixture: 'kinds-holdout/code-py-jinja-utils', path: 'src/jinja2/utils.py' },
    { fixture: 'kinds-tune/code-py-pytest-fixtures', path: 'src/_pytest/fixtures.py' },
  ],
  js: [
    { fixture: 'kinds-tune/code-js-yaml-loader', path: 'lib/loader.js' },
    { fixture: 'kinds-holdout/code-ts-node-buffer', path: 'types/buffer.d.ts' },
  ],
  rs: [
    { fixture: 'kinds-holdout/code-rs-indexmap-map', path: 'src/map.rs' },
    { fixture: 'kinds-tune/code-rs-itertools', path: 'src/lib.rs' },
  ],
  c: [{ fixture: 'kinds-tune/code-c-zlib-h', path: 'zlib.h' }],
  go: [{ fixture: 'kinds-holdout/code-go-url', path: 'src/net/url/url.go' }],
}

/** Search outputs, and the command that printed each. */
const SEARCH = [
  { fixture: 'runs-tune-b/grep-rn', command: 'grep -rn --include=*.py "raise ValueError(" .' },
  { fixture: 'kinds-holdout/search-jinja-def', command: 'rg -n "^def " jinja2/' },
  { fixture: 'kinds-holdout/search-pytest-import', command: 'rg -n "^import " _pytest/' },
  { fixture: 'kinds-tune/search-docutils-ctx', command: 'grep -rn -C1 "raise ValueError" docutils/' },
  { fixture: 'kinds-tune/search-hashbrown-pub', command: 'rg -n "pub fn " hashbrown/src' },
  { fixture: 'kinds-tune/search-memchr-unsafe', command: 'rg -n "unsafe fn" memchr/src' },
  { fixture: 'kinds-holdout/search-dsh-todo', command: 'rg -n "throw new Error" node_modules/@deepseek-ai' },
]

/** Listings. */
const LISTINGS = [
  { fixture: 'runs-tune/ls-r', command: 'ls -R' },
  { fixture: 'kinds-tune/list-ls-la-include', command: 'ls -la /usr/include' },
  { fixture: 'kinds-tune/list-ls-R-docutils', command: 'ls -R docutils' },
  { fixture: 'kinds-holdout/list-ls-lR-regex', command: 'ls -lR regex-automata' },
  { fixture: 'kinds-holdout/list-find-registry', command: 'find ~/.cargo/registry/src -maxdepth 2 -name Cargo.toml' },
  { fixture: 'kinds-tune/list-find-dsh', command: 'find node_modules/@deepseek-ai -maxdepth 2' },
]

/** JSON a command prints. */
const JSON_OUTPUTS = [
  { fixture: 'kinds-holdout/json-npm-ls', command: 'npm ls --all --json' },
  { fixture: 'kinds-tune/json-npm-view-react', command: 'npm view react --json' },
  { fixture: 'kinds-holdout/json-pip-list-v', command: 'pip list -v --format json' },
  { fixture: 'kinds-tune/json-pip-inspect', command: 'pip inspect' },
]

/** History and diffs. */
const HISTORY = [
  { fixture: 'runs-tune/git-log-p', command: 'git log -p --no-color -n 12' },
  { fixture: 'kinds-tune/diff-git-show-cli', command: 'git show --no-color HEAD' },
  { fixture: 'kinds-holdout/diff-git-log-p', command: 'git log -p --no-color -n 3 -- cli' },
]

/** Diffs the build-fix loop shows after its edits, cut into hunks. */
const DIFFS = {
  rs: ['kinds-tune/diff-cpufeatures', 'kinds-holdout/diff-hashbrown', 'kinds-tune/diff-libc'],
  js: ['kinds-tune/diff-git-show-cli', 'kinds-holdout/diff-git-log-p'],
  c: ['kinds-tune/diff-libc'],
  py: ['kinds-tune/diff-git-show-cli', 'kinds-holdout/diff-hashbrown'],
}

/** Failing runs, with the command that made each (from its case.json where it has one). */
const RUN = (fixture, command, exitCode = 1) => ({ fixture, command, exitCode })

/** A bash call printing `output` (cut to what dsh would inline). */
function bash(command, output, exitCode = 0, description = undefined, from = 'tail') {
  const cut = fit(output, undefined, from)
  const shown = cut.cut ? `${command} 2>&1 | ${from} -n ${cut.lines}` : command
  return { tool: 'bash', args: { command: shown, ...(description ? { description } : {}) }, output: bashResult(cut.text, exitCode) }
}

/** A read of `limit` lines from `offset` of one source file. */
function read(file, offset, limit) {
  const fileLines = lines(file.fixture)
  return { tool: 'read', args: { file_path: file.path, offset, limit }, output: readResult(file.path, fileLines, offset, limit) }
}

/** A small edit of a file the session read. */
function edit(r, path) {
  const id = r.int(1000, 9999)
  return { tool: 'edit', args: { file_path: path, old_string: `value_${id}`, new_string: `value_${id + 1}` }, output: editResult(path) }
}

/** `count` contiguous lines of a fixture, from a random start. */
function window(r, fixture, min, max) {
  const all = lines(fixture)
  const count = Math.min(all.length, r.int(min, max))
  const start = r.int(0, all.length - count)
  return all.slice(start, start + count).join('')
}

/** A hunk-aligned slice of a diff, as `git diff` after one edit prints it. */
function diffSlice(r, fixture) {
  const all = lines(fixture)
  const starts = all.map((l, i) => (/^(diff |@@ )/.test(l) ? i : -1)).filter((i) => i >= 0)
  const start = r.pick(starts)
  const count = r.int(20, 160)
  return all.slice(start, start + count).join('')
}

/** A read window somewhere in a file, near a line a log named. */
function readAround(r, file) {
  const total = lines(file.fixture).length
  const limit = r.int(40, 160)
  const offset = r.int(1, Math.max(1, total - limit))
  return read(file, offset, limit)
}

/**
 * The debugging loop: run the suite, then per round a look at the code (a
 * read, sometimes a grep), a small edit, and the suite again, whose log
 * differs from the last one only in timings and a few numbers.
 */
export function debugLoop(seed) {
  const r = rng(seed)
  const suites = [
    { run: RUN('runs-tune-b/py-pytest-dateutil', 'python -m pytest -p no:cacheprovider tests'), code: CODE.py, search: SEARCH.slice(0, 3), rounds: 9, prompt: 'The dateutil test suite fails since my parser change. Find out why and fix it.' },
    { run: RUN('runs-tune/js-jest-app', 'npx jest --rootDir . --verbose test-jest'), code: CODE.js, search: SEARCH.slice(6), rounds: 8, prompt: 'Now the jest suite of the app fails too; fix it the same way.' },
    { run: RUN('runs-holdout/pytest-splitat', 'python -m pytest -v -p no:cacheprovider tests/test_more.py'), code: CODE.py, search: SEARCH.slice(0, 3), rounds: 7, prompt: 'Last one: tests/test_more.py fails in split_at. Make it pass.' },
  ]
  const turns = suites.map((suite) => {
    const calls = []
    let log = raw(suite.run.fixture)
    calls.push(bash(suite.run.command, log, suite.run.exitCode, 'Run the test suite'))
    for (let round = 0; round < suite.rounds; round++) {
      const file = r.pick(suite.code)
      if (r.chance(0.4)) {
        const search = r.pick(suite.search)
        calls.push(bash(search.command, window(r, search.fixture, 8, 40)))
      }
      calls.push(readAround(r, file))
      calls.push(edit(r, file.path))
      log = rerun(log, r)
      calls.push(bash(suite.run.command, log, suite.run.exitCode, 'Re-run the test suite'))
    }
    return { prompt: suite.prompt, calls, answer: 'The suite still fails at the same assertion; the cause is in the parser, described above.' }
  })
  return { name: 'debug-loop', turns }
}

/**
 * The exploration: reads through files in windows (continuing where the
 * last read of the file ended), greps, listings, JSON, history.
 */
export function exploration(seed) {
  const r = rng(seed)
  const files = [...CODE.py, ...CODE.js, ...CODE.rs, ...CODE.c, ...CODE.go]
  const next = new Map()
  const prompts = [
    'Get to know this workspace: its layout, its main modules and how they fit together.',
    'Which functions raise errors on bad input, and where are they called from?',
    'Summarise the dependencies and the recent history.',
  ]
  const counts = [30, 28, 26]
  const turns = prompts.map((prompt, t) => {
    const calls = []
    if (t === 0) calls.push(bash(LISTINGS[0].command, raw(LISTINGS[0].fixture)))
    while (calls.length < counts[t]) {
      const x = r.next()
      if (x < 0.5) {
        const file = r.pick(files)
        const total = lines(file.fixture).length
        const offset = next.get(file.path) ?? 1
        const limit = r.pick([120, 250, 500, 2000])
        calls.push(read(file, offset, limit))
        next.set(file.path, offset + limit > total ? 1 : offset + limit)
      } else if (x < 0.75) {
        // A broad search prints all it finds; a narrower one, a few lines of it.
        const search = r.pick(SEARCH)
        calls.push(bash(search.command, r.chance(0.5) ? raw(search.fixture) : window(r, search.fixture, 10, 120), 0, undefined, 'head'))
      } else if (x < 0.87) {
        const listing = r.pick(LISTINGS)
        calls.push(bash(listing.command, r.chance(0.5) ? raw(listing.fixture) : window(r, listing.fixture, 10, 120), 0, undefined, 'head'))
      } else if (x < 0.94) {
        const json = r.pick(JSON_OUTPUTS)
        calls.push(bash(json.command, raw(json.fixture), 0, undefined, 'head'))
      } else {
        const history = r.pick(HISTORY)
        calls.push(bash(history.command, raw(history.fixture), 0, undefined, 'head'))
      }
    }
    return { prompt, calls, answer: 'Here is what I found, with the files and lines above.' }
  })
  return { name: 'exploration', turns }
}

/**
 * The build-and-fix loop: per toolchain, a sequence of failing builds (the
 * next one once the last error is fixed), each built again after a fix
 * attempt (the same log, re-timed), with reads, edits and `git diff`s.
 */
export function buildFix(seed) {
  const r = rng(seed)
  const phases = [
    {
      prompt: 'Make the Rust workspace build and its tests and lints pass.',
      code: CODE.rs,
      diffs: DIFFS.rs,
      runs: [
        RUN('runs-holdout/cargo-borrow', 'cargo build -v --color never', 101),
        RUN('runs-tune-b/rs-cargo-build-vv', 'cargo build -vv --color never', 101),
        RUN('runs-tune/rs-clippy-pedantic', 'cargo clippy --color never -- -W clippy::pedantic -D warnings', 101),
        RUN('runs-tune/rs-cargo-test-indexmap', 'cargo test --no-fail-fast --color never', 101),
        RUN('logdx-dev/cargo-tokio-001', 'gh run view --log-failed'),
      ],
    },
    {
      prompt: 'Now the TypeScript side: tsc and eslint must be clean.',
      code: CODE.js,
      diffs: DIFFS.js,
      runs: [
        RUN('runs-tune/js-tsc-checkjs', 'npx tsc -p tsconfig.json', 2),
        RUN('runs-tune-b/js-tsc-pretty', 'npx tsc -p tsconfig.yaml.json', 2),
        RUN('runs-tune-b/js-eslint', 'npx eslint qs yaml'),
        RUN('logdx-dev/lint-react-001', 'gh run view --log-failed'),
      ],
    },
    {
      prompt: 'The C library does not build; fix the build.',
      code: CODE.c,
      diffs: DIFFS.c,
      runs: [
        RUN('generated/make-gcc-error', 'make', 2),
        RUN('runs-tune/c-make-gcc', 'make -k', 2),
        RUN('runs-tune-b/cpp-gxx-template', 'g++ -std=c++17 -Wall -Wextra -O1 -c index.cpp -o index.o'),
        RUN('runs-holdout/make-link', 'make', 2),
      ],
    },
    {
      prompt: 'Finally make mypy --strict and the linters pass on the Python package.',
      code: CODE.py,
      diffs: DIFFS.py,
      runs: [
        RUN('runs-tune/py-mypy-toolz', 'mypy --strict toolz'),
        RUN('runs-tune-b/py-mypy-attrs', 'mypy --strict --no-incremental src/attr'),
        RUN('runs-holdout/flake8-attrs', 'flake8 --isolated --max-line-length 72 src tests'),
        RUN('runs-holdout/pylint-toolz', 'pylint toolz --disable=R', 4),
      ],
    },
  ]
  const turns = phases.map((phase) => {
    const calls = []
    for (const run of phase.runs) {
      let log = raw(run.fixture)
      calls.push(bash(run.command, log, run.exitCode, 'Build'))
      const attempts = r.int(1, 3)
      for (let a = 0; a < attempts; a++) {
        const file = r.pick(phase.code)
        calls.push(readAround(r, file))
        calls.push(edit(r, file.path))
        if (r.chance(0.6)) calls.push(bash('git diff', diffSlice(r, r.pick(phase.diffs))))
        // The last attempt fixes it (the next run is a different error);
        // the others print the same log again, re-timed.
        if (a < attempts - 1) {
          log = rerun(log, r)
          calls.push(bash(run.command, log, run.exitCode, 'Build again'))
        }
      }
    }
    return { prompt: phase.prompt, calls, answer: 'It builds now; the fixes are in the diffs above.' }
  })
  return { name: 'build-fix', turns }
}

export const SHAPES = [debugLoop, exploration, buildFix]
