// The first module the page runs: it opens the WebSocket to deckd and says
// hello while the rest of the app is still being fetched (page load → first
// layout), and keeps what the socket does until main.mjs hands it to the
// connection. It has no static import, so the browser runs it as soon as its
// own file is in: the socket is made first, and only then is hello.mjs (the
// words of the hello, preloaded by the page) awaited.

/** The socket's address: the page's own host, `wss:` under https. */
export const socketURL = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;

/**
 * The page's first socket and what it did before the connection took it: [kind, data] in order.
 * Made before anything else here: the first read of localStorage loads its whole area
 * synchronously (tens of milliseconds on a busy phone), and the handshake need not wait for it.
 */
let early = { socket: new WebSocket(socketURL), helloSent: false, events: [] };
early.socket.onmessage = (event) => early.events.push(['message', event.data]);
early.socket.onclose = () => early.events.push(['close']);

const { helloMessage, pairingCode } = await import('./hello.mjs');

// The pairing code is read once and leaves the address bar (and history) at once.
export const code = pairingCode(location.hash);
if (code) history.replaceState(null, '', location.pathname + location.search);

const shortSide = Math.min(screen.width, screen.height);
/** This browser as the host will know it. */
export const device = {
  name: localStorage.getItem('deck.deviceName') || (shortSide < 600 ? 'Web phone' : 'Web tablet'),
  kind: shortSide < 600 ? 'phone' : 'tablet',
};

function sayHello() {
  early.socket.send(JSON.stringify(helloMessage(device, localStorage, code)));
  early.helloSent = true;
}
// The socket may have opened while hello.mjs was awaited.
if (early.socket.readyState === WebSocket.OPEN) sayHello();
else early.socket.onopen = sayHello;

/**
 * The first socket, once: its handlers are the caller's to set from now on,
 * and `events` is what it missed (messages and a close, in order).
 * @returns {{socket: WebSocket, helloSent: boolean, events: [string, string?][]}}
 */
export function takeSocket() {
  const taken = early;
  if (!taken) throw new Error('the first socket was already taken');
  early = null;
  return taken;
}
