/**
 * The README's picture of a report: `node --import tsx test/support/report-screenshot.ts
 * <report.html> <out.png> [height] [zoom]` opens a real report in headless Chromium (browser.ts) and
 * keeps the top of the page (its header names the machine, the versions and the stand-ins, then
 * the first charts), checking first that the page had no error and drew every chart.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openReport } from './browser.ts';

export async function screenshotReport(html: string, png: string, height = 1100, zoom = 1): Promise<number> {
  const report = await openReport(html, { width: 1360, height });
  try {
    if (report.problems.length > 0) throw new Error(`the report has problems: ${report.problems.join('; ')}`);
    if (report.charts.drawn !== report.charts.expected)
      throw new Error(`drew ${report.charts.drawn} of ${report.charts.expected} charts`);
    // Zoomed out as a reader zooms out a browser tab: more of the page in one picture.
    if (zoom !== 1) {
      await report.page.evaluate(`document.body.style.zoom = '${zoom}'`);
      await report.page.waitForTimeout(500);
    }
    await report.page.screenshot({ path: png, clip: { x: 0, y: 0, width: 1360, height } });
  } finally {
    await report.close();
  }
  return statSync(png).size;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [html, png, height, zoom] = process.argv.slice(2);
  if (!html || !png) {
    process.stderr.write('usage: report-screenshot.ts <report.html> <out.png> [height] [zoom]\n');
    process.exit(2);
  }
  const bytes = await screenshotReport(html, png, height ? Number(height) : undefined, zoom ? Number(zoom) : undefined);
  process.stdout.write(`${png}: ${Math.round(bytes / 1024)} KiB\n`);
}
