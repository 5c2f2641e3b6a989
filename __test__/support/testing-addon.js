// The testing addon (`npm run build:testing`, cargo feature `testing`): the
// published addon's exports plus the test and bench hooks (`__testPanic`,
// `receiveTexts`). Loaded by its own path, never through a generated
// loader: while the package's module graph is evaluated, platform.js points
// every napi-rs loader at the published binary (NAPI_RS_NATIVE_LIBRARY_PATH),
// so a loader imported beside it would load that one instead.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { currentPlatform } from '../../platform.js'

const require = createRequire(import.meta.url)
const { napi } = require('../../package.json')

/** The testing addon's exports. */
export const hooks = require(fileURLToPath(new URL(`../../target/testing/addon/${napi.binaryName}.${currentPlatform()}.node`, import.meta.url)))
