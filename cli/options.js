// The config keys as command-line flags, from the core's key table
// (configKeys: each key's flag, placeholder and help), validated exactly as
// the plugin validates its config (resolveConfig), so the messages are the same.
import { configKeys } from '../index.js'
import { resolveConfig } from '../lib/config.js'
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

/** The resolved config from parsed flag values; a bad value is a CliError with the plugin's message. */
export function configFromFlags(values) {
  const config = {}
  for (const [flag, key] of Object.entries(CONFIG_FLAGS)) {
    if (values[flag] !== undefined) config[key] = flagValue(key, values[flag])
  }
  try {
    return resolveConfig(config)
  } catch (error) {
    throw new CliError(error.message)
  }
}
