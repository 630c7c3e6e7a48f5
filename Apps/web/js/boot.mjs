// The first module the page runs: it opens the WebSocket to deckd while the
// rest of the app is still being fetched (page load → first layout), and
// keeps what the host says until main.mjs attaches the deck to it. It imports
// only the connection, so the browser can run it as soon as two files are in.

import { Connection, pairingCode } from './connection.mjs';

// The pairing code is read once and leaves the address bar (and history) at once.
const code = pairingCode(location.hash);
if (code) history.replaceState(null, '', location.pathname + location.search);

const shortSide = Math.min(screen.width, screen.height);
const device = {
  name: localStorage.getItem('deck.deviceName') || (shortSide < 600 ? 'Web phone' : 'Web tablet'),
  kind: shortSide < 600 ? 'phone' : 'tablet',
};

/** What the host said before the deck was attached, in order: [kind, ...arguments]. */
let early = [];
let handlers = null;

/** The page's one connection, already opening when this module has run. */
export const connection = new Connection({
  url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`,
  device,
  storage: localStorage,
  code,
  onState: (...args) => (handlers ? handlers.onState(...args) : early.push(['onState', args])),
  onMessage: (...args) => (handlers ? handlers.onMessage(...args) : early.push(['onMessage', args])),
});

/**
 * Hands the connection's events to the deck from now on, after replaying
 * those that came before it was ready.
 * @param {{onState: Function, onMessage: Function}} deck
 */
export function attach(deck) {
  const missed = early;
  early = [];
  handlers = deck;
  for (const [kind, args] of missed) deck[kind](...args);
}

connection.open();
