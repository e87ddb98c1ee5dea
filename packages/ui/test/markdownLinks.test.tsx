/**
 * A reply's links as a compromised or prompt-injected agent writes them: a
 * link whose words name one site (an address, a domain, an email address)
 * while it goes to another shows where it really goes beside its words, and
 * its words cannot be reordered by direction controls to read as another
 * address. An ordinary link is shown as before.
 */
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AgentLocaleProvider } from '../src/locale.js';
import { MarkdownBody, markdownToText } from '../src/MarkdownRenderer.js';

const show = (text: string) =>
  render(
    <AgentLocaleProvider>
      <MarkdownBody text={text} idPrefix="m-" />
    </AgentLocaleProvider>,
  ).container;

/** What a link shows beside its words as its destination, if anything. */
const destinationOf = (link: Element) => link.querySelector('.agk-markdown__destination')?.textContent;

const only = (container: HTMLElement) => {
  const links = container.querySelectorAll('a');
  expect(links).toHaveLength(1);
  return links[0] as HTMLAnchorElement;
};

describe('a link whose words name another site', () => {
  it.each([
    ['an address', '[https://bank.example.com/login](https://evil.example.net/x)', 'evil.example.net'],
    ['a domain', 'Sign in at [bank.example.com](https://evil.example.net/x).', 'evil.example.net'],
    ['a domain in bold', '[**bank.example.com/login**](https://evil.example.net/x)', 'evil.example.net'],
    ['an address among words', '[Log in at https://bank.example.com now](https://evil.example.net/x)', 'evil.example.net'],
    ['a www domain among words', '[Visit www.bank.example today](https://evil.example.net/x)', 'evil.example.net'],
    [
      'a subdomain the other site owns',
      '[bank.example.com](https://bank.example.com.evil.example.net/)',
      'bank.example.com.evil.example.net',
    ],
    ['a look-alike letter', '[bank.example.com](https://b\u0430nk.example.com/)', 'xn--bnk-6cd.example.com'],
    ['a zero-width space in its words', '[bank.exa\u200bmple.com](https://evil.example.net/)', 'evil.example.net'],
    ['an email address, linked to a site', '[help@bank.example.com](https://evil.example.net/)', 'evil.example.net'],
    ['an email address, linked to another one', '[help@bank.example.com](mailto:help@evil.example.net)', 'help@evil.example.net'],
    ['an address, linked to an email address', '[https://bank.example.com](mailto:help@evil.example.net)', 'help@evil.example.net'],
    ['a domain written with ideographic full stops', '[bank\u3002example\u3002com](https://evil.example.net/)', 'evil.example.net'],
    ['a domain written with one-dot leaders', '[bank\u2024example\u2024com](https://evil.example.net/)', 'evil.example.net'],
    ['a domain that looks like a file name', '[paypal.com.md](https://evil.example.net/)', 'evil.example.net'],
    ['a site whose domain ends like a file', '[docs.rs](https://evil.example.net/docs.rs)', 'evil.example.net'],
    ['a domain on a country code', '[bank.example.de](https://evil.example.net/)', 'evil.example.net'],
    ['a domain in an address whose page is a file', '[https://bank.example.com/terms.pdf](https://evil.example.net/)', 'evil.example.net'],
    ['a domain in full-width letters', '[\uff42\uff41\uff4e\uff4b.example.com](https://evil.example.net/)', 'evil.example.net'],
    ['a domain among words', '[Visit paypal.com now](https://evil.example.net/x)', 'evil.example.net'],
    ['a domain in capitals among words', '[Sign in at PAYPAL.COM](https://evil.example.net/x)', 'evil.example.net'],
    [
      'a domain on a country code among words, with a page',
      '[Log in at bank.example.de/login today](https://evil.example.net/)',
      'evil.example.net',
    ],
    ['a domain among words beside its own', '[example.com or paypal.com](https://example.com/)', 'example.com'],
    [
      'a domain on a country code under a second level among words',
      '[Log in at amazon.co.uk today](https://evil.example.net/)',
      'evil.example.net',
    ],
    ['a capitalized domain on a country code among words', '[Sign in at Amazon.de now](https://evil.example.net/)', 'evil.example.net'],
    ["a domain on India's code among words", '[Log in at amazon.in today](https://evil.example.net/)', 'evil.example.net'],
    ['a domain inside Chinese words', '[请登录paypal.com账户](https://evil.example.net/)', 'evil.example.net'],
    ["a domain on Austria's code", '[bank.example.at](https://evil.example.net/)', 'evil.example.net'],
    // The words name the site, not the one that has taken its name as a subdomain.
    [
      'a site whose name another site begins with',
      '[login.example.com](https://login.example.com.evil.example.net/)',
      'login.example.com.evil.example.net',
    ],
    // A subdomain may belong to anyone (a page of a shared host: someone.github.io): its host is shown.
    ['a subdomain of the site it names', '[example.com](https://login.example.com/)', 'login.example.com'],
    // `.sh` is a country code sites use (bun.sh): a file name on it reads as the site it could be.
    ['a script name on a country code', '[install.sh](https://evil.example.net/x)', 'evil.example.net'],
    // The mail client fills in the other recipients; a reader sees only the address named.
    [
      'an email address whose link copies in another one',
      '[help@bank.example.com](mailto:help@bank.example.com?bcc=spy@evil.example.net)',
      'help@bank.example.com, spy@evil.example.net',
    ],
    [
      'an email address whose link sends to another one too',
      '[help@bank.example.com](mailto:help@bank.example.com?to=spy@evil.example.net)',
      'help@bank.example.com, spy@evil.example.net',
    ],
    [
      'a title (tooltip) that names an address',
      '[Click here](https://evil.example.net/x "https://bank.example.com/login")',
      'evil.example.net',
    ],
    ['a title that names a domain among words', '[Click here](https://evil.example.net/x "Sign in to paypal.com")', 'evil.example.net'],
  ])('%s: shows the host it goes to beside its words', (_, text, destination) => {
    const link = only(show(text));
    expect(destinationOf(link)).toBe(destination);
    // The destination is part of the link's name: a screen reader hears it too, as where the link goes.
    expect(screen.getByRole('link').textContent).toContain(`goes to ${destination}`);
  });

  it.each([
    ['a link', '[b\u0430nk.example.com](https://b\u0430nk.example.com/login)'],
    ['a bare address', 'Sign in at https://b\u0430nk.example.com/login today.'],
    ['a link in letters of another script alone', '[\u0430\u0440\u0440\u04cf\u0435.com](https://\u0430\u0440\u0440\u04cf\u0435.com/)'],
  ])(
    '%s whose host mixes in look-alike letters, in its words and its address alike, shows the host as the browser resolves it',
    (_, text) => {
      const link = only(show(text));
      const host = new URL(link.href).hostname;
      expect(host).toMatch(/^xn--/);
      expect(destinationOf(link)).toBe(host);
    },
  );

  it('a user name before the host (bank.example.com@evil.example.net) shows the host it really goes to', () => {
    const link = only(show('https://bank.example.com@evil.example.net/login'));
    expect(link).toHaveAttribute('href', 'https://bank.example.com@evil.example.net/login');
    expect(destinationOf(link)).toBe('evil.example.net');
  });

  it('an address whose host holds a slash of another script (bank.example.com∕login.evil.example.net) shows the host as the browser resolves it', () => {
    const address = 'https://bank.example.com\u2215login.evil.example.net/';
    const host = new URL(address).hostname;
    expect(host).toContain('xn--');
    for (const text of [`<${address}>`, `[${address}](${address})`]) {
      const link = only(show(text));
      expect(destinationOf(link)).toBe(host);
    }
  });

  it('keeps the destination in a left-to-right island of its own: an override in the text around it cannot reverse it', () => {
    const link = only(show('\u202e[bank.example.com](https://evil.example.net/x)'));
    const destination = link.querySelector('.agk-markdown__destination');
    expect(destination?.tagName).toBe('BDI');
    expect(destination).toHaveAttribute('dir', 'ltr');
  });
});

