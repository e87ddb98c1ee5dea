/** Strings of the devtools area. */
export const en = {};

export const zhCN: typeof en = {};
