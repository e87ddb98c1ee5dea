import type { NextConfig } from 'next';

const config: NextConfig = {
  // As create-next-app sets it up: prerendering checks that nothing renders an id or a time it draws itself.
  cacheComponents: true,
  poweredByHeader: false,
};

export default config;
