import { Decimal } from 'decimal.js';

// Amounts cross the API as plain decimal strings: never exponent notation (1e-8), whatever the size.
Decimal.set({ toExpNeg: -40, toExpPos: 40, precision: 40 });

export { Decimal };
