// Imports each module named on the command line and prints its export names as JSON; any error
// (a named import Node cannot link, a top-level call that throws) ends the process with its message.
// Run with `--conditions=react-server --conditions=@aguikit/source` to load the sources as a
// React Server Components environment would.
import { register } from 'node:module';

register('./tsHooks.mjs', import.meta.url);

const exported = {};
for (const specifier of process.argv.slice(2)) exported[specifier] = Object.keys(await import(specifier)).sort();
process.stdout.write(JSON.stringify(exported));
