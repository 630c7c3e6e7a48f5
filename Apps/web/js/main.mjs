// Wires the deck: the connection feeds the layout store, the controller feeds
// the engine and performs its outputs, the renderer draws.

import { code, device, socketURL, takeSocket } from './boot.mjs';
import { Connection } from './connection.mjs';
import { Controller } from './controller.mjs';
import { loadSession, makeCopy, readLayout } from './engine-api.mjs';
import { pickLanguage, translator } from './i18n.mjs';
import { LayoutStore } from './layout-store.mjs';
import { Renderer } from './renderer.mjs';

const language = pickLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
const t = translator(language);
document.documentElement.lang = language;

const root = document.querySelector('[data-connection]');
const grid = root.querySelector('[data-deck-grid]');
const status = root.querySelector('.status');
const announcer = root.querySelector('[data-role="announce"]');
const lockBanner = root.querySelector('.locked');
const done = root.querySelector('[data-role="done"]');
done.textContent = t('done');
lockBanner.textContent = t('locked');

/**
 * Says a hint or a refusal to a screen reader; refusals also show for a
 * while (the hint already shows as its bubble).
 */
function announce(text, { visible = true } = {}) {
  announcer.textContent = text;
  announcer.classList.toggle('shown', visible && Boolean(text));
  clearTimeout(announce.timer);
  announce.timer = setTimeout(() => announcer.classList.remove('shown'), 4000);
}

const store = new LayoutStore(makeCopy, readLayout);
const renderer = new Renderer({ root, grid, t });

const awake = { lock: null, wanted: false, want(on) { this.wanted = on; this.lock?.want(on); } };

let controller = null;

function setStatus(state) {
  // WEB.md §7 knows connecting, connected and offline: a browser the host refused is offline (and says why).
  root.dataset.connection = state === 'unpaired' ? 'offline' : state;
  root.classList.toggle('unpaired', state === 'unpaired');
  status.textContent = state === 'connected' ? store.profile : t(state === 'unpaired' ? 'notPaired' : state);
}

const deck = {
  onState(state, welcome) {
    if (state === 'connected') {
      store.receiveHost(welcome);
      setLocked(store.locked);
      root.dataset.revision = String(store.revision);
      controller.layoutChanged();
      awake.want(true);
    } else {
      controller.app('disconnected');
      awake.want(false);
    }
    setStatus(state === 'connected' ? 'connected' : state);
  },
  onMessage(message) {
    switch (message.type) {
      case 'layout':
        store.receiveHost(message);
        root.dataset.revision = String(store.revision);
        if (connection.online) status.textContent = store.profile;
        controller.layoutChanged();
        break;
      case 'lock':
        setLocked(message.locked === true);
        if (message.locked === true) controller.app('hostLocked');
        break;
      case 'showPage': controller.showPage(message.page); break;
      case 'buttonState': // a level-7 host: titles only
        store.setTitle(message.page, message.index, message.title);
        renderer.paintSlot(store, message.page, message.index);
        break;
      case 'buttonFace':
        if (store.setFace(message, performance.now() / 1000)) renderer.paintSlot(store, message.page, message.index);
        break;
      default: break;
    }
  },
};

const connection = new Connection({
  url: socketURL, device, storage: localStorage, code,
  onState: deck.onState, onMessage: deck.onMessage,
});

function setLocked(locked) {
  store.locked = locked;
  root.dataset.locked = String(locked);
  lockBanner.hidden = !locked;
}

// After the first draw (docs/web.md), preloaded at once: Tests/web/first-draw.test.mjs checks LATER.
const LATER = ['engine/arrange-session', 'engine/arrange-touch', 'engine/recognizers', 'engine/combinators', 'engine/tracker',
  'engine/time', 'engine/swipe-pager', 'engine/edge-dwell', 'engine/hold-hint', 'engine/wiggle', 'js/settings', 'js/actions',
  'js/refusals', 'js/wake-lock'];

async function later() {
  for (const name of LATER) {
    document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href: `${name}.mjs` }));
  }
  const [makeSession, { SettingsSheet }, { refusalWords }, { WakeLock }] = await Promise.all([
    loadSession(), import('./settings.mjs'), import('./refusals.mjs'), import('./wake-lock.mjs'),
  ]);
  const refusal = (reply) => refusalWords(reply, t);
  const sheet = new SettingsSheet(root.querySelector('[data-role="settings"]'), t, {
    save: (slot, button) => connection.request({ type: 'setButton', page: slot.page, index: slot.index, button }),
    remove: (slot, expecting) => connection.request({ type: 'clearButton', page: slot.page, index: slot.index, expecting }),
    move: (slot, to) => controller.drop(slot, to, null),
    refusal,
  });
  awake.lock = new WakeLock();
  awake.want(awake.wanted);
  return { makeSession, sheet, refusal };
}

controller = new Controller({
  root, grid, stage: root.querySelector('.stage'), store, renderer, connection, loadLater: later, announce,
  reduceMotion: matchMedia('(prefers-reduced-motion: reduce)'),
});

done.addEventListener('click', () => controller.app('done'));
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') {
    controller.app('background');
  } else {
    connection.retryNow();
    if (connection.online) awake.want(true);
  }
});
addEventListener('online', () => connection.retryNow());
// No browser defaults on the deck: context menu, selection, callout, zoom.
for (const type of ['contextmenu', 'selectstart', 'dragstart', 'gesturestart', 'dblclick']) {
  root.addEventListener(type, (event) => { if (!event.target.closest('dialog')) event.preventDefault(); });
}

setStatus('connecting');
connection.adopt(takeSocket());
