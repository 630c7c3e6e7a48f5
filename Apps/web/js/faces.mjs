// What a tile shows (WEB.md §5, docs/faces.md): its icon, then its name; the
// live face over it (a state's name, icon and style, a plugin's title and
// image) and a one-shot flash. Pure — no DOM, no clock of its own (time is
// passed in) — so node tests it.

/** Icon names of the freedesktop Icon Theme Specification: the host looks these up under /icons/NAME. */
const ICON_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** A face image's address as docs/faces.md §4 spells it; anything else is not drawn. */
const FACE_URL = /^\/faces\/([0-9a-f]{64})\.(png|jpg|svg)$/;
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** How long a flash shows (s). */
export const FLASH_SECONDS = 1;

/**
 * The named palette (docs/faces.md §1) as drawn on the deck's dark tiles
 * (`--tile` #232833): `back` when it is a background (white or near-black
 * text reads on it at ≥ 4.5:1), `text` when it is the text on a tile
 * (≥ 4.5:1 on the tile, except `black`, which is meant for light backgrounds).
 * docs/web.md lists the values; Tests/web checks the contrasts.
 */
export const PALETTE = {
  black: { back: '#000000', text: '#000000' },
  white: { back: '#f4f6fa', text: '#ffffff' },
  grey: { back: '#4b5363', text: '#b4bcc8' },
  red: { back: '#c62828', text: '#ff8a80' },
  orange: { back: '#b45309', text: '#ffb74d' },
  yellow: { back: '#f2c300', text: '#ffe066' },
  green: { back: '#1f7a3f', text: '#7ee2a0' },
  teal: { back: '#00796b', text: '#64d8cb' },
  blue: { back: '#1e5bc6', text: '#8ab4ff' },
  purple: { back: '#7b3fb5', text: '#d0a8ff' },
  pink: { back: '#c2185b', text: '#ff9ec4' },
};

/**
 * A style colour as CSS, or null for none or one the contract does not know.
 * @param {unknown} value a palette name or `#rgb`/`#rrggbb`
 * @param {'back' | 'text'} use
 */
export function cssColour(value, use) {
  if (typeof value !== 'string') return null;
  const name = value === 'gray' ? 'grey' : value;
  if (Object.hasOwn(PALETTE, name)) return PALETTE[name][use];
  return HEX.test(value) ? value.toLowerCase() : null;
}

/** WCAG relative luminance of `#rgb`/`#rrggbb`. */
export function luminance(hex) {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((d) => d + d) : [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)];
  const [r, g, b] = digits.map((d) => {
    const c = parseInt(d, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two hex colours. */
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The live face of a slot as the host last sent it (`buttonFace`, a
 * welcome's `faces`), or null when it is not one.
 * @param {any} value
 * @returns {{title: string | null, state: string | null, image: {hash: string, url: string} | null} | null}
 */
export function readFace(value) {
  if (!value || typeof value !== 'object' || !Number.isInteger(value.page) || !Number.isInteger(value.index)) return null;
  const url = typeof value.image?.url === 'string' ? FACE_URL.exec(value.image.url) : null;
  return {
    title: typeof value.title === 'string' ? value.title : null,
    state: typeof value.state === 'string' ? value.state : null,
    image: url ? { hash: url[1], url: url[0] } : null,
  };
}

/**
 * A flash's kind while it shows, else null.
 * @param {{kind: string, until: number} | null | undefined} flash @param {number} now seconds
 */
export function flashAt(flash, now) {
  return flash && now < flash.until ? flash.kind : null;
}

/**
 * The face of a button: icon (an image name or text shown as it is), label,
 * colours, the state showing and the image.
 * @param {{name: string, icon?: string, style?: object, states?: object[]} | null} button
 * @param {{title?: string | null, state?: string | null, image?: {hash: string, url: string} | null} | null | undefined} live
 */
export function faceOf(button, live) {
  if (!button) return { empty: true };
  const shown = Array.isArray(button.states) ? button.states.find((s) => s && s.id === live?.state) : undefined;
  // An id the layout no longer declares (a reload raced the face): state 0.
  const state = shown && shown !== button.states[0] ? shown : null;
  const name = state?.name ?? button.name;
  const style = { ...button.style, ...state?.style };
  const back = cssColour(style.background, 'back');
  let text = cssColour(style.color, 'text');
  // A background without a text colour: whichever of white and near-black reads better on it.
  if (!text && back) text = contrast(back, '#ffffff') >= contrast(back, '#111111') ? '#ffffff' : '#111111';
  const icon = typeof (state?.icon ?? button.icon) === 'string' ? (state?.icon ?? button.icon).trim() : '';
  const face = {
    empty: false,
    label: typeof live?.title === 'string' ? live.title : name,
    iconName: icon && ICON_NAME.test(icon) ? icon : null,
    iconText: icon && !ICON_NAME.test(icon) ? icon : null,
    color: text,
    background: back,
    state: state ? state.id : null,
    image: live?.image ?? null,
  };
  return face;
}

/**
 * The address of an icon name's image on the host.
 * @param {string} name
 */
export function iconURL(name) {
  return `/icons/${encodeURIComponent(name)}`;
}
