// Counting the markers in a pruned text, for the command's reports.
import { PRUNE_MARKER } from '../lib/config.js'

const CCR = /<<ccr:[0-9a-f]{24} \d+_(?:lines|chars)_offloaded>>/g

/** Retrievable ccr markers in `text`, or 1 for upstream's one marker, else 0. */
export function countMarkers(text) {
  const ccr = text.match(CCR)?.length ?? 0
  return ccr > 0 ? ccr : text.includes(PRUNE_MARKER) ? 1 : 0
}
