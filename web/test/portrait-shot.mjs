// The portrait layout in Chromium, as a phone shows it: a 390x844 touch screen, the
// board in 2D and the panel below it (used for docs/web.md's picture).
//   node web/test/portrait-shot.mjs PAGE_URL OUT.png
import { launch } from './browser.mjs';

const [url, shot] = process.argv.slice(2);
const { browser, page } = await launch({ width: 390, height: 844, touch: true });
try {
  const ready = page.waitForEvent('console', {
    predicate: (m) => m.text().startsWith('hexchess: board ready'),
    timeout: 10 * 60 * 1000,
  });
  await page.goto(`${url}?fresh&view=2d`);
  await ready;
  await page.waitForTimeout(3000);
  await page.screenshot({ path: shot });
} finally {
  await browser.close();
}
