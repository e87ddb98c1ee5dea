import type { NextConfig } from 'next';

const config: NextConfig = {
  // The route handler streams the agent's SSE through; nothing else to configure.
  poweredByHeader: false,
};

export default config;
