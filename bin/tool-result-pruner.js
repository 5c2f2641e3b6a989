#!/usr/bin/env node
// tool-result-pruner: prune tool outputs and dsh session logs; see --help.
import { main } from '../cli/main.js'

await main(process.argv.slice(2))
