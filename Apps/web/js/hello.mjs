// What a device says first (PROTOCOL.md `hello`), shared by boot.mjs, which
// says it on the page's first socket before anything else has loaded, and by
// the connection, which says it on every socket after. No imports, no DOM:
// it is the one module boot.mjs waits for.

/** The protocol level this app speaks (PROTOCOL.md; 8 brings button faces, docs/faces.md); a level-7 host answers at 7. */
export const PROTOCOL_LEVEL = 8;
/** Where the device token is kept between visits. */
export const TOKEN_KEY = 'deck.token';

/**
 * Reads `#pair=CODE` from an address's fragment.
 * @param {string} hash location.hash
 * @returns {string | null}
 */
export function pairingCode(hash) {
  const match = /^#?(?:.*&)?pair=([^&]+)/.exec(hash ?? '');
  return match ? decodeURIComponent(match[1]) : null;
}

/**
 * The `hello` for one socket: the pairing code while there is one, else the kept token.
 * @param {{name: string, kind: string}} device
 * @param {Storage} storage where the token is kept
 * @param {string | null} code
 */
export function helloMessage(device, storage, code) {
  const hello = { type: 'hello', id: 0, protocol: PROTOCOL_LEVEL, device };
  const token = storage.getItem(TOKEN_KEY);
  if (code) hello.pairingCode = code;
  else if (token) hello.token = token;
  return hello;
}
