// The bill of one replay against upstream's replay of the same session at
// the same window: what a provider with a prefix cache charges for it under
// each price table of prices.json, the tokens of results the contender let
// the model read whole where upstream cut them unread ("extra read"), less
// those upstream let it read whole and this contender cut unread (the
// timelines part after a pass that differs, so both happen), and the
// waste: the cache-miss tokens it sent beyond upstream's that are not paid
// for by that net extra reading. Netting keeps waste from falling when a
// contender reads less than upstream.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

/** prices.json: the tables, their date and where each number came from. */
export const PRICES = JSON.parse(readFileSync(join(here, 'prices.json'), 'utf8'))

/** USD of `row`'s tokens under `table` (prices per million tokens). */
export const cost = (row, table) => (row.missTokens * table.miss + row.hitTokens * table.hit + row.outputTokens * table.output) / 1e6

/**
 * The bill of `row` (a `measure` result) against `upstream`'s.
 * @returns {{ costs: Record<string, number>, costDelta: Record<string, number>, extraRead: number, extraReadResults: number, readLess: number, waste: number }}
 *   costs in USD per table name, their change against upstream's (a
 *   fraction), the tokens (meter prices, whole) and number of results read
 *   whole here and cut unread by upstream, the tokens of results upstream
 *   read whole and this row did not (`readLess`), and
 *   waste = (miss − upstream's miss) − (extraRead − readLess).
 */
export function bill(row, upstream) {
  if (row.wholeByCall.length !== upstream.wholeByCall.length) throw new Error('the two replays ran different scripts')
  let extraRead = 0
  let extraReadResults = 0
  let readLess = 0
  row.wholeByCall.forEach((whole, i) => {
    if (whole && !upstream.wholeByCall[i]) {
      extraRead += row.tokensByCall[i]
      extraReadResults++
    } else if (!whole && upstream.wholeByCall[i]) {
      readLess += row.tokensByCall[i]
    }
  })
  const costs = Object.fromEntries(PRICES.tables.map((t) => [t.name, Number(cost(row, t).toFixed(6))]))
  const costDelta = Object.fromEntries(PRICES.tables.map((t) => [t.name, Number((cost(row, t) / cost(upstream, t) - 1).toFixed(4))]))
  return { costs, costDelta, extraRead, extraReadResults, readLess, waste: row.missTokens - upstream.missTokens - (extraRead - readLess) }
}
