/**
 * The browser check for the typedoc site (issue 8).
 *
 * Serves `docs-site/` on 127.0.0.1, opens it in headless Chromium through
 * playwright-core, and asserts that:
 * - the index renders with its heading;
 * - every public package in typedoc.json has a page whose heading names it;
 * - every guide in docs/guides renders with its title and all of its `##` headings;
 * - the search box finds `createBm25Ranker` and its result opens the function page;
 * - no same-origin link is broken: every page reachable from the index loads with
 *   200, and every `#fragment` points at an element that exists on its page; a link to
 *   the published site (the guides' and READMEs' absolute API links) is checked as the
 *   same page of the local build;
 * - no page throws a JavaScript error.
 *
 * Usage: `tsx src/check-site.ts [--site <dir>] [--screenshots <dir>]`
 * (run `pnpm run docs` first). Exits non-zero with a list of failures.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Browser, chromium, type Page } from 'playwright-core';
import { createCheckReporter, runCheck } from './check-reporter.js';
import { DOCS_SITE } from './docs-blocks.js';
import { serveStatic } from './serve-static.js';
import { repoRoot } from './workspace.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** A crawl that finds more pages than this has gone wrong (a link loop with query strings). */
const MAX_PAGES = 2_000;
const SEARCH_TERM = 'createBm25Ranker';

interface Guide {
  file: string;
  title: string;
  headings: string[];
}

interface PageLinks {
  ids: Set<string>;
  links: string[];
}

const reporter = createCheckReporter('site');
const { fail, pass } = reporter;

/** The package names of the typedoc entry points (`packages/<name>` folders). */
async function documentedPackages(root: string): Promise<string[]> {
  const config = JSON.parse(await readFile(join(root, 'typedoc.json'), 'utf8')) as {
    entryPoints: string[];
  };
  const names: string[] = [];
  for (const entry of config.entryPoints) {
    const manifest = JSON.parse(await readFile(join(root, entry, 'package.json'), 'utf8')) as {
      name: string;
    };
    names.push(manifest.name);
  }
  return names;
}

