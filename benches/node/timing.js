// Timing helpers shared by the Node benchmarks: alternate runs, medians.

export const now = () => Number(process.hrtime.bigint()) / 1e6

/** Calls per sample of `f`, so that a sample lasts about 5 ms. */
function calibrate(f) {
  let t = now()
  f()
  const first = now() - t
  t = now()
  f()
  const once = Math.max(Math.min(first, now() - t), 1e-4)
  return Math.max(1, Math.min(5000, Math.ceil(5 / once)))
}

/**
 * Runs the functions alternately (rotating which goes first), `samples`
 * times each, and returns each one's median time per call in ms.
 */
export function race(fns, samples) {
  const names = Object.keys(fns)
  for (const name of names) fns[name]() // warm-up
  const batch = Object.fromEntries(names.map((n) => [n, calibrate(fns[n])]))
  const times = Object.fromEntries(names.map((n) => [n, []]))
  for (let s = 0; s < samples; s++) {
    const order = names.map((_, i) => names[(i + s) % names.length])
    for (const name of order) {
      const f = fns[name]
      const k = batch[name]
      // Start each sample from a collected heap, so one side's garbage
      // (upstream's code-point arrays) is not charged to the other.
      globalThis.gc?.()
      const t = now()
      for (let i = 0; i < k; i++) f()
      times[name].push((now() - t) / k)
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(times[n])]))
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
