// The web app's pure modules (no DOM): words, retry delays, tile faces,
// actions from the settings sheet, the pairing code in the address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickLanguage, translator, words } from '../../Apps/web/js/i18n.mjs';
import {
  FIRST_RETRY, helloMessage, LONGEST_RETRY, pairingCode, PROTOCOL_LEVEL, retryDelay, TOKEN_KEY,
} from '../../Apps/web/js/connection.mjs';
import { faceOf, iconURL } from '../../Apps/web/js/faces.mjs';
import { buildAction, buildButton, describeAction } from '../../Apps/web/js/actions.mjs';

import { refusalWords } from '../../Apps/web/js/refusals.mjs';

test('Korean and English have the same words, none empty', () => {
  assert.deepEqual(Object.keys(words.ko).sort(), Object.keys(words.en).sort());
  for (const table of Object.values(words)) for (const [key, text] of Object.entries(table)) assert.ok(text.trim(), key);
});

test('the language follows the browser, English otherwise', () => {
  assert.equal(pickLanguage(['ko-KR', 'en-US']), 'ko');
  assert.equal(pickLanguage(['fr-FR', 'en-GB']), 'en');
  assert.equal(pickLanguage(['de']), 'en');
  assert.equal(pickLanguage([]), 'en');
});

test('words fill their blanks and an unknown key throws', () => {
  const t = translator('en');
  assert.equal(t('pageOf', { page: 2, pages: 3 }), 'Page 2 of 3');
  assert.equal(translator('ko')('pageOf', { page: 2, pages: 3 }), '3쪽 중 2쪽');
  assert.equal(t('hintMove'), 'Release for settings · drag to move');
  assert.throws(() => t('noSuchWord'));
});

test('reconnection waits 0.5 s doubling to 10 s', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 50].map(retryDelay), [0.5, 1, 2, 4, 8, 10, 10, 10]);
  assert.equal(retryDelay(0), FIRST_RETRY);
  assert.equal(retryDelay(1e6), LONGEST_RETRY);
  assert.throws(() => retryDelay(-1), RangeError);
  assert.throws(() => retryDelay(0.5), RangeError);
});

test('a face: emoji as text, icon names as images, a title in place of the name', () => {
  const plain = { color: null, background: null, state: null, image: null };
  assert.deepEqual(faceOf(null, null), { empty: true });
  assert.deepEqual(faceOf({ name: 'Files', icon: 'folder' }, null), { empty: false, label: 'Files', iconName: 'folder', iconText: null, ...plain });
  assert.deepEqual(faceOf({ name: 'Disk', icon: '💾' }, null), { empty: false, label: 'Disk', iconName: null, iconText: '💾', ...plain });
  assert.deepEqual(faceOf({ name: 'Count', icon: '🔢' }, { title: '3' }), { empty: false, label: '3', iconName: null, iconText: '🔢', ...plain });
  assert.deepEqual(faceOf({ name: 'Plain' }, null), { empty: false, label: 'Plain', iconName: null, iconText: null, ...plain });
  assert.equal(faceOf({ name: 'T', icon: 'a b' }, null).iconText, 'a b');
  assert.equal(iconURL('audio-volume-muted'), '/icons/audio-volume-muted');
  assert.equal(iconURL('../x'), '/icons/..%2Fx');
});

test('actions: each kind from the sheet, other fields kept while the kind stays', () => {
  assert.deepEqual(describeAction({ run: 'ls', cwd: '~' }), { kind: 'run', value: 'ls', plugin: '', command: '' });
  assert.deepEqual(describeAction({ plugin: 'hold', command: 'hold' }), { kind: 'plugin', value: '', plugin: 'hold', command: 'hold' });
  assert.deepEqual(describeAction(undefined).kind, 'run');
  const fields = (kind, value, plugin = '', command = '') => ({ kind, value, plugin, command });
  assert.deepEqual(buildAction(fields('run', ' ls -l '), { run: 'ls', cwd: '~', timeout: 5 }), { action: { run: 'ls -l', cwd: '~', timeout: 5 } });
  assert.deepEqual(buildAction(fields('open', 'https://x'), { run: 'ls', cwd: '~' }), { action: { open: 'https://x' } });
  assert.deepEqual(buildAction(fields('page', '2')), { action: { page: 2 } });
  assert.deepEqual(buildAction(fields('page', 'next')), { action: { page: 'next' } });
  assert.ok('error' in buildAction(fields('page', 'two')));
  assert.ok('error' in buildAction(fields('run', '  ')));
  assert.ok('error' in buildAction(fields('plugin', '', 'counter', '')));
  assert.ok('error' in buildAction(fields('shell', 'x')));
  assert.deepEqual(buildAction(fields('plugin', '', 'counter', 'increment'), { plugin: 'counter', command: 'reset', settings: { a: 1 } }),
    { action: { plugin: 'counter', command: 'increment', settings: { a: 1 } } });
});

test('a button needs a name; an empty icon is left out', () => {
  const sheet = { name: ' Note ', icon: '', kind: 'run', value: 'date', plugin: '', command: '' };
  assert.deepEqual(buildButton(sheet, null), { button: { name: 'Note', action: { run: 'date' } } });
  assert.deepEqual(buildButton({ ...sheet, icon: '📝' }, null).button.icon, '📝');
  assert.deepEqual(buildButton({ ...sheet, name: ' ' }, null), { error: 'name' });
});

test('a name the host would refuse as blank is refused by the sheet too (one check, the engine\'s)', () => {
  const sheet = { name: '', icon: '', kind: 'run', value: 'date', plugin: '', command: '' };
  for (const name of ['\u200b', ' \u200b\u3000', '\u00a0']) {
    assert.deepEqual(buildButton({ ...sheet, name }, null), { error: 'name' }, JSON.stringify(name));
  }
  assert.equal(buildButton({ ...sheet, name: 'a\u200b' }, null).button.name, 'a\u200b');
});

test('the pairing code comes from #pair=CODE', () => {
  assert.equal(pairingCode('#pair=K7Q2-9XMD'), 'K7Q2-9XMD');
  assert.equal(pairingCode('#x=1&pair=AB%2DCD'), 'AB-CD');
  assert.equal(pairingCode(''), null);
  assert.equal(pairingCode('#pairing'), null);
});

test('hello says the pairing code while there is one, else the kept token', () => {
  const storage = (token) => ({ getItem: (key) => (key === TOKEN_KEY ? token : null) });
  const device = { name: 'phone', kind: 'phone' };
  assert.deepEqual(helloMessage(device, storage('tok'), 'K7Q2'),
    { type: 'hello', id: 0, protocol: PROTOCOL_LEVEL, device, pairingCode: 'K7Q2' });
  assert.deepEqual(helloMessage(device, storage('tok'), null), { type: 'hello', id: 0, protocol: PROTOCOL_LEVEL, device, token: 'tok' });
  assert.deepEqual(helloMessage(device, storage(null), null), { type: 'hello', id: 0, protocol: PROTOCOL_LEVEL, device });
});

test('refusals are said in words', () => {
  const t = translator('en');
  assert.match(refusalWords({ code: 'locked' }, t), /locked/);
  assert.match(refusalWords({ code: 'stale' }, t), /another device/);
  assert.equal(refusalWords({ code: 'invalid', message: 'bad icon' }, t), 'Not saved: bad icon');
  assert.equal(refusalWords({ code: 'busy', message: '' }, t), 'Not done: busy');
});