/** Title (front matter, else the first `#` heading) and `##` headings of each guide. */
async function guides(root: string): Promise<Guide[]> {
  const folder = join(root, 'docs', 'guides');
  const files = (await readdir(folder)).filter((file) => file.endsWith('.md')).sort();
  const result: Guide[] = [];
  for (const file of files) {
    const text = await readFile(join(folder, file), 'utf8');
    const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
    const body = front ? text.slice(front[0].length) : text;
    const headings: string[] = [];
    let inFence = false;
    let firstH1: string | undefined;
    for (const line of body.split('\n')) {
      if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
      if (inFence) continue;
      const h1 = /^# (.+)$/.exec(line);
      if (h1 && firstH1 === undefined) firstH1 = plainText(h1[1]!);
      const h2 = /^## (.+)$/.exec(line);
      if (h2) headings.push(plainText(h2[1]!));
    }
    const titleLine = front?.[1]?.split('\n').find((line) => line.startsWith('title:'));
    const title =
      titleLine
        ?.slice('title:'.length)
        .trim()
        .replace(/^['"]|['"]$/g, '') ?? firstH1;
    if (!title) throw new Error(`docs/guides/${file} has neither a title nor a # heading`);
    result.push({ file, title, headings });
  }
  return result;
}

/** Markdown inline text as a browser shows it (code spans, links and emphasis unwrapped). */
function plainText(markdown: string): string {
  return markdown
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, '$1')
    .trim();
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

async function open(page: Page, url: string): Promise<number> {
  const response = await page.goto(url, { waitUntil: 'load' });
  // The sidebar is rendered by assets/navigation.js after load.
  await page
    .waitForFunction(() => document.querySelector('#tsd-nav-container a') !== null, undefined, {
      timeout: 3_000,
    })
    .catch(() => undefined);
  return response?.status() ?? 0;
}

async function headingTexts(page: Page, selector: string): Promise<string[]> {
  return (await page.$$eval(selector, (elements) => elements.map((e) => e.textContent ?? ''))).map(
    normalizeSpace,
  );
}

async function linksOn(page: Page): Promise<{ text: string; href: string }[]> {
  return page.$$eval('a[href]', (anchors) =>
    anchors.map((a) => ({
      text: (a.textContent ?? '').trim(),
      href: (a as HTMLAnchorElement).href,
    })),
  );
}

async function checkIndex(page: Page, origin: string): Promise<void> {
  const status = await open(page, `${origin}/`);
  const h1 = await headingTexts(page, 'h1');
  if (status === 200 && h1.length > 0) pass(`index renders (h1: ${h1.join(' | ')})`);
  else fail(`index: status ${status}, headings ${JSON.stringify(h1)}`);
}

async function checkPackages(page: Page, origin: string, packages: string[]): Promise<void> {
  await open(page, `${origin}/`);
  const links = await linksOn(page);
  for (const name of packages) {
    const link = links.find((l) => l.text === name && l.href.startsWith(origin));
    if (!link) {
      fail(`package ${name}: no link titled "${name}" on the index`);
      continue;
    }
    const status = await open(page, link.href);
    const h1 = await headingTexts(page, 'h1');
    if (status === 200 && h1.some((text) => text.includes(name))) {
      pass(`package ${name} renders at ${new URL(link.href).pathname}`);
    } else {
      fail(`package ${name}: ${link.href} status ${status}, h1 ${JSON.stringify(h1)}`);
    }
  }
}

async function checkGuides(page: Page, origin: string, list: Guide[]): Promise<void> {
  await open(page, `${origin}/`);
  const links = await linksOn(page);
  for (const guide of list) {
    const link = links.find((l) => normalizeSpace(l.text) === guide.title);
    if (!link) {
      fail(`guide ${guide.file}: no link titled "${guide.title}" on the index`);
      continue;
    }
    const status = await open(page, link.href);
    const h1 = await headingTexts(page, '.col-content h1');
    const h2 = new Set(await headingTexts(page, '.col-content h2'));
    const missing = guide.headings.filter((heading) => !h2.has(heading));
    if (status !== 200 || !h1.includes(guide.title)) {
      fail(`guide ${guide.file}: status ${status}, h1 ${JSON.stringify(h1)}`);
    } else if (missing.length > 0) {
      fail(`guide ${guide.file}: headings not rendered: ${JSON.stringify(missing)}`);
    } else {
      pass(`guide "${guide.title}" renders with ${guide.headings.length} sections`);
    }
  }
}

async function checkSearch(page: Page, origin: string): Promise<void> {
  await open(page, `${origin}/`);
  await page.click('#tsd-search-trigger');
  await page.fill('#tsd-search-input', SEARCH_TERM);
  const result = page.locator('#tsd-search-results li a', { hasText: SEARCH_TERM }).first();
  try {
    await result.waitFor({ timeout: 10_000 });
  } catch {
    fail(`search: no result for ${SEARCH_TERM}`);
    return;
  }
  await Promise.all([page.waitForURL(/createBm25Ranker/), result.click()]);
  const h1 = await headingTexts(page, 'h1');
  if (h1.some((text) => text.includes(SEARCH_TERM))) {
    pass(`search finds ${SEARCH_TERM} and opens ${new URL(page.url()).pathname}`);
  } else fail(`search: the result opened ${page.url()} with h1 ${JSON.stringify(h1)}`);
}

/**
 * A link as the crawl follows it: one to the published site (`DOCS_SITE…`) becomes the
 * same path on the local build's origin, so that a guide's absolute API link is checked.
 */
function localLink(href: string, origin: string): string {
  return href.startsWith(DOCS_SITE) ? `${origin}/${href.slice(DOCS_SITE.length)}` : href;
}

/**
 * `href` and `id`/`name` attribute values of static HTML (typedoc escapes `"` in them);
 * links to the published site are given on `base`'s origin ({@link localLink}).
 */
function scanHtml(html: string, base: string): { links: string[]; ids: Set<string> } {
  const decodeEntities = (value: string) =>
    value
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  const links = [...html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)].map(
    (match) => new URL(localLink(decodeEntities(match[1]!), new URL(base).origin), base).href,
  );
  const ids = new Set(
    [...html.matchAll(/\s(?:id|name)="([^"]*)"/g)].map((match) => decodeEntities(match[1]!)),
  );
  return { links, ids };
}

/**
 * Follows every same-origin link from the index. The sidebar is built by script from
 * the same data on every page, so its links are read once in the browser; every page
 * is then fetched and its static HTML scanned for links and anchors.
 */
async function crawl(page: Page, origin: string): Promise<void> {
  await open(page, `${origin}/index.html`);
  const navigation = (await linksOn(page)).map((link) => link.href);
  const visited = new Map<string, PageLinks | undefined>();
  const queue: string[] = [`${origin}/index.html`];
  const queued = new Set(queue);
  const referrers = new Map<string, string>();
  const enqueue = (href: string, from: string) => {
    const target = new URL(href);
    if (target.origin !== origin) return;
    target.hash = '';
    if (queued.has(target.href)) return;
    queued.add(target.href);
    queue.push(target.href);
    referrers.set(target.href, from);
  };
  for (const href of navigation) enqueue(href, 'the sidebar');
  while (queue.length > 0 && visited.size < MAX_PAGES) {
    const url = queue.shift()!;
    const response = await fetch(url);
    if (response.status !== 200) {
      visited.set(url, undefined);
      fail(`broken link ${url} (status ${response.status}) from ${referrers.get(url)}`);
      continue;
    }
    if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) {
      await response.arrayBuffer();
      visited.set(url, { ids: new Set(), links: [] });
      continue;
    }
    const { links, ids } = scanHtml(await response.text(), url);
    visited.set(url, { ids, links });
    for (const href of links) enqueue(href, url);
  }
  if (visited.size >= MAX_PAGES) fail(`crawl stopped after ${MAX_PAGES} pages`);
  let fragments = 0;
  for (const [url, info] of visited) {
    for (const href of info?.links ?? []) {
      const target = new URL(href);
      if (target.origin !== origin || target.hash.length <= 1) continue;
      const fragment = decodeURIComponent(target.hash.slice(1));
      target.hash = '';
      const destination = visited.get(target.href);
      if (!destination) continue; // already reported as a broken page
      fragments += 1;
      if (!destination.ids.has(fragment)) fail(`broken anchor ${href} on ${url}`);
    }
  }
  const pages = [...visited.values()].filter((info) => info && info.links.length > 0).length;
  pass(
    `crawled ${visited.size} same-origin URLs (${pages} pages, ${navigation.length} sidebar links), ${fragments} anchors checked`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { site: { type: 'string' }, screenshots: { type: 'string' } },
  });
  const root = repoRoot();
  const site = resolve(root, values.site ?? 'docs-site');
  if (!existsSync(join(site, 'index.html'))) {
    throw new Error(`${site}/index.html is missing: run \`pnpm run docs\` first`);
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  const [packages, guideList] = await Promise.all([documentedPackages(root), guides(root)]);
  const server = await serveStatic(site);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    page.on('pageerror', (error) => fail(`javascript error on ${page.url()}: ${error.message}`));
    console.log(`site ${site} served at ${server.origin}`);
    await checkIndex(page, server.origin);
    if (values.screenshots) {
      await mkdir(values.screenshots, { recursive: true });
      await page.screenshot({ path: join(values.screenshots, 'index.png'), fullPage: false });
    }
    await checkPackages(page, server.origin, packages);
    await checkGuides(page, server.origin, guideList);
    await checkSearch(page, server.origin);
    await crawl(page, server.origin);
  } finally {
    await browser?.close();
    await server.close();
  }
}

void runCheck(reporter, main);
