// The config keys as command-line flags, validated exactly as the plugin
// validates its config (resolveConfig), so the messages are the same.
import { PRUNE_MARKER_LEN } from '../index.js'
import { DEFAULTS, resolveConfig } from '../lib/config.js'
import { CliError } from './errors.js'

/** Flag name → config key. */
export const CONFIG_FLAGS = {
  'threshold-chars': 'thresholdChars',
  'head-chars': 'headChars',
  'tail-chars': 'tailChars',
  strategy: 'strategy',
  'keep-chars': 'keepChars',
  'context-lines': 'contextLines',
  'edge-lines': 'edgeLines',
}

/** parseArgs option specs for the config flags. */
export const CONFIG_OPTIONS = Object.fromEntries(Object.keys(CONFIG_FLAGS).map((f) => [f, { type: 'string' }]))

export const CONFIG_HELP = `  --threshold-chars N   prune when longer than N code points (default ${DEFAULTS.thresholdChars})
  --head-chars N        leading code points kept (default ${DEFAULTS.headChars})
  --tail-chars N        trailing code points kept (default ${DEFAULTS.tailChars})
  --strategy S          head-tail (default, upstream's rule) or lines
  --keep-chars N        lines mode: code points kept at most (default head + ${PRUNE_MARKER_LEN} + tail)
  --context-lines N     lines mode: neighbours kept around each kept line (default ${DEFAULTS.contextLines})
  --edge-lines N        lines mode: lines kept at the start and the end (default ${DEFAULTS.edgeLines})`

/** A flag value as the config sees it: a number when it reads as one, else the raw text. */
function flagValue(key, text) {
  if (key === 'strategy') return text
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
