// A failure the user caused (bad flag, missing file, corrupt log): one line
// on stderr and exit status 2. Anything else is a bug and keeps its stack.

export class CliError extends Error {
  /**
   * @param {string} message - what went wrong, naming the file (and line).
   * @param {number} [status] - the exit status (2 unless said otherwise).
   */
  constructor(message, status = 2) {
    super(message)
    this.name = 'CliError'
    this.status = status
  }
}

/**
 * C0 and C1 controls, DEL, and the Unicode line and paragraph separators:
 * what can break a line or drive a terminal when a message echoes a path,
 * a flag or a value the user gave.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g
const NAMED = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/** `text` with every control character written as an escape (`\n`, `\x1b`, `\u2028`). */
export function escapeControls(text) {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0)
    return NAMED[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`)
  })
}

/** Prints `message` as the command's one-line error on stderr, its control characters escaped. */
export function printError(message) {
  process.stderr.write(`tool-result-pruner: ${escapeControls(message)}\n`)
}
