import type { Decorator, Preview } from '@storybook/react-vite';
import { useEffect } from 'react';
import { AgentLocaleProvider, en, zhCN } from '../packages/ui/src/locale.js';
import '../packages/ui/src/styles.css';

const locales = { en, 'zh-CN': zhCN } as const;

/** The theme on the whole canvas (the document), not only behind the story. */
const withTheme: Decorator = (Story, context) => {
  const theme = context.globals.theme === 'dark' ? 'dark' : 'light';
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.classList.add('agk-theme');
    document.body.classList.add('agk-canvas');
  }, [theme]);
  return (
    // The whole canvas in a story; in a docs page each story is a preview as tall as it is.
    <div
      className="agk-theme agk-canvas"
      data-theme={theme}
      style={{ padding: 16, minHeight: context.viewMode === 'docs' ? undefined : '100vh', boxSizing: 'border-box' }}
    >
      <Story />
    </div>
  );
};

/** The language of every aguikit component in the story (`globals: { locale: 'zh-CN' }` in a story pins it). */
const withLocale: Decorator = (Story, context) => {
  const tag = context.globals.locale === 'zh-CN' ? 'zh-CN' : 'en';
  useEffect(() => {
    document.documentElement.lang = tag;
  }, [tag]);
  return (
    <AgentLocaleProvider locale={locales[tag]}>
      <Story />
    </AgentLocaleProvider>
  );
};

/** The page's direction (`globals: { dir: 'rtl' }` in a story pins it): the components' start and end follow it. */
const withDirection: Decorator = (Story, context) => {
  const dir = context.globals.dir === 'rtl' ? 'rtl' : 'ltr';
  useEffect(() => {
    document.documentElement.dir = dir;
  }, [dir]);
  return (
    <div dir={dir}>
      <Story />
    </div>
  );
};

const preview: Preview = {
  decorators: [withDirection, withLocale, withTheme],
  globalTypes: {
    theme: {
      description: 'Color theme',
      toolbar: { title: 'Theme', icon: 'mirror', items: ['light', 'dark'], dynamicTitle: true },
    },
    locale: {
      description: 'Language of the components',
      toolbar: {
        title: 'Language',
        icon: 'globe',
        items: [
          { value: 'en', title: 'English' },
          { value: 'zh-CN', title: '简体中文' },
        ],
        dynamicTitle: true,
      },
    },
    dir: {
      description: 'Direction of the page',
      toolbar: {
        title: 'Direction',
        icon: 'transfer',
        items: [
          { value: 'ltr', title: 'Left to right' },
          { value: 'rtl', title: 'Right to left' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: 'light', locale: 'en', dir: 'ltr' },
  tags: ['autodocs'],
  parameters: {
    // Accessibility violations fail the story tests.
    // WCAG 2.2 AA: axe's target-size rule (2.5.8, targets of at least 24 by 24 CSS px or spaced so) is off by default.
    a11y: { test: 'error', config: { rules: [{ id: 'target-size', enabled: true }] } },
    layout: 'fullscreen',
    controls: { expanded: true, matchers: { color: /(background|color)$/i } },
    docs: {
      // A component's doc comment, without its @example (whose code react-docgen drops, leaving the tag alone): the stories are the examples.
      extractComponentDescription: (component: { __docgenInfo?: { description?: string } } | undefined) =>
        component?.__docgenInfo?.description?.split(/\n?@example\b/)[0]?.trim() ?? null,
    },
  },
};

export default preview;
