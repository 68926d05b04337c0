// Plays the browser game in headless Chromium as a person would, and screenshots it.
//
//   node web/test/play.mjs engine URL OUT.png   load the page, wait for the board,
//        click White's first move, wait for the engine's answer (from its worker)
//   node web/test/play.mjs storage URL OUT.png    a move and a setting kept in the
//        page's storage and found again after a reload
//   node web/test/play.mjs workers URL OUT   the analysis, a review, an endgame
//        drill, a table of engine seats and an uploaded variant, all in workers,
//        the page drawing meanwhile (screenshots OUT-analysis.png, -drill, -table)
//   node web/test/play.mjs online WS_URL PAGE_URL OUT.png
//        make a challenge as a second player (over the server's websocket), open the
//        page at PAGE_URL#challenge=CODE, wait until the game has joined it, play the
//        first move from the page and see it reach the other player
//   node web/test/play.mjs desktop SECRETS DISPLAY WS_URL PAGE_URL OUT
//        a desktop window (the game under Xvfb on DISPLAY, its secret in SECRETS)
//        challenges, the page takes the challenge by its link and plays White's first
//        move by clicks, the desktop answers with a move typed into its own window;
//        screenshots OUT-page.png and OUT-desktop.png
//
// Every wait has a limit; a wait that runs out fails the run (exit 1). The game's
// console lines (`hexchess: ...`) are the milestones waited for.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { launch } from './browser.mjs';

const BOARD_WAIT = 10 * 60 * 1000; // software WebGL2 and a first wasm compile are slow
const MOVE_WAIT = 3 * 60 * 1000;

function milestone(page, prefix, timeout) {
  return page.waitForEvent('console', {
    predicate: (m) => m.text().startsWith('hexchess: ' + prefix),
    timeout,
  });
}

