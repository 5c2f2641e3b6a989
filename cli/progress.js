// A progress bar on stderr, only when stderr is a terminal and the work is
// large; otherwise every call is a no-op.

const WIDTH = 30

/**
 * @param {string} label - what is being done.
 * @param {number} total - units of work.
 * @param {{ force?: boolean }} [options] - draw even when not a terminal (tests).
 */
export function progress(label, total, { force = false } = {}) {
  const enabled = force || (process.stderr.isTTY && total > 0)
  let last = 0
  const draw = (done) => {
    const fraction = Math.min(1, done / total)
    const filled = Math.round(fraction * WIDTH)
    process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${Math.round(fraction * 100)}%`)
  }
  return {
    /** Report `done` units (drawn at most every 100 ms). */
    update(done) {
      if (!enabled) return
      const now = Date.now()
      if (now - last < 100 && done < total) return
      last = now
      draw(done)
    },
    /** Clear the bar. */
    done() {
      if (!enabled) return
      draw(total)
      process.stderr.write('\r' + ' '.repeat(label.length + WIDTH + 8) + '\r')
    },
  }
}
