// Keeps the screen awake while the deck is connected and visible (Screen
// Wake Lock, where the browser allows it; elsewhere the screen sleeps as usual).

export class WakeLock {
  constructor() {
    /** @type {any} */ this.sentinel = null;
    this.wanted = false;
  }

  /** Asks for the lock (again) or lets it go. */
  async want(on) {
    this.wanted = on;
    if (!on) {
      const held = this.sentinel;
      this.sentinel = null;
      await held?.release().catch(() => {});
      return;
    }
    if (this.sentinel || !navigator.wakeLock || document.visibilityState !== 'visible') return;
    try {
      this.sentinel = await navigator.wakeLock.request('screen');
      // The browser drops it when the page is hidden; visibilitychange asks again.
      this.sentinel.addEventListener('release', () => { this.sentinel = null; });
    } catch {
      this.sentinel = null; // not allowed here (no user activation, a battery saver): nothing to do
    }
  }
}