/// A milestone that counts (`analysis depth N`) reached N >= `least`: the game tells the
/// depth its first line has when a frame reads it, so a slow frame passes depths over.
function milestoneAtLeast(page, prefix, least, timeout) {
  return page.waitForEvent('console', {
    predicate: (m) => {
      const text = m.text();
      if (!text.startsWith('hexchess: ' + prefix + ' ')) return false;
      return Number(text.slice(('hexchess: ' + prefix + ' ').length)) >= least;
    },
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

/// The desktop game against a page: the desktop's player (its secret read from the
/// game's own file) challenges over a second connection of its own, so the desktop
/// window is told the game started, as when its Online window makes the challenge.
async function desktop(secrets, display, wsUrl, pageUrl, outPrefix) {
  const token = readFileSync(secrets, 'utf8').trim().split(/\s+/)[1];
  const x = (...args) => execFileSync('xdotool', args, { env: { ...process.env, DISPLAY: display } });
  const me = player(wsUrl);
  await me.opened;
  me.send({ t: 'hello', protocol: 1, token });
  await me.waitFor((m) => m.t === 'welcome', 10000);
  me.send({ t: 'seek', variant: 'glinski', private: true, side: 'black' });
  const seek = await me.waitFor((m) => m.t === 'seek' && m.code, 10000);
  const { browser, page } = await launch();
  page.on('console', (m) => { if (m.text().startsWith('hexchess:')) console.log(m.text()); });
  try {
    const joined = milestone(page, 'online joined', BOARD_WAIT);
    await openBoard(page, `${pageUrl}#challenge=${seek.code}`);
    await joined;
    const started = await me.waitFor((m) => m.t === 'started', 30000);
    me.send({ t: 'join', game: started.game });
    // The desktop's Online window closes by itself when its game starts.
    await page.waitForTimeout(2000);
    await clickMove(page, 'f5', 'f6');
    await me.waitFor((m) => m.t === 'step' && m.step === 'f5f6', MOVE_WAIT);
    await page.waitForTimeout(4000); // the desktop's slow software frames show it
    // Typed into the desktop's move box (one row of moves above it).
    x('windowfocus', x('search', '--name', 'hexchess').toString().split('\n')[0]);
    x('mousemove', '1128', '272', 'click', '1');
    await page.waitForTimeout(500);
    x('type', '--delay', '80', 'c7c6');
    x('key', 'Return');
    await me.waitFor((m) => m.t === 'step' && m.step === 'c7c6', MOVE_WAIT);
    await page.waitForTimeout(5000); // the page's slide of the desktop's move
    await page.screenshot({ path: `${outPrefix}-page.png` });
    x('mousemove', '700', '790');
    await page.waitForTimeout(1500);
    execFileSync('import', ['-window', 'root', `${outPrefix}-desktop.png`], {
      env: { ...process.env, DISPLAY: display },
    });
    console.log(JSON.stringify({ game: started.game, page: 'f5f6', desktop: 'c7c6' }));
  } finally {
    await browser.close();
    me.socket.close();
  }
}

/// Frames the game draws in `ms` while the engine works: a page whose frame runs the
/// engine draws none.
async function framesDuring(page, ms) {
  const before = await page.evaluate(() => window.hexchess.frames());
  await page.waitForTimeout(ms);
  const after = await page.evaluate(() => window.hexchess.frames());
  return after - before;
}

/// Everything the native game does on threads, done in workers: the analysis board
/// (its lines deepen while frames go on), a game review, an endgame drill whose tables
/// a worker builds, the engine seats of a three-player table, and a player's own
/// variant (uploaded, kept across a reload, and played by the engine).
async function workers(url, shotPrefix) {
  const { browser, page } = await launch();
  const said = [];
  page.on('console', (m) => {
    if (m.text().startsWith('hexchess:')) { console.log(m.text()); said.push(m.text()); }
  });
  const report = {};
  try {
    // The analysis board: lines from the worker, frames going on meanwhile.
    const deep = milestoneAtLeast(page, 'analysis depth', 6, MOVE_WAIT);
    await openBoard(page, `${url}?fresh&analyse&moves=f5f6`);
    report.analysis_frames_in_5s = await framesDuring(page, 5000);
    await deep;
    if (report.analysis_frames_in_5s < 5) throw new Error('the page stopped drawing while the analysis ran');
    await page.screenshot({ path: `${shotPrefix}-analysis.png` });

    // A review of four moves.
    const reviewed = milestone(page, 'review done 4 moves', MOVE_WAIT);
    await openBoard(page, `${url}?fresh&review&moves=f5f6&moves=c7c6&moves=e4e5&moves=d7d6`);
    report.review_frames_in_3s = await framesDuring(page, 3000);
    report.review = (await reviewed).text();
    if (report.review_frames_in_3s < 3) throw new Error('the page stopped drawing during the review');

    // An endgame drill: its tables built in a worker of their own.
    const drill = milestone(page, 'drill started KRvK', MOVE_WAIT);
    await openBoard(page, `${url}?fresh&drill=KRvK`);
    report.drill_frames_in_3s = await framesDuring(page, 3000);
    report.drill = (await drill).text();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `${shotPrefix}-drill.png` });

    // A table of three engine seats: each turn from a worker.
    const seats = [];
    const third = new Promise((resolve) => {
      page.on('console', (m) => {
        if (m.text().startsWith('hexchess: seat played')) {
          seats.push(m.text());
          if (seats.length === 3) resolve();
        }
      });
    });
    await openBoard(page, `${url}?fresh&variant=hexachess-3&mode=engine-engine`);
    await Promise.race([third, page.waitForTimeout(MOVE_WAIT).then(() => { throw new Error('seats: ' + seats.join('; ')); })]);
    report.seats = seats;
    await page.screenshot({ path: `${shotPrefix}-table.png` });

    // A player's own variant: opened as a dropped file, kept in the page's storage,
    // there again after a reload, and the engine (in its worker) plays it.
    const glinski = readFileSync(new URL('../../variants/glinski.ron', import.meta.url), 'utf8');
    const mine = glinski.replace('"glinski"', '"my-hex"').replace('name: "Gliński"', 'name: "My hex"');
    await openBoard(page, `${url}?fresh`);
    const opened = milestone(page, 'variant opened my-hex', 30000);
    await page.evaluate(([t]) => window.hexchess.openFile('my-hex.ron', t), [mine]);
    await opened;
    const kept = await page.evaluate(() => localStorage.getItem('/hexchess/data/variants/my-hex.ron') || '');
    if (!kept.includes('my-hex')) throw new Error('the variant file was not kept');
    await openBoard(page, `${url}?fresh&variant=my-hex&mode=human-engine`);
    const answered = milestone(page, 'engine played', MOVE_WAIT);
    await clickMove(page, 'f5', 'f6');
    report.own_variant = (await answered).text();
    if (said.some((l) => l.includes('unknown variant'))) throw new Error('the variant was not found after the reload');
    console.log(JSON.stringify(report));
  } finally {
    await browser.close();
  }
}

const [mode, ...rest] = process.argv.slice(2);
try {
  if (mode === 'engine') await againstTheEngine(rest[0], rest[1]);
  else if (mode === 'online') await online(rest[0], rest[1], rest[2]);
  else if (mode === 'desktop') await desktop(...rest.slice(0, 5));
  else if (mode === 'storage') await storage(rest[0], rest[1]);
  else if (mode === 'workers') await workers(rest[0], rest[1]);
  else throw new Error('usage: play.mjs engine URL OUT.png | online WS_URL PAGE_URL OUT.png');
} catch (e) {
  console.error('FAILED: ' + e.message);
  process.exit(1);
}
