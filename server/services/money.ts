import 'server-only';

// Money formatting lives in lib/money.ts, shared with the browser; the server's services import it from here.
export { currencyFormat, decimalAmount, formatMoney, minorDigits } from '../../lib/money';
