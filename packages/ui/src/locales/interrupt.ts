/** Strings of the interrupt area. */
export const en = {};

export const zhCN: typeof en = {};
