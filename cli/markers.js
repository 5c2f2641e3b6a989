// Counting the markers in a pruned text, for the command's reports.
import { countMarkers as countRetrievable } from '../index.js'
import { PRUNE_MARKER } from '../lib/config.js'

/** Retrievable ccr markers in `text`, or 1 for upstream's one marker, else 0. */
export function countMarkers(text) {
  const ccr = countRetrievable(text)
  return ccr > 0 ? ccr : text.includes(PRUNE_MARKER) ? 1 : 0
}
