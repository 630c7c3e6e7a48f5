// Error replies in words (WEB.md §6: refusals are said, never swallowed).

/**
 * @param {{code?: string, message?: string}} reply
 * @param {(key: string, values?: object) => string} t
 */
export function refusalWords(reply, t) {
  switch (reply.code) {
    case 'offline': return t('refusedOffline');
    case 'locked': return t('refusedLocked');
    case 'stale': return t('refusedStale');
    case 'invalid': return t('refusedInvalid', { message: reply.message ?? '' });
    default: return t('refusedOther', { message: reply.message || reply.code || '' });
  }
}
