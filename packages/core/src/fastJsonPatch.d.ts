// fast-json-patch's ES module of the operations alone: its main entry also brings observe/compare (duplex),
// which aguikit does not use and which a bundler cannot leave out of the package's default export.
declare module 'fast-json-patch/module/core.mjs' {
  export * from 'fast-json-patch/module/core';
}
