// Plays the browser game in headless Chromium as a person would, and screenshots it.
//
//   node web/test/play.mjs engine URL OUT.png   load the page, wait for the board,
//        click White's first move, wait for the engine's answer (from its worker)
//   node web/test/play.mjs storage URL OUT.png    a move and a setting kept in the
//        page's storage and found again after a reload
//   node web/test/play.mjs online WS_URL PAGE_URL OUT.png
//        make a challenge as a second player (over the server's websocket), open the
//        page at PAGE_URL#challenge=CODE, wait until the game has joined it, play the
//        first move from the page and see it reach the other player
//
// Every wait has a limit; a wait that runs out fails the run (exit 1). The game's
// console lines (`hexchess: ...`) are the milestones waited for.
import { launch } from './browser.mjs';

const BOARD_WAIT = 10 * 60 * 1000; // software WebGL2 and a first wasm compile are slow
const MOVE_WAIT = 3 * 60 * 1000;

function milestone(page, prefix, timeout) {
  return page.waitForEvent('console', {
    predicate: (m) => m.text().startsWith('hexchess: ' + prefix),
    timeout,
  });
}

async function openBoard(page, url) {
  const ready = milestone(page, 'board ready', BOARD_WAIT);
  const started = Date.now();
  await page.goto(url);
  await ready;
  return Date.now() - started;
}

/// Clicks from one cell to another, as a person picks up a piece and puts it down.
async function clickMove(page, from, to) {
  for (const cell of [from, to]) {
    const xy = await page.evaluate((c) => window.hexchess.cellXY(c), cell);
    if (xy.length !== 2) throw new Error(`cell ${cell} is not on the canvas`);
    await page.mouse.click(xy[0], xy[1]);
    await page.waitForTimeout(400);
  }
}

async function againstTheEngine(url, shot) {
  const { browser, page } = await launch();
  page.on('console', (m) => { if (m.text().startsWith('hexchess:')) console.log(m.text()); });
  try {
    const loaded = await openBoard(page, url);
    console.log(`board after ${loaded} ms`);
    const answered = milestone(page, 'engine played', MOVE_WAIT);
    await clickMove(page, 'f5', 'f6');
    const reply = await answered;
    await page.waitForTimeout(1500); // the reply's slide
    await page.screenshot({ path: shot });
    console.log(JSON.stringify({ loaded_ms: loaded, reply: reply.text() }));
  } finally {
    await browser.close();
  }
}

/// The page keeps its files: a move against the engine is autosaved and `?view=2d`
/// kept in the settings, both in localStorage; a reload without options finds both
/// (the settings say 2D, and the game offers the unfinished game back).
async function storage(url, shot) {
  const { browser, page } = await launch();
  page.on('console', (m) => { if (m.text().startsWith('hexchess:')) console.log(m.text()); });
  try {
    await openBoard(page, `${url}?view=2d`);
    const answered = milestone(page, 'engine played', MOVE_WAIT);
    await clickMove(page, 'f5', 'f6');
    await answered;
    await page.waitForTimeout(2500); // the settings are written a second after a change
    const kept = await page.evaluate(() => ({
      settings: localStorage.getItem('/hexchess/config/settings.ron') || '',
      autosave: localStorage.getItem('/hexchess/data/autosave.pgn') || '',
    }));
    if (!kept.settings.includes('TwoD')) throw new Error('settings not kept: ' + kept.settings);
    if (!kept.autosave.includes('1. f6')) throw new Error('game not autosaved: ' + kept.autosave);
    await openBoard(page, url);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: shot });
    console.log(JSON.stringify({ settings_bytes: kept.settings.length, autosave: kept.autosave.split('\n').filter((l) => l.startsWith('1.'))[0] }));
  } finally {
    await browser.close();
  }
}

/// A second player on the server's websocket (Node's own WebSocket).
function player(wsUrl) {
  const socket = new WebSocket(wsUrl);
  const heard = [];
  const waiters = [];
  socket.onmessage = (e) => {
    const m = JSON.parse(e.data);
    heard.push(m);
    for (const w of waiters.splice(0)) w();
  };
  const opened = new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error('no connection to ' + wsUrl));
  });
  async function waitFor(test, ms) {
    const until = Date.now() + ms;
    for (;;) {
      const found = heard.find(test);
      if (found) return found;
      if (Date.now() > until) throw new Error('waited in vain; heard: ' + JSON.stringify(heard).slice(-800));
      await new Promise((r) => { waiters.push(r); setTimeout(r, 500); });
    }
  }
  return { socket, opened, waitFor, send: (m) => socket.send(JSON.stringify(m)) };
}

async function online(wsUrl, pageUrl, shot) {
  const friend = player(wsUrl);
  await friend.opened;
  friend.send({ t: 'hello', protocol: 1 });
  await friend.waitFor((m) => m.t === 'welcome', 10000);
  friend.send({ t: 'seek', variant: 'glinski', private: true, side: 'black' });
  const seek = await friend.waitFor((m) => m.t === 'seek' && m.code, 10000);
  console.log('challenge ' + seek.code);

  const { browser, page } = await launch();
  page.on('console', (m) => { if (m.text().startsWith('hexchess:')) console.log(m.text()); });
  try {
    const joined = milestone(page, 'online joined', BOARD_WAIT);
    await openBoard(page, `${pageUrl}#challenge=${seek.code}`);
    await joined;
    const started = await friend.waitFor((m) => m.t === 'started', 30000);
    friend.send({ t: 'join', game: started.game });
    await page.waitForTimeout(2000);
    await clickMove(page, 'f5', 'f6');
    const step = await friend.waitFor((m) => m.t === 'step' && m.step === 'f5f6', MOVE_WAIT);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: shot });
    console.log(JSON.stringify({ game: started.game, seen_by_friend: step.step }));
  } finally {
    await browser.close();
    friend.socket.close();
  }
}

const [mode, ...rest] = process.argv.slice(2);
try {
  if (mode === 'engine') await againstTheEngine(rest[0], rest[1]);
  else if (mode === 'online') await online(rest[0], rest[1], rest[2]);
  else if (mode === 'storage') await storage(rest[0], rest[1]);
  else throw new Error('usage: play.mjs engine URL OUT.png | online WS_URL PAGE_URL OUT.png');
} catch (e) {
  console.error('FAILED: ' + e.message);
  process.exit(1);
}
