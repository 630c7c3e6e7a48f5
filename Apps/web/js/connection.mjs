// The WebSocket to deckd: hello with the kept token or the pairing code,
// replies matched to requests, reconnection 0.5 s doubling to 10 s (and at
// once when the page is visible again or the network comes back). No import:
// a module more is a request more before the first draw.

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

/** The `hello`: with the pairing code while there is one, else the token kept in `storage`. */
export function helloMessage(device, storage, code) {
  const hello = { type: 'hello', id: 0, protocol: PROTOCOL_LEVEL, device };
  const token = storage.getItem(TOKEN_KEY);
  if (code) hello.pairingCode = code;
  else if (token) hello.token = token;
  return hello;
}

/** Retries (s): the first this soon (a restarting host is back by then), none longer than the last. */
export const FIRST_RETRY = 0.5;
export const LONGEST_RETRY = 10;

/** The wait (s) before retry number `attempt` (0 the first after a drop). */
export function retryDelay(attempt) {
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`attempt must be a whole number ≥ 0, not ${attempt}`);
  return Math.min(LONGEST_RETRY, FIRST_RETRY * 2 ** Math.min(attempt, 10));
}

export class Connection {
  /**
   * @param {object} options
   * @param {string} options.url the WebSocket's address
   * @param {{name: string, kind: string}} options.device
   * @param {Storage} options.storage where the token is kept
   * @param {string | null} options.code a pairing code from the address, sent once
   * @param {(message: object) => void} options.onMessage every host message that is not a reply
   * @param {(state: 'connecting' | 'connected' | 'offline' | 'unpaired', welcome?: object) => void} options.onState
   */
  constructor({ url, device, storage, code, onMessage, onState }) {
    this.url = url;
    this.device = device;
    this.storage = storage;
    this.code = code;
    this.onMessage = onMessage;
    this.onState = onState;
    /** @type {WebSocket | null} */ this.socket = null;
    this.state = 'connecting';
    this.attempt = 0;
    this.nextId = 1;
    /** @type {Map<number, (reply: object) => void>} */ this.pending = new Map();
    this.timer = null;
    this.stopped = false;
  }

  /** Opens the socket (again). */
  open() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped || this.socket) return;
    this.wire(new WebSocket(this.url), false);
  }

  /**
   * Takes over boot.mjs's socket: a hello said is not said again; what it missed is taken now, in order.
   * @param {{socket: WebSocket, helloSent: boolean, events: [string, string?][]}} early
   */
  adopt({ socket, helloSent, events }) {
    if (this.socket) throw new Error('the connection already has a socket');
    this.wire(socket, helloSent);
    for (const [kind, data] of events) {
      if (kind === 'message') this.receive(data);
      else this.dropped(socket);
    }
  }

  wire(socket, helloSent) {
    this.socket = socket;
    socket.onopen = helloSent ? null : () => socket.send(JSON.stringify(helloMessage(this.device, this.storage, this.code)));
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = () => this.dropped(socket);
    socket.onerror = () => {}; // onclose follows and says it
  }

  /** @param {string} text */
  receive(text) {
    let message;
    try { message = JSON.parse(text); } catch { return; }
    if (!message || typeof message !== 'object') return;
    if (message.type === 'welcome') {
      if (typeof message.token === 'string') this.storage.setItem(TOKEN_KEY, message.token);
      this.code = null; // used once, whatever happened
      this.attempt = 0;
      this.state = 'connected';
      this.onState('connected', message);
      return;
    }
    if (this.state !== 'connected' && message.type === 'error' && message.code === 'unauthorized') {
      if (this.code && this.storage.getItem(TOKEN_KEY)) {
        // A used or expired code, but this browser was paired before: its token still may work.
        this.code = null;
        return;
      }
      // Retrying would only count failed attempts against this address.
      this.code = null;
      this.stopped = true;
      this.state = 'unpaired';
      this.onState('unpaired');
      return;
    }
    const waiting = message.id !== undefined ? this.pending.get(message.id) : undefined;
    if (waiting && (message.type === 'ok' || message.type === 'error' || message.type === 'pong')) {
      this.pending.delete(message.id);
      waiting(message);
      return;
    }
    this.onMessage(message);
  }

  dropped(socket) {
    if (this.socket !== socket) return;
    this.socket = null;
    for (const waiting of this.pending.values()) waiting({ type: 'error', code: 'offline', message: 'the connection dropped' });
    this.pending.clear();
    if (this.stopped) return;
    this.state = 'offline';
    this.onState('offline');
    this.timer = setTimeout(() => this.open(), retryDelay(this.attempt++) * 1000);
  }

  /** Tries at once (the page became visible, the network came back). */
  retryNow() {
    if (!this.socket && !this.stopped) this.open();
  }

  /**
   * Sends a request; resolves with its reply (`ok`/`error`), or at once with
   * an `offline` error when not connected — never sent late.
   * @param {object} request
   * @returns {Promise<object>}
   */
  request(request) {
    if (this.state !== 'connected' || !this.socket || this.socket.readyState !== WebSocket.OPEN) {
      return Promise.resolve({ type: 'error', code: 'offline', message: 'offline' });
    }
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ ...request, id }));
    return new Promise((resolve) => this.pending.set(id, resolve));
  }

  /** Whether requests can be sent now. */
  get online() { return this.state === 'connected'; }
}
