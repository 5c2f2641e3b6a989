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

/** Prints `message` as the command's one-line error on stderr. */
export function printError(message) {
  process.stderr.write(`tool-result-pruner: ${message}\n`)
}
