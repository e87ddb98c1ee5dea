/**
 * What a reply's links say and where they go: the places a link's words name
 * (an address, a domain, an email address), compared with where the link
 * goes, so a link whose words name another site can show its real host; and
 * a rehype step that takes direction controls out of a link's words.
 */

export type HastText = { type: 'text'; value: string };
export type HastElement = { type: 'element'; tagName: string; properties?: Record<string, unknown>; children?: HastAny[] };
export type HastAny = HastText | HastElement | { type: string; children?: HastAny[] };

/**
 * A place a link's words name: a host (from an address or a domain), `odd`
 * when it is written with a character a host's name does not hold (a slash of
 * another script: `bank.example.com∕login.evil.example.net` is one host) or
 * with letters that pass for others (`looksLikeAnother`), or an email address.
 */
type Named = { host: string; odd: boolean } | { address: string };

const SCHEME = /^[a-z][a-z\d+.-]*:\/\//i;
// Labels hold no dot, so a long failing token is read once, never split again and again.
const EMAIL = /^[^\s@/:]+@[^\s@/:.]+(?:\.[^\s@/:.]+)+$/u;
const BARE_HOST = /^(?:(?:[\p{L}\p{N}-]+\.)+\p{L}{2,}|\d{1,3}(?:\.\d{1,3}){3})\.?(?::\d{1,5})?$/u;
// Longer than a host can be (253 characters): never tested against BARE_HOST.
const HOST_LENGTH = 260;
// Invisible characters (zero-width spaces, joiners, direction marks) that change nothing a reader sees.
const INVISIBLE = /\p{Cf}/gu;
// A full stop of another script, which a host's name reads as a dot (one NFKC leaves as it is).
const IDEOGRAPHIC_STOP = /\u3002/g;
const ODD_IN_HOST = /[^\p{L}\p{M}\p{N}.-]/u;
// Letters of the scripts whose letters pass for Latin ones (`bаnk` with a Cyrillic а), and those among them that do.
const LATIN = /\p{Script=Latin}/u;
const LOOK_ALIKE_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}]/u;
const LATIN_LOOKING = /^[аеорсухіјѕԁӏһԛԝүαικνορυχ\d-]+$/u;

/**
 * Whether a host's name is written to pass for another one: a label that mixes
 * Latin letters with look-alikes of another script (`bаnk.example.com`), or
 * one of look-alike letters alone (`аррӏе.com`), as browsers show in `xn--`.
 */
const looksLikeAnother = (host: string) =>
  host
    .toLowerCase()
    .split('.')
    .some((label) => (LATIN.test(label) && LOOK_ALIKE_SCRIPT.test(label)) || (LOOK_ALIKE_SCRIPT.test(label) && LATIN_LOOKING.test(label)));

// The endings of files a reply names far more often than a site (`config.json`, `vite.config.ts`, `Node.js`,
// `README.md`): words ending so name a file, unless what comes before ends like a site (`paypal.com.md`, `bank.co.uk.html`).
// Country codes with sites of their own a reply links to (docs.rs, bun.sh) are left out: those words name a site.
const FILE_ENDING =
  /\.(?:[cm]?[jt]sx?|json5?|mdx?|py|ipynb|rb|go|java|kt|cpp|hpp|php|bash|ya?ml|toml|ini|cfg|conf|lock|txt|csv|log|html?|css|scss|vue|svelte|sql|xml|env|swift|lua|pdf|png|jpe?g|gif|svg|webp)$/i;
const SITE_ENDING = /\.(?:com|net|org|gov|edu|[a-z]{2})$/i;
const namesFile = (host: string) => FILE_ENDING.test(host) && !SITE_ENDING.test(host.replace(FILE_ENDING, ''));

// Among other words, a domain ends in one of the endings most sites have, or a country's code: `Math.PI` or
// `Array.from` in a sentence name nothing.
const COMMON_ENDING =
  /\.(?:com|net|org|gov|edu|mil|int|info|biz|io|ai|app|dev|xyz|online|site|shop|store|tech|cloud|blog|page|link|live)$/i;
