// The browser game as an app: what a visit downloads, the app kept for the next visit
// and for play with no network, a challenge shared by its link, and a phone's screen.
//
//   node web/test/pwa.mjs visits PAGE_URL OUT.json
//        a fresh profile, service workers blocked (the browser's HTTP cache alone):
//        the first board's time and every file downloaded; then a second visit: its
//        board's time, and what came over the network (only the page may)
//   node web/test/pwa.mjs first-board PAGE_URL RUNS
//        the first board's time in RUNS fresh profiles, and bytes downloaded (for any
//        build, the one before this one too)
//   node web/test/pwa.mjs offline PAGE_URL SERVER_PID OUT.png
//        a visit (Chromium finds the page installable as an app: no installability
//        errors), then the network off and the server that sent the page stopped: the
//        page opens from its service worker's copy, the engine answers a move, and
//        online play says there is no network
//   node web/test/pwa.mjs link PAGE_URL OUT
//        a page that has not been told its server connects to its own host and makes a
//        challenge; the link it shows opens in a second profile, which joins the game;
//        White's first move reaches the other page (OUT-link.png, OUT-joined.png)
//   node web/test/pwa.mjs touch PAGE_URL OUT.png
//        a 390x844 portrait touch screen: a move by two taps, one by a drag of the finger
//
// Every wait has a limit; a wait that runs out fails the run (exit 1).
import { writeFileSync } from 'node:fs';

import { launch } from './browser.mjs';

const BOARD_WAIT = 10 * 60 * 1000;
const MOVE_WAIT = 3 * 60 * 1000;

function milestone(page, prefix, timeout) {
  return page.waitForEvent('console', {
    predicate: (m) => m.text().startsWith('hexchess: ' + prefix),
    timeout,
  });
}

function echo(page, who = '') {
  page.on('console', (m) => { if (m.text().startsWith('hexchess:')) console.log(who + m.text()); });
}

async function openBoard(page, url) {
  const ready = milestone(page, 'board ready', BOARD_WAIT);
  const started = Date.now();
  await page.goto(url);
  await ready;
  return Date.now() - started;
}

/// Every response of a page, from the DevTools protocol: where it came from and the
/// bytes it took on the wire.
async function networkLog(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const byId = new Map();
  // Served from the renderer's memory cache (a module preloaded, then imported): said
  // by an event of its own, not in the response.
  const fromMemory = new Set();
  cdp.on('Network.requestServedFromCache', (e) => fromMemory.add(e.requestId));
  cdp.on('Network.responseReceived', (e) => {
    byId.set(e.requestId, {
      url: e.response.url,
      status: e.response.status,
      from_disk_cache: !!e.response.fromDiskCache || !!e.response.fromPrefetchCache
        || fromMemory.has(e.requestId),
      from_service_worker: !!e.response.fromServiceWorker,
      bytes: 0,
    });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = byId.get(e.requestId);
    if (r) r.bytes = e.encodedDataLength;
  });
  return { cdp, responses: () => [...byId.values()] };
}

