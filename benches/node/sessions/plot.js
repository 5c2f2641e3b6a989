// bill.svg: per window and session shape, upstream's and our policy's cost
// under one price table, and the large results within the recent window the
// model read whole. A plain SVG written by the bench, no dependencies.

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])

/**
 * @param runs - the bench's runs: `[{ contextWindow, results: [{ shape, rows }] }]`.
 * @param options.contender - the row drawn beside upstream's.
 * @param options.table - the price table the costs are drawn in (a prices.json entry).
 * @returns the SVG text.
 */
export function plot(runs, { contender, table }) {
  const groups = runs.flatMap(({ contextWindow, results }) =>
    results.map(({ shape, rows }) => {
      const up = rows.find((r) => r.contender === 'upstream')
      const ours = rows.find((r) => r.contender === contender)
      return { label: shape.name, window: `${contextWindow / 1000}k`, up, ours }
    }),
  )
  const W = 120
  const left = 70
  const width = left + groups.length * W + 20
  const panel = 170
  const height = 60 + 2 * (panel + 70) + 30
  const parts = []
  const text = (x, y, s, attrs = '') => parts.push(`<text x="${x}" y="${y}" ${attrs}>${esc(s)}</text>`)
  const bars = (top, title, value, label, max) => {
    text(left, top - 12, title, 'font-weight="bold"')
    parts.push(`<line x1="${left}" y1="${top + panel}" x2="${width - 20}" y2="${top + panel}" stroke="#444"/>`)
    groups.forEach((g, i) => {
      const x0 = left + i * W + 18
      for (const [k, row, fill] of [[0, g.up, '#9a9a9a'], [1, g.ours, '#2f6db3']]) {
        if (row === undefined || row.rejected !== undefined) continue
        const h = Math.round((value(row) / max) * panel)
        const x = x0 + k * 42
        parts.push(`<rect x="${x}" y="${top + panel - h}" width="38" height="${h}" fill="${fill}"/>`)
        text(x + 19, top + panel - h - 4, label(row), 'text-anchor="middle" font-size="10"')
      }
      text(x0 + 40, top + panel + 14, g.label, 'text-anchor="middle" font-size="11"')
      text(x0 + 40, top + panel + 27, g.window, 'text-anchor="middle" font-size="11" fill="#555"')
    })
  }
  const cost = (row) => row.bill.costs[table.name]
  const maxCost = Math.max(...groups.flatMap((g) => [g.up, g.ours].filter((r) => r?.bill).map(cost)))
  text(left, 22, `Session replay: upstream (grey) and ${contender} (blue)`, 'font-size="14" font-weight="bold"')
  bars(70, `Cost of the session, USD at ${table.name} (${table.hit} hit / ${table.miss} miss / ${table.output} output per 1M tokens)`, cost, (r) => `$${cost(r).toFixed(3)}`, maxCost * 1.1)
  bars(70 + panel + 70, 'Large results within the recent window read whole', (r) => r.fittingReadWhole, (r) => `${r.fittingReadWhole}/${r.fittingResults}`, Math.max(...groups.map((g) => g.up.fittingResults)) * 1.1)
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n')
}