// The countries' codes that name sites (the root zone's), the same in every browser. Left out: those that name
// members of code far more often than a site among words (`Object.is`, `Array.at`, `user.id`, `ctx.do`, `sort.by`).
const COUNTRY_CODES = new Set(
  (
    'ac ad ae af ag ai al am ao aq ar au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bw bz ca cc cd cf cg ch ' +
    'ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm dz ec ee eg er es et eu fi fj fk fm fo fr ga gd ge gf gg gh gi ' +
    'gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu ie il im in io iq ir it je jm jo jp ke kg kh ki km kn kp kr kw ' +
    'ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne ' +
    'nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs ru rw sa sb sc sd se sg sh si ' +
    'sk sl sm sn so sr ss st su sv sx sy sz tc td tf tg th tj tk tl tm tn tr tt tv tw tz ua ug uk us uy uz va vc ve vg ' +
    'vi vn vu wf ws ye yt za zm zw'
  ).split(' '),
);
// A module of one or two letters and its member (`fs.cp`, `np.ma`), not a site.
const SHORT_MODULE = /^[^.]{1,2}\.[^.]+$/;
const endsInCountryCode = (host: string) =>
  COUNTRY_CODES.has(host.slice(host.lastIndexOf('.') + 1).toLowerCase()) && !SHORT_MODULE.test(host);
// A class's member named like a country's code (`Object.is`, `String.prototype.at`, `System.in`), alone or among
// words: a class is written with a capital, a domain rarely so.
const CLASS_MEMBER = /^\p{Lu}\p{Ll}+(?:\p{Lu}\p{Ll}*)*(?:\.[\p{L}\p{N}]+)*\.(?:as|at|by|do|id|in|is|to)$/u;
const endsLikeSite = (host: string) => COMMON_ENDING.test(host) || endsInCountryCode(host.replace(/\.$/, ''));

// Where Chinese, Japanese or Korean meets a Latin letter or a digit: those scripts are written without spaces, and a
// name inside them (`详见Node.js官方文档`) is a word of its own. A domain of their letters alone keeps its dots.
const CJK_EDGE =
  /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}](?=[A-Za-z0-9])|[A-Za-z0-9](?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]))/gu;

/**
 * The places a link's words name: an address (`https://…`, `www.…`), an
 * email address, or a domain (not a file's name: `config.json`, `Node.js`,
 * nor a class's member: `Object.is`); among other words, a domain only when it
 * ends as sites do (`visit paypal.com now`), so that `Math.PI`, `user.id` or
 * `fs.cp` in a sentence name nothing.
 */
