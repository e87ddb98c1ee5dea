import * as React from 'react';

/**
 * `React.createContext`, for a context created when its module loads.
 *
 * Why a helper: under the `react-server` condition (a React Server Components
 * environment) React has no `createContext`, yet a server component still
 * imports this package's modules to reference the client components and
 * hooks in them. Calling `createContext` at load would throw there; this
 * returns an inert stand-in instead, which nothing reads, since client
 * components never render in a server environment.
 *
 * @example
 * const ThemeContext = clientContext<'light' | 'dark'>('light');
 */
export function clientContext<T>(defaultValue: T): React.Context<T> {
  if (typeof React.createContext === 'function') return React.createContext(defaultValue);
  return { displayName: 'ClientOnlyContext' } as unknown as React.Context<T>;
}
