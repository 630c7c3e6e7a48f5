// What a tile shows (WEB.md §5): its icon, then its name — or a plugin's
// title in place of the name while one is set. Pure, so node tests it.

/** Icon names of the freedesktop Icon Theme Specification: the host looks these up under /icons/NAME. */
const ICON_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The face of a button: the icon (an image name or text shown as it is) and the label.
 * @param {{name: string, icon?: string} | null} button
 * @param {string | null | undefined} title the plugin's title (`buttonState`), or null
 * @returns {{empty: true} | {empty: false, label: string, iconName: string | null, iconText: string | null}}
 */
export function faceOf(button, title) {
  if (!button) return { empty: true };
  const icon = typeof button.icon === 'string' ? button.icon.trim() : '';
  const label = typeof title === 'string' ? title : button.name;
  if (!icon) return { empty: false, label, iconName: null, iconText: null };
  return ICON_NAME.test(icon)
    ? { empty: false, label, iconName: icon, iconText: null }
    : { empty: false, label, iconName: null, iconText: icon };
}

/**
 * The address of an icon name's image on the host.
 * @param {string} name
 */
export function iconURL(name) {
  return `/icons/${encodeURIComponent(name)}`;
}