/// Whether a response came over the network (not the browser's caches or the service
/// worker's copy).
const fromNetwork = (r) => !r.from_disk_cache && !r.from_service_worker && r.status !== 0;
const fileName = (url) => new URL(url).pathname.replace(/^\//, '') || 'index.html';

async function visits(url, out) {
  const { browser, page } = await launch({ serviceWorkers: 'block' });
  echo(page);
  try {
    const first = await networkLog(page);
    const firstMs = await openBoard(page, url);
    await page.waitForTimeout(2000);
    const firstFiles = first.responses().filter(fromNetwork);
    await first.cdp.detach();

    const second = await networkLog(page);
    const secondMs = await openBoard(page, url);
    await page.waitForTimeout(2000);
    const secondFiles = second.responses();
    const overNetwork = secondFiles.filter(fromNetwork);
    const report = {
      first_board_ms: firstMs,
      first_visit: firstFiles.map((r) => ({ file: fileName(r.url), status: r.status, bytes: r.bytes })),
      first_visit_bytes: firstFiles.reduce((s, r) => s + r.bytes, 0),
      second_board_ms: secondMs,
      second_visit: secondFiles.map((r) => ({
        file: fileName(r.url), status: r.status, bytes: r.bytes,
        from: fromNetwork(r) ? 'network' : r.from_service_worker ? 'service worker' : 'cache',
      })),
      second_visit_bytes_over_network: overNetwork.reduce((s, r) => s + r.bytes, 0),
    };
    writeFileSync(out, JSON.stringify(report, null, 2));
    console.log(JSON.stringify({ ...report, first_visit: undefined, second_visit: undefined }));
    // Nothing but the page on the wire (a response of no bytes at all came from a
    // cache the protocol did not name).
    const unexpected = overNetwork.filter((r) => fileName(r.url) !== 'index.html' && r.bytes > 0);
    if (unexpected.length > 0) {
      throw new Error('the second visit downloaded more than the page: ' + JSON.stringify(unexpected));
    }
    const wasm = report.second_visit.filter((r) => r.file.endsWith('.wasm'));
    if (wasm.length === 0) throw new Error('the second visit loaded no wasm at all');
  } finally {
    await browser.close();
  }
}

/// Where the first board's time went, from the page's own clock (ms since the page
/// began loading): the game's wasm received, its code compiled and the app built
/// (index.html notes when), the board drawn. Pages built before index.html noted
/// these give nulls.
async function breakdown(page) {
  return page.evaluate(() => {
    const wasm = performance.getEntriesByType('resource')
      .find((e) => /hexchess_bg[.].*wasm$/.test(e.name));
    const times = window.hexchessTimes || {};
    const round = (t) => (t == null ? null : Math.round(t));
    return {
      wasm_received_ms: round(wasm && wasm.responseEnd),
      started_ms: round(times.started),
      ready_ms: round(times.ready),
    };
  });
}

async function firstBoard(url, runs) {
  const times = [];
  const parts = [];
  let bytes = 0;
  for (let i = 0; i < Number(runs); i++) {
    const { browser, page } = await launch();
    try {
      const log = await networkLog(page);
      times.push(await openBoard(page, url));
      parts.push(await breakdown(page));
      bytes = log.responses().filter(fromNetwork).reduce((s, r) => s + r.bytes, 0);
    } finally {
      await browser.close();
    }
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ url, first_board_ms: times, median_ms: times[Math.floor(times.length / 2)], bytes, parts }));
}

async function offline(url, serverPid, shot) {
  const { browser, page } = await launch();
  echo(page);
  try {
    const registered = milestone(page, 'offline copy registered', BOARD_WAIT);
    await openBoard(page, `${url}?fresh`);
    await registered;
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForTimeout(1000);
    const cdp = await page.context().newCDPSession(page);
    const installability = (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors;
    const manifest = await cdp.send('Page.getAppManifest');
    await cdp.detach();
    console.log(JSON.stringify({ installability_errors: installability, manifest_errors: manifest.errors }));
    if (installability.length > 0) throw new Error('not installable: ' + JSON.stringify(installability));
    await browser.setOffline(true);
    process.kill(Number(serverPid), 'SIGTERM'); // nothing left to answer on the network
    const noNetwork = milestone(page, 'online no network', BOARD_WAIT);
    const ms = await openBoard(page, `${url}?fresh&online`);
    await noNetwork;
    if (await page.evaluate(() => navigator.onLine)) throw new Error('the page thinks it is online');
    const answered = milestone(page, 'engine played', MOVE_WAIT);
    await tapOrClick(page, 'f5', 'f6', false);
    const reply = await answered;
    await page.waitForTimeout(1500);
    await page.screenshot({ path: shot });
    console.log(JSON.stringify({ offline_board_ms: ms, reply: reply.text() }));
  } finally {
    await browser.close();
  }
}

async function cellXY(page, cell) {
  const xy = await page.evaluate((c) => window.hexchess.cellXY(c), cell);
  if (xy.length !== 2) throw new Error(`cell ${cell} is not on the canvas`);
  return xy;
}

async function tapOrClick(page, from, to, touch) {
  for (const cell of [from, to]) {
    const [x, y] = await cellXY(page, cell);
    if (touch) await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
    await page.waitForTimeout(400);
  }
}

/// A finger put down on `from`, moved in steps to `to`, lifted there.
async function drag(page, from, to) {
  const cdp = await page.context().newCDPSession(page);
  const [x0, y0] = await cellXY(page, from);
  const [x1, y1] = await cellXY(page, to);
  const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1 }],
  });
  // A finger's pace (1.5 s across, held 0.5 s): software rendering draws a frame in
  // a few hundred milliseconds, and each step of the drag must reach a frame.
  await touch('touchStart', x0, y0);
  for (let i = 1; i <= 10; i++) {
    await page.waitForTimeout(150);
    await touch('touchMove', x0 + ((x1 - x0) * i) / 10, y0 + ((y1 - y0) * i) / 10);
  }
  await page.waitForTimeout(500);
  await touch('touchEnd', x1, y1);
  await cdp.detach();
}

