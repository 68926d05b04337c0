// Headless Chromium (the system's, driven by playwright-core), with WebGL2 through
// SwiftShader: the same software GPU on every machine.
import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/// A fresh profile (its own folder) in a new browser; `touch`: a phone's touch screen;
/// `serviceWorkers: 'block'` for the browser's HTTP cache alone.
export async function launch({ width = 1280, height = 800, touch = false, serviceWorkers = 'allow' } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'hexchess-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width, height },
    hasTouch: touch,
    serviceWorkers,
    isMobile: touch,
    args: [
      '--no-sandbox',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--ignore-gpu-blocklist',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on('pageerror', (e) => console.error('page error:', e.message));
  return { browser: context, page };
}
