// Numbers written as Swift writes a Double with `description` ("\(x)"), so
// every sentence and trace line of the JS engine is the Swift engine's, byte
// for byte: 60.0 (not 60), 5e-05 and 1e+16 (not 0.00005 and 10000000000000000).

const twoTo53 = 2 ** 53;

/**
 * Swift's `Double.description`: shortest round-trip digits; exponential
 * below 1e-4 and above 2^53 (two-digit exponent with its sign), decimal with
 * `.0` for whole numbers otherwise.
 * @param {number} value @returns {string}
 */
export function swiftDescription(value) {
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(value);
  if (magnitude < 1e-4 || magnitude > twoTo53) {
    const [mantissa, exponent] = value.toExponential().split('e');
    const sign = exponent[0];
    const digits = exponent.slice(1).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  const text = String(value);
  return Number.isInteger(value) ? `${text}.0` : text;
}
