// The native addon. `./platform.js` runs first and fails with one clear
// message where this platform has no binary; `./native.js` is napi-rs's loader.
import './platform.js'

export * from './native.js'
