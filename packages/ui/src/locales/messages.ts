/** Strings of the messages area. */
export const en = {};

export const zhCN: typeof en = {};
