// A button's action as the settings sheet edits it: a kind and one value
// (plugin: id and command), keeping the action's other fields (cwd, timeout,
// settings) while the kind stays. Pure, so node tests it.

import { isBlankLabel } from '../engine/layout.mjs';

/** The action kinds of PROFILE.md §3, in the sheet's order. */
export const KINDS = ['run', 'open', 'page', 'profile', 'plugin'];

/**
 * The kind and the sheet's values of an action.
 * @param {object | undefined} action
 * @returns {{kind: string, value: string, plugin: string, command: string}}
 */
export function describeAction(action) {
  const kind = KINDS.find((k) => action && Object.hasOwn(action, k)) ?? 'run';
  if (kind === 'plugin') return { kind, value: '', plugin: String(action.plugin ?? ''), command: String(action.command ?? '') };
  return { kind, value: action && action[kind] !== undefined ? String(action[kind]) : '', plugin: '', command: '' };
}

/**
 * The action the sheet's values make, or an error sentence.
 * @param {{kind: string, value: string, plugin: string, command: string}} fields
 * @param {object | undefined} previous the action being edited (its other fields stay when the kind does)
 * @returns {{action: object} | {error: string}}
 */
export function buildAction(fields, previous) {
  const { kind } = fields;
  if (!KINDS.includes(kind)) return { error: `unknown action kind '${kind}'` };
  const keep = previous && describeAction(previous).kind === kind ? { ...previous } : {};
  if (kind === 'plugin') {
    const plugin = fields.plugin.trim();
    const command = fields.command.trim();
    if (!plugin || !command) return { error: 'a plugin action needs a plugin and a command' };
    return { action: { ...keep, plugin, command } };
  }
  const value = fields.value.trim();
  if (!value) return { error: `a ${kind} action needs a value` };
  if (kind === 'page') {
    if (value === 'next' || value === 'previous') return { action: { ...keep, page: value } };
    if (!/^\d+$/.test(value)) return { error: 'a page is a number from 0, next or previous' };
    return { action: { ...keep, page: Number(value) } };
  }
  return { action: { ...keep, [kind]: value } };
}

/**
 * The button the sheet's values make.
 * @returns {{button: object} | {error: string}}
 */
export function buildButton({ name, icon, ...fields }, previous) {
  // The host's own test (String.isBlankLabel): a zero-width space is as blank as a space.
  if (isBlankLabel(name)) return { error: 'name' };
  const built = buildAction(fields, previous?.action);
  if ('error' in built) return built;
  const button = { name: name.trim(), action: built.action };
  if (icon.trim()) button.icon = icon.trim();
  // The sheet does not edit a button's colours and states (the profile does): an edit keeps them.
  for (const key of ['style', 'states']) if (previous?.[key]) button[key] = previous[key];
  return { button };
}
