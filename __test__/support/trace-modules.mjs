// Loaded with `node --import`: records the URL of every ES module the
// process loads, one per line, in the file named by TRACE_MODULES. Tests use
// it to see which package a host really loaded.
import { register } from 'node:module'

register(
  `data:text/javascript,${encodeURIComponent(`
    import { appendFileSync } from 'node:fs'
    export async function load(url, context, next) {
      if (process.env.TRACE_MODULES) appendFileSync(process.env.TRACE_MODULES, url + '\\n')
      return next(url, context)
    }
  `)}`,
)
