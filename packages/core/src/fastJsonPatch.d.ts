// fast-json-patch's ES modules, taken apart: its main entry's default export brings observe/compare (duplex) with the
// operations, which a bundler cannot leave out. compare is imported by the engine alone (engineParts.ts), loaded on demand.
declare module 'fast-json-patch/module/core.mjs' {
  export * from 'fast-json-patch/module/core';
}
declare module 'fast-json-patch/module/duplex.mjs' {
  export * from 'fast-json-patch/module/duplex';
}
