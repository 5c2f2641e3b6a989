// The config keys as command-line flags, from the core's key table
// (configKeys: each key's flag, placeholder and help), validated exactly as
// the plugin validates its config (resolveConfig), so the messages are the same.
import { configKeys } from '../index.js'
import { DEFAULTS, PRUNE_MARKER, resolveConfig } from '../lib/config.js'
import { CliError } from './errors.js'

/** The keys the command line takes, each with its flag. */
const FLAGGED = configKeys().filter((key) => key.flag !== undefined)

/** Flag name → config key. */
export const CONFIG_FLAGS = Object.fromEntries(FLAGGED.map((key) => [key.flag, key.name]))

/** parseArgs option specs for the config flags. */
export const CONFIG_OPTIONS = Object.fromEntries(FLAGGED.map((key) => [key.flag, { type: 'string' }]))

/** The flags' lines of the help, in the table's order. */
export const CONFIG_HELP = FLAGGED.map((key) => `  --${key.flag} ${key.arg}`.padEnd(24) + key.help).join('\n')

/** Config key → whether its value is a number (an integer range). */
const NUMERIC = Object.fromEntries(FLAGGED.map((key) => [key.name, key.min !== undefined]))

/** A flag value as the config sees it: a number when it reads as one, else the raw text. */
function flagValue(key, text) {
  if (!NUMERIC[key]) return text
  const n = Number(text)
  return text.trim() !== '' && !Number.isNaN(n) ? n : text
}

/**
 * Head and tail in the defaults' ratio (4:1) within what `budget` code
 * points leave beside the marker: upstream's cut at output size `budget`.
 */
export function headTailWithin(budget) {
  const room = Math.max(0, budget - PRUNE_MARKER.length)
  const headChars = Math.round((room * DEFAULTS.headChars) / (DEFAULTS.headChars + DEFAULTS.tailChars))
  return { headChars, tailChars: room - headChars }
}

/**
 * The command line's config, resolved: a threshold given without a head or
 * a tail, too small for the default ones and the marker, takes both in
 * their ratio within it (`--threshold-chars 2048` alone asks for output of
 * that size); the plugin's config, which names every key it sets, does not.
 */
export function resolveCliConfig(config) {
  const threshold = config.thresholdChars
  const fits = DEFAULTS.headChars + PRUNE_MARKER.length + DEFAULTS.tailChars
  const alone = config.headChars === undefined && config.tailChars === undefined
  const small = Number.isSafeInteger(threshold) && threshold > PRUNE_MARKER.length && threshold < fits
  return resolveConfig(alone && small ? { ...config, ...headTailWithin(threshold) } : config)
}

/** The resolved config from parsed flag values; a bad value is a CliError with the plugin's message. */
export function configFromFlags(values) {
  const config = {}
  for (const [flag, key] of Object.entries(CONFIG_FLAGS)) {
    if (values[flag] !== undefined) config[key] = flagValue(key, values[flag])
  }
  try {
    return resolveCliConfig(config)
  } catch (error) {
    throw new CliError(error.message)
  }
}