function namedPlaces(words: string): Named[] {
  const tokens = words
    .normalize('NFKC')
    .replace(IDEOGRAPHIC_STOP, '.')
    .replace(INVISIBLE, '')
    .replace(CJK_EDGE, '$1 ')
    .split(/\s+/)
    .map(withoutEdgePunctuation)
    .filter(Boolean);
  const named: Named[] = [];
  for (const token of tokens) {
    if (SCHEME.test(token) || /^www\./i.test(token)) {
      const host = parseUrl(SCHEME.test(token) ? token : `http://${token}`)?.hostname;
      const written = (token.replace(SCHEME, '').split(/[/?#]/, 1)[0] ?? '').replace(/^.*@/, '').replace(/:\d*$/, '');
      if (host) named.push({ host, odd: ODD_IN_HOST.test(written) || looksLikeAnother(written) });
    } else if (EMAIL.test(token)) named.push({ address: token.toLowerCase() });
    else {
      const hostPart = token.split(/[/?#]/, 1)[0] ?? '';
      const host =
        hostPart.length < HOST_LENGTH &&
        BARE_HOST.test(hostPart) &&
        !namesFile(hostPart) &&
        !CLASS_MEMBER.test(hostPart.replace(/:\d*$/, '')) &&
        (tokens.length === 1 || endsLikeSite(hostPart.replace(/:\d*$/, '')))
          ? parseUrl(`http://${token}`)?.hostname
          : undefined;
      if (host) named.push({ host, odd: looksLikeAnother(hostPart) });
    }
  }
  return named;
}

const OPENING = new Set('(<[{"\'“‘«');
const CLOSING = new Set(')>]}"\'”’».,;:!?');

/** A token without the brackets, quotes and punctuation around it (in a loop: a regular expression backtracks). */
function withoutEdgePunctuation(token: string): string {
  let start = 0;
  let end = token.length;
  while (start < end && OPENING.has(token.charAt(start))) start++;
  while (end > start && CLOSING.has(token.charAt(end - 1))) end--;
  return token.slice(start, end);
}

/**
 * What `Destination` shows for a link: its host (its address, for `mailto:`)
 * when its words, or its title (the tooltip a pointer shows), name another place.
 */
export function destinationShown(words: string, href: string, title?: string): string | undefined {
  const shown = shownFor(words, href);
  return shown || !title ? shown : shownFor(title, href);
}

function shownFor(words: string, href: string): string | undefined {
  const url = parseUrl(href);
  if (!url) return undefined;
  const named = namedPlaces(words);
  if (url.protocol === 'mailto:') {
    const recipients = recipientsOf(url);
    const shown = recipients.join(', ');
    if (!named.length) return undefined;
    return recipients.length !== 1 || named.some((place) => !('address' in place) || place.address !== recipients[0]) ? shown : undefined;
  }
  const host = siteOf(url.hostname);
  if (url.username || url.password) return url.hostname;
  return named.some((place) => !('host' in place) || place.odd || siteOf(place.host) !== host) ? url.hostname : undefined;
}

/** A host without its `www.` and its final dot: example.com and www.example.com are one site. */
const siteOf = (host: string) => host.replace(/\.$/, '').replace(/^www\./, '');

// The fields of a `mailto:` link that add recipients, which a mail client fills in for the reader to overlook.
const RECIPIENT_FIELDS = new Set(['to', 'cc', 'bcc']);

/** Whom a `mailto:` link writes to: its address or addresses, and those its `to`, `cc` and `bcc` fields add. */
function recipientsOf(url: URL): string[] {
  const fields = [...url.searchParams].filter(([key]) => RECIPIENT_FIELDS.has(key.toLowerCase())).map(([, value]) => value);
  return (
    [decoded(url.pathname), ...fields]
      .flatMap((list) => list.split(','))
      // An address's direction controls, decoded from `%E2%80%AE`, would reverse it as shown.
      .map((address) => address.replace(DIRECTION_CONTROLS, '').trim().toLowerCase())
      .filter(Boolean)
  );
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

// What a reader neither sees nor hears: whitespace, invisible characters, the blank fillers of Hangul and Braille.
const UNSEEN = /[\s\p{Cf}\u115f\u1160\u2800\u3164\uffa0]/gu;

/** Whether a link shows nothing to see or hear: no words but unseen ones, and no image. */
export function unnamed(node: HastAny | undefined): boolean {
  const holdsImage = (n: HastAny): boolean => (n as HastElement).tagName === 'img' || ((n as HastElement).children ?? []).some(holdsImage);
  return !!node && !wordsOf(node).replace(UNSEEN, '') && !holdsImage(node);
}

/**
 * Where a link goes, written for a reader: its address, or, for `mailto:`, whom it writes to. A user name before the
 * host (`https://bank.example.com@evil.example.net`), which reads as the host, is left out.
 */
export function placeOf(href: string): string {
  const url = parseUrl(href);
  if (!url) return href;
  if (url.protocol === 'mailto:') return recipientsOf(url).join(', ') || href;
  url.username = '';
  url.password = '';
  return url.href;
}

/** A link's words as a reader sees them, an image's text among them. */
export function wordsOf(node: HastAny | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return (node as HastText).value;
  const el = node as HastElement;
  if (el.tagName === 'img') return typeof el.properties?.alt === 'string' ? el.properties.alt : '';
  return (el.children ?? []).map(wordsOf).join('');
}

// Direction controls and marks: in a link's words they could reorder them into another address (`moc.elgoog`
// under an override reads google.com, a file name `gpj.exe` reads exe.jpg).
const DIRECTION_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A rehype plugin: a link's words and an image's text lose their direction controls, and read as they were written. */
export const plainLinkWords = () => (tree: HastAny) => {
  const walk = (node: HastAny, inLink: boolean) => {
    if (node.type === 'text') {
      if (inLink) (node as HastText).value = (node as HastText).value.replace(DIRECTION_CONTROLS, '');
      return;
    }
    const el = node as HastElement;
    if (el.tagName === 'img' && typeof el.properties?.alt === 'string')
      el.properties.alt = el.properties.alt.replace(DIRECTION_CONTROLS, '');
    for (const child of el.children ?? []) walk(child, inLink || el.tagName === 'a');
  };
  walk(tree, false);
};
