// The settings sheet (a dialog): name, icon, action → setButton; Remove →
// clearButton with `expecting`; Move to… for people who cannot drag.
// Refusals are said here in words (WEB.md §6), never swallowed.

import { KINDS, buildButton, describeAction } from './actions.mjs';

const KIND_WORDS = { run: 'actionRun', open: 'actionOpen', page: 'actionPage', profile: 'actionProfile', plugin: 'actionPlugin' };
const VALUE_WORDS = { run: 'command', open: 'target', page: 'page', profile: 'profile' };

export class SettingsSheet {
  /**
   * @param {HTMLDialogElement} dialog `[data-role="settings"]`
   * @param {(key: string, values?: object) => string} t
   * @param {object} handlers
   * @param {(slot: {page: number, index: number}, button: object) => Promise<object>} handlers.save
   * @param {(slot: {page: number, index: number}, expecting: object) => Promise<object>} handlers.remove
   * @param {(slot: {page: number, index: number}, to: {page: number, index: number}) => Promise<object>} handlers.move
   * @param {(reply: object) => string} handlers.refusal words for an error reply
   */
  constructor(dialog, t, handlers) {
    this.dialog = dialog;
    this.t = t;
    this.handlers = handlers;
    this.form = dialog.querySelector('form');
    this.message = dialog.querySelector('[data-role="message"]');
    this.slot = null;
    this.button = null;
    const kind = this.form.elements.namedItem('action');
    kind.replaceChildren(...KINDS.map((k) => new Option(t(KIND_WORDS[k]), k)));
    for (const el of dialog.querySelectorAll('[data-word]')) el.textContent = t(el.dataset.word);
    kind.addEventListener('change', () => this.showKind());
    this.form.addEventListener('submit', (event) => { event.preventDefault(); this.save(); });
    dialog.querySelector('[data-role="cancel"]').addEventListener('click', () => this.close());
    dialog.querySelector('[data-role="remove"]').addEventListener('click', () => this.remove());
    dialog.querySelector('[data-role="move"]').addEventListener('click', () => this.move());
    dialog.addEventListener('cancel', () => { this.slot = null; });
  }

  get isOpen() { return this.dialog.open; }

  /**
   * Opens the sheet for a slot: its button, or an empty form to add one.
   * @param {{page: number, index: number}} slot
   * @param {object | null} button
   * @param {{page: number, index: number, button: object | null}[]} targets slots it could move to
   */
  open(slot, button, targets) {
    this.slot = slot;
    this.button = button;
    const slotText = `${slot.page + 1}/${slot.index + 1}`;
    this.dialog.dataset.slot = `${slot.page}/${slot.index}`;
    this.dialog.querySelector('h2').textContent = this.t(button ? 'settingsTitle' : 'addTitle', { slot: slotText });
    const f = this.form.elements;
    const described = describeAction(button?.action);
    f.namedItem('name').value = button?.name ?? '';
    f.namedItem('icon').value = button?.icon ?? '';
    f.namedItem('action').value = described.kind;
    f.namedItem('value').value = described.value;
    f.namedItem('plugin').value = described.plugin;
    f.namedItem('command').value = described.command;
    const moveTo = f.namedItem('moveTo');
    moveTo.replaceChildren(...targets.map((target) => new Option(
      this.t(target.button ? 'slotLabel' : 'slotEmpty', { page: target.page + 1, index: target.index + 1 })
        + (target.button ? ` · ${target.button.name}` : ''),
      `${target.page}/${target.index}`)));
    this.dialog.querySelector('[data-role="remove"]').hidden = !button;
    this.dialog.querySelector('.move').hidden = !button || targets.length === 0;
    this.say('');
    this.showKind();
    if (!this.dialog.open) this.dialog.showModal();
    f.namedItem('name').focus();
  }

  close() {
    this.slot = null;
    if (this.dialog.open) this.dialog.close();
  }

  showKind() {
    const kind = this.form.elements.namedItem('action').value;
    this.dialog.querySelector('.value').hidden = kind === 'plugin';
    this.dialog.querySelector('.plugin').hidden = kind !== 'plugin';
    if (VALUE_WORDS[kind]) this.dialog.querySelector('.value .word').textContent = this.t(VALUE_WORDS[kind]);
  }

  say(text) {
    this.message.textContent = text;
    this.message.hidden = !text;
  }

  fields() {
    const f = this.form.elements;
    const value = (name) => f.namedItem(name).value;
    return { name: value('name'), icon: value('icon'), kind: value('action'), value: value('value'),
      plugin: value('plugin'), command: value('command') };
  }

  async save() {
    const built = buildButton(this.fields(), this.button);
    if ('error' in built) return this.say(built.error === 'name' ? this.t('nameRequired') : this.t('refusedInvalid', { message: built.error }));
    await this.finish(this.handlers.save(this.slot, built.button));
  }

  async remove() {
    if (this.button) await this.finish(this.handlers.remove(this.slot, this.button));
  }

  async move() {
    const [page, index] = this.form.elements.namedItem('moveTo').value.split('/').map(Number);
    if (Number.isInteger(page)) await this.finish(this.handlers.move(this.slot, { page, index }));
  }

  /** Closes on `ok`; says a refusal and stays open otherwise. */
  async finish(pending) {
    const slot = this.slot;
    this.say(this.t('saving'));
    const reply = await pending;
    if (this.slot !== slot) return;
    if (reply.type === 'ok') this.close();
    else this.say(this.handlers.refusal(reply));
  }
}
