// The control case of rsc.test.ts: a named import React does not export under react-server.
import { createContext } from 'react';

export const Context = createContext<null>(null);
