/** Strings of the tools area. */
export const en = {};

export const zhCN: typeof en = {};
