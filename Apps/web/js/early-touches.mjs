// Touches that come before the arrange session's modules are in (the first
// layout is drawn without them: js/engine-api.mjs). Each is kept as it was —
// where, when, which pointer — and handed to the controller when the session
// exists. The engine takes its time from the events, never from a clock, so a
// touch replayed late is decided exactly as it would have been on time: a hold
// that began before the session still lifts at 0.45 s of its own time.

/** At most this many pointer events are kept (a finger moving for a few seconds); older ones are dropped with their touch. */
const MOST_KEPT = 512;

/** A pointer event's fields the controller reads, readable after the event is gone. */
function snapshot(event) {
  const samples = (event.getCoalescedEvents?.() ?? []).map((sample) => ({
    pointerId: sample.pointerId, clientX: sample.clientX, clientY: sample.clientY, timeStamp: sample.timeStamp,
  }));
  return {
    pointerId: event.pointerId,
    clientX: event.clientX,
    clientY: event.clientY,
    timeStamp: event.timeStamp,
    getCoalescedEvents: () => samples,
    // Already handled when it happened (below); the replay has nothing left to prevent.
    preventDefault() {},
  };
}

export class EarlyTouches {
  constructor() {
    /** @type {{kind: string, event: object}[]} */ this.kept = [];
  }

  /**
   * Keeps one pointer event for later. The browser's default (scrolling, a
   * long-press menu) is prevented now, as the controller would have.
   * @param {'down'|'move'|'up'|'cancel'|'released'} kind
   * @param {PointerEvent} event
   */
  keep(kind, event) {
    // Only what belongs to a touch that began here (a mouse's hovering moves do not).
    if (kind !== 'down' && !this.kept.some((e) => e.kind === 'down' && e.event.pointerId === event.pointerId)) return;
    if (kind === 'down') event.preventDefault();
    if (this.kept.length >= MOST_KEPT) {
      // Too long a wait: forget the oldest touch whole, never half of one.
      const next = this.kept.findIndex((e, i) => i > 0 && e.kind === 'down');
      this.kept.splice(0, next > 0 ? next : this.kept.length);
    }
    this.kept.push({ kind, event: snapshot(event) });
  }

  /**
   * Hands every kept event, in order, to `handle` and forgets them.
   * @param {(kind: string, event: object) => void} handle
   */
  replay(handle) {
    const kept = this.kept;
    this.kept = [];
    for (const { kind, event } of kept) handle(kind, event);
  }
}
