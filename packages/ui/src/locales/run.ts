/** Strings of the run area. */
export const en = {};

export const zhCN: typeof en = {};
