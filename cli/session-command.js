// `session FILE` and `retrieve HASH --session FILE`: a dsh session log
// replayed into the real dsh Session, pruned by the real service.
import { Context } from '@deepseek-ai/cordis'
import { Session } from '@deepseek-ai/dsh-session'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import { findHash, HASH_LEN, isOriginalToolResult, toolCall, toolResultText } from '../index.js'
import ToolResultPruner from '../lib/index.js'
import { CliError } from './errors.js'
import { countMarkers } from './markers.js'
import { readSessionLog, writeSessionLog } from './session-log.js'

/** The log's events replayed into a detached dsh Session. */
function replay(log) {
  return asBadLog(log, 'the events do not replay as a dsh session', () => Session.create(log.header.id, log.events, log.header))
}

/**
 * `work()` over the log's data, with whatever it throws (dsh rejecting a
 * header or an event, the pruner naming a field, a stack overflow on data
 * nested too deep) as one line naming the log: the data is the user's.
 */
function asBadLog(log, what, work) {
  try {
    return work()
  } catch (error) {
    throw new CliError(`${log.file}: ${what}: ${String(error?.message ?? error).split('\n')[0]}`)
  }
}

/** The toolResultPruner service, with the real token meter, for `config`. */
async function service(config) {
  const ctx = new Context()
  await ctx.plugin(TokenMeter)
  await ctx.plugin(ToolResultPruner, config)
  return ctx.toolResultPruner
}

/**
 * Tool name by call id, from the log's tool/call events. dsh's Session
 * replays a tool/call whatever its data (`null` included) and derives
 * nothing from it, so one without data, or without a string name, is
 * skipped here too (`toolCall` gives `undefined`): its row shows `?`.
 */
function toolNames(events) {
  const names = new Map()
  for (const e of events) {
    const call = toolCall(e)
    if (call !== undefined) names.set(call.callId, call.name)
  }
  return names
}

function table(rows) {
  const header = ['seq', 'tool', 'call id', 'code points before → after', 'markers']
  const cells = rows.map((r) => [String(r.seq), r.tool, r.callId, `${r.before} → ${r.after}`, String(r.markers)])
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)))
  const line = (c) => c.map((x, i) => (i === 0 || i >= 3 ? x.padStart(widths[i]) : x.padEnd(widths[i]))).join('  ')
  return [line(header), ...cells.map(line)].join('\n')
}

/**
 * Prunes a session log and prints one row per pruned result and the totals;
 * with `out`, writes the pruned log there (original events kept,
 * replacements appended).
 */
export async function sessionCommand(file, config, { out } = {}) {
  const log = readSessionLog(file)
  const session = replay(log)
  const pruner = await service(config)
  const results = log.events.filter(isOriginalToolResult).length
  const report = asBadLog(log, 'cannot prune it', () => pruner.pruneSession(session))
  const names = toolNames(log.events)
  const rows = report.pruned.map((entry) => {
    const replacement = session.events[entry.replacementSeq]
    return {
      seq: entry.originalSeq,
      tool: names.get(entry.callId) ?? '?',
      callId: String(entry.callId),
      before: entry.charsBefore,
      after: entry.charsAfter,
      markers: countMarkers(toolResultText(replacement)),
    }
  })
  const before = rows.reduce((n, r) => n + r.before, 0)
  const after = rows.reduce((n, r) => n + r.after, 0)
  const lines = []
  if (rows.length > 0) lines.push(table(rows), '')
  const saved = before === 0 ? 0 : (100 * (before - after)) / before
  lines.push(`pruned ${rows.length} of ${results} tool results (${config.strategy}): ${before} → ${after} code points, saved ${before - after} (${saved.toFixed(1)}%)`)
  if (out !== undefined) {
    const appended = session.events.slice(log.events.length)
    await writeSessionLog(log, appended, out)
    lines.push(`wrote ${out}: ${log.events.length} original events kept, ${appended.length} appended`)
  }
  process.stdout.write(lines.join('\n') + '\n')
}

/** `text` for a message, quoted, and cut to 80 code points when longer. */
const quoted = (text) => {
  const chars = Array.from(text)
  return `"${chars.length > 80 ? `${chars.slice(0, 77).join('')}...` : text}"`
}

/**
 * Prints the exact text behind the marker `arg` names (its hash, or the
 * whole marker) in the session log `file`; with `json`, as a JSON string,
 * which keeps a lone surrogate exact where UTF-8 output cannot.
 * @throws CliError with status 2 when `arg` holds no hash, 1 when no marker
 *   in the session has it.
 */
export async function retrieveCommand(arg, file, { json = false } = {}) {
  // What `tool_result_retrieve` takes as its `hash`: a bare hash, a whole
  // marker, or either with text around it.
  const hash = findHash(arg)
  if (hash === undefined) {
    throw new CliError(`retrieve: ${quoted(arg)} holds no marker hash: give the ${HASH_LEN} lowercase hex digits after <<ccr:, or the whole marker`)
  }
  const log = readSessionLog(file)
  const session = replay(log)
  const pruner = await service({})
  const text = asBadLog(log, 'cannot search it', () => pruner.retrieve(session, hash))
  if (text === undefined) {
    throw new CliError(`${log.file}: no marker with hash "${hash}" was written into this session's tool results`, 1)
  }
  process.stdout.write(json ? JSON.stringify(text) + '\n' : text)
}
