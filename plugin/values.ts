/** Checks and wording shared by the config resolvers (`config.ts`, `policy.ts`). */

/**
 * Asserts `value` is an integer of at least `min`: a `RangeError` for a
 * number out of range, else a `TypeError`, naming the key.
 */
export function assertInteger(name: string, value: unknown, min: number, what: string): asserts value is number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min) return
  const message = `ToolResultPruneConfig: ${name} (${describe(value)}) must be ${what}`
  throw typeof value === 'number' ? new RangeError(message) : new TypeError(message)
}

/** `${value}` as upstream prints it, without throwing for symbols. */
export function describe(value: unknown): string {
  try {
    return `${value as string}`
  } catch {
    return Object.prototype.toString.call(value)
  }
}
