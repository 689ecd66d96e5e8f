/**
 * Open a report in headless Chromium (Debian's `chromium` package) through playwright-core, as a
 * person would open it: collect console errors and failed requests, wait for the charts, and
 * take screenshots. The flags keep Chromium off the network (a machine without internet otherwise
 * stalls on Chromium's background requests) and a fresh profile (--user-data-dir) keeps runs independent.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  (p): p is string => p !== undefined && p !== '',
);

export function chromiumPath(): string | undefined {
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p));
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface OpenedReport {
  page: Page;
  /** Console errors, page errors and requests that left the file (a self-contained page makes none). */
  problems: string[];
  charts: { expected: number; drawn: number };
  close(): Promise<void>;
}

export async function openReport(htmlPath: string, viewport = { width: 1400, height: 1000 }): Promise<OpenedReport> {
  const executablePath = chromiumPath();
  if (!executablePath)
    throw new Error(`no chromium at ${CHROMIUM_CANDIDATES.join(' or ')} (apt-get install -y chromium)`);
  const profile = mkdtempSync(join(tmpdir(), 'docbench-chromium-'));
  let browser: BrowserContext | undefined;
  try {
    // A persistent context is how playwright takes a profile folder (--user-data-dir).
    browser = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: FLAGS,
      viewport,
      timeout: 60_000,
    });
    const page = browser.pages()[0] ?? (await browser.newPage());
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith('file:') && !request.url().startsWith('data:'))
        problems.push(`network request: ${request.url()}`);
    });
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForFunction('window.docbenchCharts !== undefined', undefined, { timeout: 30_000 });
    const charts = (await page.evaluate('window.docbenchCharts')) as { expected: number; drawn: number };
    const opened = browser;
    return {
      page,
      problems,
      charts,
      close: async () => {
        await opened.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

/**
 * How much of a canvas is drawn: the share of its pixels that are not the background, read back
 * in the page. A chart whose library failed leaves its canvas blank (0).
 */
export async function inkShare(page: Page, canvasId: string): Promise<number> {
  const script = `(() => {
    const c = document.getElementById(${JSON.stringify(canvasId)});
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240)) ink++;
    return ink / (d.length / 4);
  })()`;
  return (await page.evaluate(script)) as number;
}

/** Ids of every chart canvas on the page. */
export async function canvasIds(page: Page): Promise<string[]> {
  return (await page.evaluate("Array.from(document.querySelectorAll('canvas')).map((c) => c.id)")) as string[];
}
