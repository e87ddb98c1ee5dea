import '@aguikit/ui/styles.css';
import './app.css';
import type { ReactNode } from 'react';

export const metadata = { title: 'aguikit in a Next.js app', icons: { icon: 'data:,' } };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
