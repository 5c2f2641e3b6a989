// Counts and tokens of one replay, from what the stand-in model received.
//
// Tokens here are the token meter's: its fixed density of 4 UTF-16 code
// units a token (dsh-token-meter's CHARS_PER_TOKEN), applied to whole
// prompts and to their shared prefixes.

const tokens = (chars) => Math.ceil(chars / 4)

/** UTF-16 units before the first one where `a` and `b` differ. */
function sharedPrefix(a, b) {
  const n = Math.min(a.length, b.length)
  let i = 0
  // Coarse steps first, then unit by unit.
  const step = 4096
  while (i + step <= n && a.slice(i, i + step) === b.slice(i, i + step)) i += step
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

const codePoints = (s) => {
  let n = 0
  for (const _ of s) n++
  return n
}

const mean = (xs) => (xs.length === 0 ? 0 : Math.round(xs.reduce((a, b) => a + b, 0) / xs.length))

/**
 * @param run - what `replay` returned.
 * @param options.largeChars - the size over which a pruner may cut a result (thresholdChars).
 * @param options.contextWindow - the model's window: compaction-basic's pressure line, and requests over it.
 * @param options.recentTokens - the policy's window: large results priced at most this many meter tokens "fit".
 */
export function measure(run, { largeChars, contextWindow, recentTokens }) {
  const conversation = run.requests.filter((r) => r.kind === 'conversation')
  // A result is read whole when a request to the model carried its full text.
  const whole = new Set()
  for (const request of conversation) {
    for (const m of request.tools) whole.add(`${m.id}\u0000${m.content}`)
  }
  const readWhole = (call) => whole.has(`${call.callId}\u0000${call.output}`)
  const large = run.calls.filter((c) => codePoints(c.output) > largeChars)
  const fitting = large.filter((c) => c.tokens <= recentTokens)
  // A fitting result cut before it was ever read whole had room, when the
  // first conversation request after it came with no summary before it and
  // would still have been under compaction's threshold with the result whole:
  // its meter reading, less the cut result's price, plus the whole one's.
  const thresholdTokens = Math.floor(contextWindow * run.thresholdRatio)
  const hadRoom = (call) => {
    const made = Number(call.callId.slice('call-'.length))
    const next = run.requests.find((r) => r.index > made)
    if (next === undefined || next.kind !== 'conversation') return false
    const cut = next.tools.find((m) => m.id === call.callId)
    if (cut === undefined) return false
    const cutPrice = call.tokens - tokens(call.output.length) + tokens(cut.content.length)
    return next.meterTokens - cutPrice + call.tokens < thresholdTokens
  }

  // Cache prefix: per request, the tokens before the first unit that differs
  // from the previous request's prompt (summary requests included: the
  // provider's cache sees them in the same order).
  let prefixTokens = 0
  let promptTokensAll = 0
  run.requests.forEach((r, i) => {
    promptTokensAll += tokens(r.prompt.length)
    if (i > 0) prefixTokens += Math.floor(sharedPrefix(run.requests[i - 1].prompt, r.prompt) / 4)
  })

  const meter = conversation.map((r) => r.meterTokens)
  const prompt = conversation.map((r) => tokens(r.prompt.length))
  const prunes = run.events.filter((e) => e.type === 'compaction/prune')
  return {
    toolResults: run.calls.length,
    readWhole: run.calls.filter(readWhole).length,
    largeResults: large.length,
    largeReadWhole: large.filter(readWhole).length,
    fittingResults: fitting.length,
    fittingReadWhole: fitting.filter(readWhole).length,
    fittingCutWithRoom: fitting.filter((c) => !readWhole(c) && hadRoom(c)).length,
    conversationRequests: conversation.length,
    summaryRequests: run.requests.filter((r) => r.kind === 'summary').length,
    summaries: run.events.filter((e) => e.type === 'compaction/summary').length,
    failedCompactions: run.events.filter((e) => e.type === 'compaction/end' && e.error !== undefined).length,
    resultsCut: prunes.length,
    prunePasses: run.passes.length,
    prunePassesBelowThreshold: run.passes.filter((p) => p.before < thresholdTokens).length,
    prunePassMinTokens: Math.min(...run.passes.map((p) => p.before)),
    prunePassesStillOver: run.passes.filter((p) => p.after >= thresholdTokens).length,
    prunePassWindows: [...new Set(run.passes.map((p) => p.contextWindow))],
    meterTokensMean: mean(meter),
    meterTokensMax: Math.max(0, ...meter),
    requestsOverWindow: meter.filter((t) => t > contextWindow).length,
    promptTokensMean: mean(prompt),
    promptTokensMax: Math.max(0, ...prompt),
    promptTokensTotal: promptTokensAll,
    cachePrefixTokens: prefixTokens,
    cachePrefixShare: promptTokensAll === 0 ? 0 : Number((prefixTokens / promptTokensAll).toFixed(4)),
    uncachedTokens: promptTokensAll - prefixTokens,
    // The bill's three counts: prompt tokens the cache cannot serve (the
    // column above), those it can (the prefix kept), and the model's output
    // (its tool calls, answers and checkpoints).
    missTokens: promptTokensAll - prefixTokens,
    hitTokens: prefixTokens,
    outputTokens: run.requests.reduce((n, r) => n + tokens((r.output ?? '').length), 0),
    // Per tool result in script order (the same order for every contender):
    // read whole or not, and the meter's price of it whole.
    wholeByCall: run.calls.map(readWhole),
    tokensByCall: run.calls.map((c) => c.tokens),
    turnEnds: run.turnEnds.map((t) => t.kind),
  }
}
