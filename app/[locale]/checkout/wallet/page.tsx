import { SandboxWallet } from '@/components/payment/sandbox-wallet';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/checkout/wallet?order=CODE`: the sandbox wallet the payer is redirected to (approve or cancel). */
export default clientPage(SandboxWallet, ['Checkout']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
