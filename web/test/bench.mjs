// Runs web/bench.html in headless Chromium and prints its figures as JSON.
//   node web/test/bench.mjs http://127.0.0.1:8000/bench.html
import { launch } from './browser.mjs';

const url = process.argv[2];
const { browser, page } = await launch();
try {
  const done = page.waitForEvent('console', {
    predicate: (m) => m.text().startsWith('hexchess: bench done'),
    timeout: 20 * 60 * 1000,
  });
  await page.goto(url);
  const message = await done;
  console.log(message.text().replace('hexchess: bench done ', ''));
} finally {
  await browser.close();
}