async function link(url, outPrefix) {
  const host = await launch();
  const guest = await launch();
  echo(host.page, '[host] ');
  echo(guest.page, '[guest] ');
  try {
    const made = milestone(host.page, 'challenge link', BOARD_WAIT);
    const hostJoined = milestone(host.page, 'online joined', BOARD_WAIT);
    await openBoard(host.page, `${url}?fresh&online&online-challenge=glinski`);
    const shared = (await made).text().split(' ').pop();
    const origin = new URL(url).origin;
    if (!shared.startsWith(origin + '/#challenge=')) {
      throw new Error(`the link ${shared} is not this page's (${origin})`);
    }
    await host.page.waitForTimeout(1500);
    await host.page.screenshot({ path: `${outPrefix}-link.png` });
    const guestJoined = milestone(guest.page, 'online joined', BOARD_WAIT);
    await openBoard(guest.page, shared);
    await guestJoined;
    await hostJoined;
    await host.page.waitForTimeout(2000);
    const arrived = milestone(guest.page, 'online step f5f6', MOVE_WAIT);
    await tapOrClick(host.page, 'f5', 'f6', false);
    await arrived;
    await guest.page.waitForTimeout(1500);
    await guest.page.screenshot({ path: `${outPrefix}-joined.png` });
    console.log(JSON.stringify({ link: shared, moved: 'f5f6' }));
  } finally {
    await host.browser.close();
    await guest.browser.close();
  }
}

async function touch(url, shot) {
  const { browser, page } = await launch({ width: 390, height: 844, touch: true });
  echo(page);
  try {
    await openBoard(page, `${url}?fresh&view=2d`);
    const first = milestone(page, 'engine played', MOVE_WAIT);
    await tapOrClick(page, 'f5', 'f6', true);
    const reply = (await first).text();
    await page.waitForTimeout(2000);
    const second = milestone(page, 'engine played', MOVE_WAIT);
    await drag(page, 'd3', 'd4');
    const reply2 = (await second).text();
    await page.waitForTimeout(2000);
    await page.screenshot({ path: shot });
    console.log(JSON.stringify({ tapped: 'f5f6', reply, dragged: 'd3d4', reply2 }));
  } finally {
    await browser.close();
  }
}

const [mode, ...rest] = process.argv.slice(2);
try {
  if (mode === 'visits') await visits(rest[0], rest[1]);
  else if (mode === 'first-board') await firstBoard(rest[0], rest[1] || 3);
  else if (mode === 'offline') await offline(rest[0], rest[1], rest[2]);
  else if (mode === 'link') await link(rest[0], rest[1]);
  else if (mode === 'touch') await touch(rest[0], rest[1]);
  else throw new Error('usage: pwa.mjs visits|first-board|offline|link|touch ...');
} catch (e) {
  console.error('FAILED: ' + e.message);
  process.exit(1);
}
