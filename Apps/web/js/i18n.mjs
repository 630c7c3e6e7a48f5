// The app's words in English and Korean, chosen by the browser's language.

/** @typedef {keyof typeof en} WordKey */

const en = {
  connecting: 'Connecting…',
  offline: 'Offline — reconnecting',
  connected: 'Connected',
  notPaired: 'This browser is not paired. On the desktop run “deckctl pair NAME” and open its link here.',
  loadFailed: 'Part of the deck did not load, so buttons cannot be pressed. Reload the page.',
  locked: 'The desktop is locked',
  hintMove: 'Release for settings · drag to move',
  hintSettings: 'Release for settings',
  done: 'Done',
  settingsTitle: 'Button {slot}',
  addTitle: 'Add button · {slot}',
  name: 'Name',
  icon: 'Icon (emoji or icon name)',
  action: 'Action',
  actionRun: 'Run a command',
  actionOpen: 'Open a file or address',
  actionPage: 'Go to a page',
  actionProfile: 'Switch to a profile',
  actionPlugin: 'Plugin command',
  command: 'Command',
  target: 'File or address',
  page: 'Page (number, next or previous)',
  profile: 'Profile',
  plugin: 'Plugin',
  pluginCommand: 'Command',
  save: 'Save',
  remove: 'Remove',
  cancel: 'Cancel',
  moveTo: 'Move to…',
  moveHere: 'Move',
  slotLabel: 'Page {page}, slot {index}',
  slotEmpty: 'Page {page}, slot {index} (empty)',
  emptySlot: 'Empty slot',
  addButton: 'Add button',
  pageOf: 'Page {page} of {pages}',
  refusedOffline: 'Not sent: the deck is offline.',
  refusedLocked: 'Not done: the desktop is locked.',
  refusedStale: 'Not done: this slot changed on another device. The deck now shows the desktop’s layout.',
  refusedInvalid: 'Not saved: {message}',
  refusedOther: 'Not done: {message}',
  nameRequired: 'A button needs a name.',
  pressFailed: 'The button did not run: {message}',
  saving: 'Saving…',
};

/** @type {Record<WordKey, string>} */
const ko = {
  connecting: '연결하는 중…',
  offline: '연결 끊김 — 다시 연결하는 중',
  connected: '연결됨',
  notPaired: '이 브라우저는 등록되지 않았습니다. 컴퓨터에서 “deckctl pair 이름”을 실행하고 그 링크를 여기서 여세요.',
  loadFailed: '덱의 일부를 불러오지 못해 버튼을 누를 수 없습니다. 페이지를 새로 고치세요.',
  locked: '컴퓨터가 잠겨 있습니다',
  hintMove: '놓으면 설정 · 끌면 옮기기',
  hintSettings: '놓으면 설정',
  done: '완료',
  settingsTitle: '버튼 {slot}',
  addTitle: '버튼 추가 · {slot}',
  name: '이름',
  icon: '아이콘 (이모지 또는 아이콘 이름)',
  action: '하는 일',
  actionRun: '명령 실행',
  actionOpen: '파일이나 주소 열기',
  actionPage: '페이지로 가기',
  actionProfile: '프로필 바꾸기',
  actionPlugin: '플러그인 명령',
  command: '명령',
  target: '파일 또는 주소',
  page: '페이지 (번호, next, previous)',
  profile: '프로필',
  plugin: '플러그인',
  pluginCommand: '명령',
  save: '저장',
  remove: '지우기',
  cancel: '취소',
  moveTo: '옮기기…',
  moveHere: '옮기기',
  slotLabel: '{page}쪽 {index}번 칸',
  slotEmpty: '{page}쪽 {index}번 칸 (빈 칸)',
  emptySlot: '빈 칸',
  addButton: '버튼 추가',
  pageOf: '{pages}쪽 중 {page}쪽',
  refusedOffline: '보내지 않았습니다: 연결이 끊겨 있습니다.',
  refusedLocked: '하지 않았습니다: 컴퓨터가 잠겨 있습니다.',
  refusedStale: '하지 않았습니다: 다른 기기에서 이 칸이 바뀌었습니다. 지금은 컴퓨터의 배치를 보여 줍니다.',
  refusedInvalid: '저장하지 않았습니다: {message}',
  refusedOther: '하지 않았습니다: {message}',
  nameRequired: '버튼에는 이름이 있어야 합니다.',
  pressFailed: '버튼이 실행되지 않았습니다: {message}',
  saving: '저장하는 중…',
};

/** The word tables, by language. */
export const words = { en, ko };

/**
 * The language to use for a list of preferred languages (navigator.languages):
 * the first that is Korean or English, else English.
 * @param {readonly string[]} preferred
 * @returns {'en' | 'ko'}
 */
export function pickLanguage(preferred) {
  for (const tag of preferred) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (base === 'ko' || base === 'en') return base;
  }
  return 'en';
}

/**
 * A translator for one language: `t('pageOf', {page: 1, pages: 3})`.
 * @param {'en' | 'ko'} language
 * @returns {(key: WordKey, values?: Record<string, string | number>) => string}
 */
export function translator(language) {
  const table = words[language] ?? en;
  return (key, values = {}) => {
    const text = table[key] ?? en[key];
    if (text === undefined) throw new Error(`no words for '${key}'`);
    return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? `{${name}}`));
  };
}
