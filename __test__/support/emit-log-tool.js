// A tool for composition tests: `emit_log` returns the text of the file its
// config names, as a tool that prints a long build log would.
import { readFileSync } from 'node:fs'
import { defineTool } from '@deepseek-ai/dsh-tools'

export const name = 'emit-log-tool'
export const inject = ['tools']

export function apply(ctx, config) {
  ctx.tools.register(
    defineTool({
      name: 'emit_log',
      description: 'Print the build log.',
      parameters: {},
      output: { schema: { type: 'string' }, render: (_args, text) => [{ type: 'text', text }] },
      async execute() {
        return readFileSync(config.file, 'utf8')
      },
    }),
  )
}
