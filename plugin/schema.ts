/**
 * The loader's schema (cordis checks a config with it before construction;
 * `resolveConfig` then decides), built from the core's key table
 * (`configKeys`): upstream's for upstream's keys, and for each key its
 * range and default as the core has them.
 */
import z from '@deepseek-ai/schemastery'
import { type ConfigKey, configKeys, resolveConfig, type StrategyName } from '../index.js'
import type { ToolResultPruneConfig } from './types.js'

/** One key's schema. */
function keySchema(key: ConfigKey): z {
  switch (key.range) {
    case 'integer':
    case 'marker-to-threshold': {
      const count = z.number().step(1).min(key.min ?? 0)
      return key.default === undefined ? count : count.default(key.default as number)
    }
    case 'strategy':
      return z.union(key.values ?? []).default(key.default as StrategyName)
    case 'ratio':
      // The resolver's own check (schemastery has no bound that excludes 0), with its error.
      return z.transform(z.number(), (ratio) => resolveConfig({ [key.name]: ratio })[key.name as 'thresholdRatio'] as number, true)
    case 'tool-rules':
      return z.dict(z.any())
  }
}

/** The plugin's `Config`: every key of the table, in its order. */
export const configSchema = z.object(Object.fromEntries(configKeys().map((key) => [key.name, keySchema(key)]))) as unknown as z<ToolResultPruneConfig>