describe('direction controls before a link', () => {
  // `‮[moc.lapyap ta ni ngiS](…)`: an override in the text before a link runs on into its words, which would read
  // "Sign in at paypal.com", a place the words do not name as written (so no destination shows).
  it.each([
    ['its words', 'Sign in: \u202e[moc.lapyap ta ni ngiS](https://evil.example.net/x)'],
    ['an image link', 'See \u202e![gnp.eciovni](https://files.example.net/x.exe)'],
    ['a bare address', 'Go to \u202ehttps://evil.example.net/moc.lapyap'],
  ])('cannot reverse %s: a link is an island of its own (an element with `dir` isolates its text)', (_, text) => {
    const link = only(show(text));
    expect(link.matches('bdi, [dir]')).toBe(true);
  });
});

describe('direction controls in a link’s words', () => {
  it.each([
    ['an override', '[rtl \u202emoc.elgoog](https://evil.example.net/)'],
    ['an embedding', '[\u202bcom.google\u202c](https://evil.example.net/)'],
    ['an isolate', '[\u2067com.google\u2069](https://evil.example.net/)'],
    ['right-to-left marks', '[com\u200f.\u200fgoogle](https://evil.example.net/)'],
  ])('%s: dropped, so the words read in the order they were written', (_, text) => {
    const link = only(show(text));
    expect(link.textContent).not.toMatch(/[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/);
  });

  it('an address whose file name is reversed by an override reads as written', () => {
    const link = only(show('https://evil.example.net/\u202egpj.exe'));
    expect(link.textContent).toContain('https://evil.example.net/gpj.exe');
    expect(link).toHaveAttribute('href', 'https://evil.example.net/%E2%80%AEgpj.exe');
  });

  it('an image link’s words lose them too', () => {
    const link = only(show('![\u202egnp.eciovni](https://files.example.net/x.exe)'));
    expect(link.textContent).not.toMatch(/\u202e/);
  });
});

describe('an ordinary link', () => {
  it.each([
    ['words', '[the docs](https://example.com)'],
    ['a bare address', 'Tracking is on https://parcelo.example/track/PX-88213 today.'],
    ['a bare domain', 'See www.example.com for more.'],
    ['its own address in angle brackets', '<https://ok.example/x>'],
    ['its own domain', '[bank.example.com](https://bank.example.com/login)'],
    ['its own domain, in capitals', '[BANK.example.com](https://bank.example.com/x)'],
    ['its own domain, without www', '[example.com](https://www.example.com/)'],
    ['its own address, another page', '[https://bank.example.com/](https://bank.example.com/login)'],
    ['an international domain', '[münchen.example](https://xn--mnchen-3ya.example/)'],
    ['a domain in Cyrillic', '[пример.рф](https://пример.рф/)'],
    ['a domain in Greek', 'https://παράδειγμα.δοκιμή/'],
    ['a domain in Chinese', '[例子.中国](https://例子.中国/)'],
    ['Chinese words', '[点击这里查看订单](https://shop.example.cn/o/1)'],
    ['an email address', 'Write to help@shop.example or [support](mailto:help@shop.example).'],
    ['its own email address', '[help@shop.example](mailto:help@shop.example)'],
    ['its own email address with a subject', '[help@shop.example](mailto:help@shop.example?subject=Order%20A-1001&body=Hello)'],
    ['an image', '![the chart](https://files.example.net/chart.png)'],
    ['a file name', '[config.json](https://github.com/acme/shop/blob/main/config.json)'],
    ['a file name with dots in it', '[vite.config.ts](https://github.com/acme/shop/blob/main/vite.config.ts)'],
    ['a readme', '[README.md](https://github.com/acme/shop#readme)'],
    ['a name like Node.js', '[Node.js](https://nodejs.org/en/)'],
    ['names like Node.js and Vue.js among words', '[Install Node.js 20 and Vue.js first](https://nodejs.org/en/download)'],
    ['file names among words', '[Edit vite.config.ts, README.md and setup.py](https://github.com/acme/shop)'],
    ['abbreviations among words', '[See e.g. the U.S. docs, i.e. those at 9 a.m.](https://docs.example.com/)'],
    ['a constant among words', '[the Math.PI constant](https://developer.mozilla.org/en-US/docs/Web/JavaScript)'],
    // Members of code whose names are also countries' codes: `is` Iceland, `at` Austria, `id` Indonesia, `in` India.
    ['a method among words', '[see Object.is](https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Object/is)'],
    ['a method among words, with its use', '[use Array.at to read the last item](https://developer.mozilla.org/en-US/docs/Web)'],
    ['a field among words', '[store user.id in the session](https://docs.example.com/auth)'],
    ['a stream among words', '[read from System.in](https://docs.oracle.com/javase/8/docs/api/java/lang/System.html)'],
    ['a method alone', '[Object.is](https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Object/is)'],
    ['a prototype method alone', '[String.prototype.at](https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference)'],
    ["a short module's function among words", '[call fs.cp recursively](https://nodejs.org/api/fs.html)'],
    ['a short module among words', '[see np.ma masked arrays](https://numpy.org/doc/stable/reference/maskedarray.html)'],
    ['a method among Chinese words', '[参见 Object.is 文档](https://developer.mozilla.org/zh-CN/docs/Web)'],
    ['a field among Chinese words', '[配置 user.id 字段](https://docs.example.com/auth)'],
    // Chinese is written without spaces: a name in Latin letters inside it is a word of its own.
    ['a name like Node.js inside Chinese words', '[详见Node.js官方文档](https://nodejs.org/zh-cn/docs)'],
    ['its own domain among words', '[Visit example.com today](https://www.example.com/)'],
    ['a title that names its own site', '[the docs](https://docs.example.com/ "docs.example.com, the guide")'],
    ['a title of words', '[the docs](https://docs.example.com/ "The guide")'],
  ])('%s: shows its words alone', (_, text) => {
    const container = show(text);
    expect(container.querySelectorAll('a').length).toBeGreaterThan(0);
    expect(container.querySelector('.agk-markdown__destination')).toBeNull();
  });
});

describe('an image inside a link', () => {
  it('is named within that one link, not a second link nested in it', () => {
    const container = show('[![the chart](https://files.example.net/chart.png)](https://shop.example/report)');
    const link = only(container);
    expect(link).toHaveAttribute('href', 'https://shop.example/report');
    expect(link).toHaveTextContent('Image: the chart');
  });

  it('whose text names another site shows where the link goes', () => {
    const link = only(show('[![https://bank.example.com](https://evil.example.net/i.png)](https://evil.example.net/login)'));
    expect(destinationOf(link)).toBe('evil.example.net');
  });
});

describe('a URL that could run a script', () => {
  it.each([
    ['in capitals and lower case', '[a](JaVaScRiPt:alert(1))'],
    ['with a tab written as an entity', '[a](jav&#x09;ascript:alert(1))'],
    ['with its colon written as an entity', '[a](javascript&#58;alert(1))'],
    ['after a NUL', '[a](\u0000javascript:alert(1))'],
    ['after a space', '[a]( javascript:alert(1))'],
    ['a data: page', '[a](data:text/html,<script>alert(1)</script>)'],
    ['vbscript:', '[a](vbscript:msgbox(1))'],
    ['as an image', '![a](javascript:alert(1))'],
    ['as a data: image', '![a](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)'],
  ])('%s: is no link, and nothing is loaded', (_, text) => {
    const container = show(text);
    expect(container.querySelector('a, img, [src]')).toBeNull();
    expect(container.textContent).toContain('a');
  });
});

describe('a name with a dot in text', () => {
  // As on GitHub, text becomes a link by itself only with `www.` or a scheme before it.
  it('java.io, node.js or example.com is no link', () => {
    expect(show('Use java.io, node.js or example.com.').querySelector('a')).toBeNull();
  });
});

describe('a link without words', () => {
  // Nothing to see or hear but "(opens in a new tab)": a reader could neither find it nor tell where it goes.
  it.each([
    ['no words', '[](https://evil.example.net/x)', 'https://evil.example.net/x'],
    ['a space', '[ ](https://evil.example.net/x)', 'https://evil.example.net/x'],
    ['a zero-width space', '[\u200b](https://evil.example.net/x)', 'https://evil.example.net/x'],
    ['a direction mark', '[\u200f](https://evil.example.net/x)', 'https://evil.example.net/x'],
    ['an HTML tag, which is dropped', '[<b></b>](https://evil.example.net/x)', 'https://evil.example.net/x'],
    ['an email address', '[](mailto:help@evil.example.net)', 'help@evil.example.net'],
  ])('%s: shows and reads where it goes as its words', (_, text, place) => {
    const link = only(show(`Details: ${text}`));
    expect(link.textContent).toContain(place);
    expect(link.querySelector('bdi')).toHaveAttribute('dir', 'ltr');
    expect(markdownToText(`Details: ${text}`)).toBe(`Details: ${place}`);
  });

  it.each([
    ['a user name', '[](https://bank.example.com@evil.example.net/login)'],
    ['a user name and password', '[](https://bank.example.com:443@evil.example.net/login)'],
  ])('%s before the host: shows and reads the address without it, the host it really goes to', (_, text) => {
    const link = only(show(`Details: ${text}`));
    expect(link.textContent).toContain('https://evil.example.net/login');
    expect(link.textContent).not.toContain('bank.example.com');
    expect(markdownToText(`Details: ${text}`)).toBe('Details: https://evil.example.net/login');
  });

  it('an email address with an encoded override (%E2%80%AE) shows and reads it as written, not reversed', () => {
    // Reversed by the override, "moc.knab@ten.elpmaxe.live" would read as the address evil.example.net@bank.com.
    const text = '[](mailto:%E2%80%AEmoc.knab@ten.elpmaxe.live)';
    const link = only(show(`Details: ${text}`));
    expect(link.textContent).toContain('moc.knab@ten.elpmaxe.live');
    expect(link.textContent).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(markdownToText(`Details: ${text}`)).toBe('Details: moc.knab@ten.elpmaxe.live');
  });

  it('an image inside it names it: the link shows nothing more', () => {
    const link = only(show('[![](https://files.example.net/chart.png)](https://example.com/)'));
    expect(link.querySelector('.agk-markdown__destination')).toBeNull();
    expect(link.textContent).toContain('chart.png');
  });

  it('an image without words reads as the address it shows', () => {
    expect(markdownToText('See ![](https://files.example.net/chart.png)')).toBe('See https://files.example.net/chart.png');
  });
});

describe('an email link', () => {
  it.each([
    ['its address in angle brackets', '<mailto:help@shop.example>'],
    ['words', '[write to us](mailto:help@shop.example)'],
  ])('%s: opens the mail client, not a new tab, and does not say it opens one', (_, text) => {
    const link = only(show(text));
    expect(link).not.toHaveAttribute('target');
    expect(link.textContent).not.toContain('new tab');
  });
});

describe('link words built to make the check backtrack', () => {
  // Each took seconds to check (time growing with the square of its length) before the reply could show.
  it.each([
    ['a run of 90,000 dots before a letter', `[${'.'.repeat(90_000)}a](https://evil.example.net/)`],
    ['an email address of 40,000 labels that ends in an at sign', `[a@${'b.'.repeat(40_000)}@](https://evil.example.net/)`],
  ])(
    '%s: the reply shows, its link whole',
    (_, text) => {
      const link = only(show(text));
      expect(link).toHaveAttribute('href', 'https://evil.example.net/');
      expect(link.textContent?.length).toBeGreaterThan(80_000);
    },
    // Checked in a single pass, each renders in a few hundred milliseconds; each took 3-6 s here before.
    2_000,
  );
});

describe('where Intl.DisplayNames is missing (Safari before 14.1)', () => {
  it('a domain among words names a site as it does elsewhere: a code member names none, a country code does', async () => {
    const { DisplayNames } = Intl;
    vi.resetModules();
    try {
      Object.assign(Intl, { DisplayNames: undefined });
      const { destinationShown } = await import('../src/markdownLinks.js');
      expect(destinationShown('the List.of factory', 'https://kotlinlang.org/docs/collections-overview.html')).toBeUndefined();
      expect(destinationShown('the Math.PI constant', 'https://developer.mozilla.org/')).toBeUndefined();
      expect(destinationShown('Log in at bank.example.de now', 'https://evil.example.net/')).toBe('evil.example.net');
    } finally {
      Object.assign(Intl, { DisplayNames });
      vi.resetModules();
    }
  });
});
