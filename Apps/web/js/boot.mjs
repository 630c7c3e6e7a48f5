// Runs first: opens the WebSocket and says hello while the app loads, keeping
// what comes until main.mjs hands the socket over. No static import, so it runs
// once its own file is in; the socket is made before the slow first
// localStorage read and before connection.mjs is awaited.

/** The socket's address: the page's own host, `wss:` under https. */
export const socketURL = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;

let early = { socket: new WebSocket(socketURL), helloSent: false, events: [] };
early.socket.onmessage = (event) => early.events.push(['message', event.data]);
early.socket.onclose = () => early.events.push(['close']);

const { helloMessage, pairingCode } = await import('./connection.mjs');

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
if (early.socket.readyState === WebSocket.OPEN) sayHello();
else early.socket.onopen = sayHello;

/** The first socket, once, with what it missed (messages and a close, in order). */
export function takeSocket() {
  const taken = early;
  if (!taken) throw new Error('the first socket was already taken');
  early = null;
  return taken;
}
