/**
 * `@aguikit/core/bindings`: what a framework binding (`@aguikit/react`) and
 * the components (`@aguikit/ui`) import next to the main entry and load up
 * front. Kept apart from
 * `@aguikit/core/internal`, whose other exports reach the engine: a bundler
 * that splits by file (esbuild) would load that up front too. Not part of the
 * public API: a name here may change in any release.
 */

export { copyOf, reportThrown, tellApp } from './controller/report.js';
export { jsonKeys } from './plainJson.js';
